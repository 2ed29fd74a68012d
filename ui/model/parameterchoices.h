// SPDX-License-Identifier: GPL-3.0-or-later
//
// The numeric parameters of an experiment's runs, read from the algorithm descriptors
// (docs/architecture.md §2): what the sweep editor and the Tune dialog offer instead of a JSON
// path typed by hand. Each choice is a run's `params.<key>` or `privacy.<key>` whose descriptor
// type is a real, an integer or a step-size schedule (a constant one as its number, another one
// by its scale `a`: "params.stepsize.a"), with the descriptor's label, unit, range and scale hint. A key that every run has is offered once for every run too
// (`runs[*].params.stepsize`).
//
// Threading: plain values and pure functions (GUI thread in practice).
#pragma once

#include "dplab/common/params.h"

#include <QString>
#include <QVector>

#include <string>

namespace dplab {

struct ParameterChoice {
    int run = -1;         ///< the run, or -1: every run (each has the key)
    std::string key;      ///< relative to a run: "params.stepsize", "privacy.epsilon"
    QString label;        ///< the descriptor's label ("Step size α")
    QString unit;         ///< the descriptor's unit ("" when none)
    QString runLabel;     ///< the run's label, or "every run"
    double min = -1e300, max = 1e300; ///< the descriptor's range (inclusive unless minExclusive)
    bool minExclusive = false;
    bool integer = false;
    bool logScale = false; ///< the descriptor's hint: a log scale suits it
    double value = 0.0;    ///< the current value (the first run's for every run); NaN when unset
    /** The JSON path a sweep or `tune` takes: "runs[*].params.stepsize" / "runs[2].params.stepsize". */
    std::string path() const;
    /** What a list shows: "Step size α (params.stepsize) — every run". */
    QString title() const;
    /** The range in words: "> 0", "0 … 1", "any". */
    QString rangeText() const;
    /** Whether `v` is inside the descriptor's range. */
    bool accepts(double v) const;
};

/** Every numeric parameter of the runs of `document` (an experiment document, e.g.
 *  ExperimentDocument::toJson()): the every-run choices first, then run by run. */
QVector<ParameterChoice> numericParameters(const Json &document);

} // namespace dplab
