// SPDX-License-Identifier: GPL-3.0-or-later
//
// Helpers of the UI tests: the default preset loaded into a document or parsed as an experiment
// (its runs and metrics, nothing built or run), batches of one metric to feed the plots by hand,
// and a widget shown on screen.
#pragma once

#include "experimentdocument.h"
#include "presetlibrary.h"
#include "runtypes.h"

#include "dplab/engine/experiment.h"

#include <QTest>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

/** The default preset with `edit` applied to its document, parsed (not built); nullopt when it
 *  cannot be read or parsed. */
inline std::optional<dplab::Experiment> defaultPresetExperiment(const std::function<void(dplab::Json &)> &edit = {})
{
    dplab::Json doc;
    QString error;
    if (!dplab::PresetLibrary::read(dplab::PresetLibrary::defaultPreset(), &doc, &error)) {
        qWarning("%s", qPrintable(error));
        return std::nullopt;
    }
    if (edit)
        edit(doc);
    auto parsed = dplab::parseExperiment(doc, dplab::PresetLibrary::baseDir().toStdString());
    if (!parsed) {
        qWarning("%s", parsed.error().toString().c_str());
        return std::nullopt;
    }
    return std::move(parsed.value());
}

/** defaultPresetExperiment(edit), shared, for the tests' set-up: a fatal error when it fails. */
inline std::shared_ptr<const dplab::Experiment> sharedPresetExperiment(const std::function<void(dplab::Json &)> &edit)
{
    auto experiment = defaultPresetExperiment(edit);
    if (!experiment)
        qFatal("the default preset does not parse");
    return std::make_shared<const dplab::Experiment>(std::move(*experiment));
}

/** Loads the default preset into `document`; false (and a warning) when it cannot. */
inline bool loadDefaultPreset(dplab::ExperimentDocument &document)
{
    dplab::Json preset;
    QString error;
    const bool ok = dplab::PresetLibrary::read(dplab::PresetLibrary::defaultPreset(), &preset, &error)
                    && document.loadJson(preset, dplab::PresetLibrary::baseDir(), QString(), &error);
    if (!ok)
        qWarning("%s", qPrintable(error));
    return ok;
}

/** Shows `widget` at width × height; false when it is never exposed. */
inline bool shown(QWidget &widget, int width, int height)
{
    widget.resize(width, height);
    widget.show();
    return QTest::qWaitForWindowExposed(&widget);
}

/** A batch of run 0, repetition 0: `metric` at iterations [from, to), value(k) at iteration k. */
inline dplab::RunBatch metricBatch(const QString &metric, int from, int to, const std::function<double(int)> &value)
{
    dplab::RunBatch batch;
    batch.names = {metric};
    for (int k = from; k < to; ++k) {
        batch.iterations << k;
        batch.values << value(k);
    }
    return batch;
}
