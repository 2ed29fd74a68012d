// SPDX-License-Identifier: GPL-3.0-or-later
#include "clireport.h"

#include "reportwriter.h"

#include <QApplication>
#include <QString>
#include <QtGlobal>

#include <cstdlib>

namespace dplab::cli {

namespace {

QtMessageHandler gDefaultHandler = nullptr;

// Qt's note that XDG_RUNTIME_DIR is unset (usual in CI and containers) is noise for a CLI.
void quietHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (message.contains(QLatin1String("XDG_RUNTIME_DIR")))
        return;
    if (gDefaultHandler)
        gDefaultHandler(type, context, message);
}

} // namespace

bool writeReport(int argc, char **argv, const std::string &dir, std::shared_ptr<const Experiment> experiment,
                 std::shared_ptr<const ExperimentResult> result, const std::string &overrides, const Json &tuning,
                 std::string *error, int *pages, const std::string &plotSize)
{
    // Headless unless a display is there: the report draws with widgets but never shows one.
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM"))
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    gDefaultHandler = qInstallMessageHandler(quietHandler);
    int qtArgc = argc > 0 ? 1 : 0;
    QApplication app(qtArgc, argv);
    ReportWriter writer(std::move(experiment), std::move(result));
    ReportInfo info;
    info.overrides = overrides;
    writer.setInfo(info);
    writer.setTuning(tuning);
    if (!writer.setPlotSize(QString::fromStdString(plotSize))) {
        *error = "--plot-size " + plotSize + ": must be single, double or slide";
        return false;
    }
    QString message;
    if (!writer.write(QString::fromStdString(dir), &message)) {
        *error = message.toStdString();
        return false;
    }
    *pages = writer.pdfPageCount();
    return true;
}

} // namespace dplab::cli
