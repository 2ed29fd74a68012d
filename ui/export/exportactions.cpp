// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportactions.h"

#include "experimentdocument.h"
#include "plotpanel.h"
#include "rememberedfolder.h"
#include "reportwriter.h"
#include "runactions.h"
#include "runcontroller.h"
#include "textconvert.h"

#include "dplab/common/files.h"
#include "dplab/engine/writers.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

namespace dplab {

ExportActions::ExportActions(ExperimentDocument *document, RunController *controller, RunActions *runs,
                             PlotPanel *plots, QWidget *window)
    : QObject(window)
    , mDocument(document)
    , mController(controller)
    , mRuns(runs)
    , mPlots(plots)
    , mWindow(window)
{
    mExportPlotsAction = new QAction(tr("Export All &Plots…"), this);
    mExportPlotsAction->setToolTip(tr("Save every live plot as it is on screen (PNG at a chosen DPI, SVG or PDF)"));
    connect(mExportPlotsAction, &QAction::triggered, mPlots, &PlotPanel::exportPlots);
    mExportReportAction = new QAction(tr("Export &Report…"), this);
    mExportReportAction->setToolTip(
        tr("Write report.html and report.pdf of the last run (runs the experiment first if needed)"));
    connect(mExportReportAction, &QAction::triggered, this, &ExportActions::exportReport);
    connect(mController, &RunController::finished, this, &ExportActions::onRunFinished);
    connect(mController, &RunController::failed, this, &ExportActions::onRunFailed);
}

void ExportActions::fillDataMenu(QMenu *menu)
{
    const std::pair<DataExport, QString> kinds[] = {{DataExport::Metrics, tr("Metrics CSV…")},
                                                    {DataExport::EpsilonPerAgent, tr("Per-agent ε CSV…")},
                                                    {DataExport::FinalValues, tr("Final Values CSV…")},
                                                    {DataExport::Sweep, tr("Sweep CSV…")}};
    for (const auto &[kind, text] : kinds) {
        QAction *a = menu->addAction(text);
        connect(a, &QAction::triggered, this, [this, kind = kind] { exportData(kind); });
    }
}

bool ExportActions::writeData(DataExport kind, const QString &path, QString *error) const
{
    if (!mRuns->hasFinishedRun()) {
        if (error)
            *error = tr("There is no finished run to export: run the experiment first.");
        return false;
    }
    const Experiment &e = *mController->experiment();
    const ExperimentResult &r = *mController->lastResult();
    std::string text;
    switch (kind) {
    case DataExport::Metrics:
        text = metricsCsv(e, r);
        break;
    case DataExport::EpsilonPerAgent:
        text = epsilonPerAgentCsv(e, r);
        break;
    case DataExport::FinalValues:
        text = finalValuesCsv(e, r);
        break;
    case DataExport::Sweep:
        if (!e.sweep) {
            if (error)
                *error = tr("This experiment has no sweep.");
            return false;
        }
        text = sweepCsv(e, r);
        break;
    }
    if (Status s = writeFileAtomic(toStdString(path), text); !s) {
        if (error)
            *error = toQString(s.error().toString());
        return false;
    }
    return true;
}

void ExportActions::exportData(DataExport kind)
{
    static const char *const names[] = {"metrics.csv", "epsilon_per_agent.csv", "final_values.csv", "sweep.csv"};
    QString error;
    if (!mRuns->hasFinishedRun()) {
        QMessageBox::information(mWindow, tr("Export data"),
                                 tr("There is no finished run to export: run the experiment first."));
        return;
    }
    const QString folder = rememberedFolder(QStringLiteral("data"));
    const QString path = QFileDialog::getSaveFileName(mWindow, tr("Export data"),
                                                      QDir(folder).filePath(QLatin1String(names[int(kind)])),
                                                      tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    rememberFolder(QStringLiteral("data"), path);
    if (!writeData(kind, path, &error))
        QMessageBox::warning(mWindow, tr("Export data"), error);
    else
        emit message(tr("Exported %1").arg(QFileInfo(path).fileName()), 4000);
}

bool ExportActions::writeReport(const QString &dir, QString *error)
{
    if (!mRuns->hasFinishedRun()) {
        if (error)
            *error = tr("There is no finished run to report: run the experiment first.");
        return false;
    }
    const auto experiment = mController->experiment();
    const auto result = mController->lastResult();
    if (Status s = writeRunOutputs(toStdString(dir), *experiment, *result, false); !s) {
        if (error)
            *error = toQString(s.error().toString());
        return false;
    }
    ReportWriter writer(experiment, result);
    QVector<QColor> colors;
    for (int r = 0; r < static_cast<int>(experiment->runs.size()); ++r)
        colors.push_back(mDocument->runColor(r));
    writer.setRunColors(colors);
    writer.setTuning(mTuning);
    return writer.write(dir, error);
}

void ExportActions::exportReport()
{
    const QString dir = QFileDialog::getExistingDirectory(mWindow, tr("Export report into folder"),
                                                          rememberedFolder(QStringLiteral("report")));
    if (dir.isEmpty())
        return;
    rememberFolder(QStringLiteral("report"), dir);
    if (mRuns->hasFinishedRun()) {
        QString error;
        if (!writeReport(dir, &error))
            QMessageBox::warning(mWindow, tr("Export report"), error);
        else
            emit message(tr("Wrote the report to %1").arg(dir), 8000);
        return;
    }
    mPendingReportDir = dir;
    if (mController->isActive()) {
        emit message(tr("The report is written when the run finishes"), 8000);
        return;
    }
    if (!mRuns->start(false))
        mPendingReportDir.clear();
}

void ExportActions::onRunFinished(std::shared_ptr<const ExperimentResult>)
{
    if (mPendingReportDir.isEmpty())
        return;
    const QString dir = mPendingReportDir;
    mPendingReportDir.clear();
    QString error;
    if (!writeReport(dir, &error))
        QMessageBox::warning(mWindow, tr("Export report"), error);
    else
        emit message(tr("Wrote the report to %1").arg(dir), 8000);
}

void ExportActions::onRunFailed()
{
    mPendingReportDir.clear();
}

} // namespace dplab
