// SPDX-License-Identifier: GPL-3.0-or-later
//
// Value types that cross from the runner's threads to the GUI thread:
// copies of core's MetricsBatch and StatusEvent in Qt containers.
//
// Threading: plain values, safe to copy between threads.
#pragma once

#include "dplab/engine/runner.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace dplab {

/** Recorded metric values of one (sweep point, run, repetition): values[k * names.size() + m]
 *  is metric m at iterations[k]. */
struct RunBatch {
    int point = 0;
    int run = 0;
    int repetition = 0;
    QStringList names;
    QVector<qint64> iterations;
    QVector<double> values;
    /** Per-agent cumulative ε: epsilonAgents[k * agents + i] at iterations[k] (agents = 0 without
     *  an accountant). */
    int agents = 0;
    QVector<double> epsilonAgents;
    /** The accountant's alternative bounds (max over agents): epsilonAlternatives[k * n + a],
     *  n = alternatives (0 when the accountant has none). */
    int alternatives = 0;
    QVector<double> epsilonAlternatives;
    QStringList alternativeNames;
};

/** A status change of one (point, run, repetition): started, warning, diverged at k,
 *  cancelled, finished. */
struct RunEvent {
    StatusEvent::Kind kind = StatusEvent::Kind::Started;
    int point = 0;
    int run = 0;
    int repetition = 0;
    qint64 iteration = 0;
    QString message;
};

} // namespace dplab
