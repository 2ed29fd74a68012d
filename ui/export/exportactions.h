// SPDX-License-Identifier: GPL-3.0-or-later
//
// ExportActions: File ▸ Export All Plots, Export Data (metrics, per-agent ε, final values, sweep
// CSV) and Export Report of the last finished run. A report asked for before any run starts the
// run and is written when it finishes. Files are written atomically.
//
// Threading: GUI thread.
#pragma once

#include "dplab/common/params.h"

#include <QObject>
#include <QString>

#include <memory>

class QAction;
class QMenu;
class QWidget;

namespace dplab {

class ExperimentDocument;
class PlotPanel;
class RunActions;
class RunController;
struct ExperimentResult;

class ExportActions : public QObject
{
    Q_OBJECT

public:
    /** Data files of the last finished run (File ▸ Export Data). */
    enum class DataExport { Metrics = 0, EpsilonPerAgent = 1, FinalValues = 2, Sweep = 3 };

    /** `window` parents the dialogs. */
    ExportActions(ExperimentDocument *document, RunController *controller, RunActions *runs, PlotPanel *plots,
                  QWidget *window);

    QAction *exportPlotsAction() const { return mExportPlotsAction; }
    QAction *exportReportAction() const { return mExportReportAction; }
    /** Adds one action per DataExport kind to `menu`. */
    void fillDataMenu(QMenu *menu);

    /** Writes one data file of the last finished run atomically; false with `error` when
     *  there is none (or no sweep) or the write fails. */
    bool writeData(DataExport kind, const QString &path, QString *error) const;
    /** Writes report.html, report.pdf and the run outputs (metrics.csv, summary.json,
     *  experiment.json, …) of the last finished run into `dir`. */
    bool writeReport(const QString &dir, QString *error);
    /** The tuning of the experiment with compared runs (best.json's contents) that reports
     *  include as "Compare tuned"; null: none (a newly opened experiment has none). */
    void setTuning(const Json &best) { mTuning = best; }

public slots:
    void exportData(dplab::ExportActions::DataExport kind);
    /** Asks for a folder and writes the report there (running the experiment first if needed). */
    void exportReport();

signals:
    /** A message for the status bar. */
    void message(const QString &text, int timeoutMs);

private:
    void onRunFinished(std::shared_ptr<const ExperimentResult> result);
    void onRunFailed();

    ExperimentDocument *mDocument;
    RunController *mController;
    RunActions *mRuns;
    PlotPanel *mPlots;
    QWidget *mWindow;
    QString mPendingReportDir;
    Json mTuning;
    QAction *mExportPlotsAction;
    QAction *mExportReportAction;
};

} // namespace dplab
