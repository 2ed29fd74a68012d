// SPDX-License-Identifier: GPL-3.0-or-later
#include "openresults.h"

#include "comparisonview.h"
#include "liveresults.h"
#include "metricplot.h"
#include "plotpanel.h"
#include "reportwriter.h"
#include "sweepview.h"
#include "textconvert.h"

#include "dplab/engine/results.h"

#include <filesystem>

namespace dplab {

bool openResultsFolder(const QString &dir, OpenedResults *opened, QString *error)
{
    auto folder = readResultsFolder(toStdString(dir));
    if (!folder) {
        *error = toQString(folder.error().toString());
        return false;
    }
    const Shard shard = folder->manifest.shard;
    if (!shard.whole()) {
        *error = QObject::tr("%1 holds shard %2/%3 only: merge the shards first (dplab-cli merge DIR… --out DIR)")
                     .arg(dir)
                     .arg(shard.index)
                     .arg(shard.count);
        return false;
    }
    auto experiment = loadFolderExperiment(*folder);
    if (!experiment) {
        *error = toQString(experiment.error().toString());
        return false;
    }
    opened->baseDir = toQString(experiment->baseDir);
    opened->unverified = folder->manifest.hasDigests() ? QString() : toQString(unverifiedNotice(toStdString(dir)));
    opened->experiment = std::make_shared<const Experiment>(std::move(*experiment));
    opened->result = std::make_shared<const ExperimentResult>(std::move(folder->result));
    return true;
}

void showOpenedResults(const OpenedResults &opened, const QVector<QColor> &colors, LiveResults *live,
                       PlotPanel *plots, ComparisonView *comparison, SweepView *sweep)
{
    plots->setRunColors(colors);
    for (int p = 0; p < PlotPanel::PlotCount; ++p)
        plots->setRunSuffixes(p, {});
    plots->plot(PlotPanel::Epsilon)->setSubtitle(QString());
    comparison->setRunColors(colors);
    sweep->setRunColors(colors);
    fillLiveResults(live, *opened.experiment, *opened.result);
    plots->showOutcome(*opened.result);
    const Experiment &e = *opened.experiment;
    comparison->setResult(opened.result, e.sweep ? toQString(e.sweep->parameter) : QString());
    sweep->setResult(opened.experiment, opened.result);
}

} // namespace dplab
