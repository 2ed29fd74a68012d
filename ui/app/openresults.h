// SPDX-License-Identifier: GPL-3.0-or-later
//
// File ▸ Open Results… (issue 17): a results folder written by `dplab-cli run`, `merge` or the
// window's exports, shown in the live plots, the comparison view and the sweep view without
// running anything. The folder is read by core's results reader (readResultsFolder), which
// refuses a folder without manifest, one marked incomplete, one whose files do not match the
// sizes, rows and SHA-256 digests its manifest records (naming the file and the damage), and a
// single shard; a folder whose manifest records no digests (older DPLab) opens with a notice
// that it is unverified. The experiment
// is rebuilt from the folder's experiment.json (data files found through the manifest's
// experiment folder).
//
// Threading: GUI thread.
#pragma once

#include "dplab/engine/runner.h"

#include <QColor>
#include <QString>
#include <QVector>

#include <memory>

namespace dplab {

class ComparisonView;
class LiveResults;
class PlotPanel;
class SweepView;

struct OpenedResults {
    std::shared_ptr<const Experiment> experiment;
    std::shared_ptr<const ExperimentResult> result;
    QString baseDir; ///< where the experiment's relative data paths resolve
    /** Non-empty when the folder could not be verified (its manifest records no digests): the
     *  line to show the user. */
    QString unverified;
};

/** Reads `dir`. Returns false with a one-line `error` (naming the folder or file) otherwise. */
bool openResultsFolder(const QString &dir, OpenedResults *opened, QString *error);

/** Shows `opened` in the result views as if its run had just finished there. */
void showOpenedResults(const OpenedResults &opened, const QVector<QColor> &colors, LiveResults *live,
                       PlotPanel *plots, ComparisonView *comparison, SweepView *sweep);

} // namespace dplab
