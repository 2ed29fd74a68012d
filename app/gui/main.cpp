// SPDX-License-Identifier: GPL-3.0-or-later
//
// dplab: the lab window. Thin by design: everything lives in dplab_ui.
//   dplab [--run] [--view live|comparison|sweep] [--teaching TAB] [--presentation FACTOR] [--presentation-mode] [EXPERIMENT.json]
//   opens the file (or the default preset); --run starts the run at once; --view picks the
//   result tab; --teaching records the experiment and shows a Teaching tab; --presentation
//   sets the presentation size; --presentation-mode starts in presentation mode.
#include "experimentfiles.h"
#include "graphactions.h"
#include "graphscene.h"
#include "graphview.h"
#include "mainwindow.h"
#include "nodeitem.h"
#include "plotpanel.h"
#include "presentationscale.h"
#include "teachingdock.h"
#include "tunedialog.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QMessageBox>
#include <QTimer>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("DPLab"));
    QApplication::setApplicationName(QStringLiteral("DPLab"));
    QApplication::setApplicationVersion(dplab::MainWindow::version());
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/dplab.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Differentially private distributed optimization and online learning over graphs."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("experiment"), QStringLiteral("Experiment file to open (.json)."),
                                 QStringLiteral("[experiment.json]"));
    QCommandLineOption runOption(QStringLiteral("run"), QStringLiteral("Start the run as soon as the window is shown."));
    parser.addOption(runOption);
    QCommandLineOption viewOption(QStringLiteral("view"), QStringLiteral("Result view to show: live, comparison or sweep."),
                                  QStringLiteral("view"), QStringLiteral("live"));
    parser.addOption(viewOption);
    QCommandLineOption dialogOption(QStringLiteral("dialog"),
                                    QStringLiteral("Open a dialog or panel once the window is shown (generator, help, "
                                                   "weight-matrix, node-menu: node 0's context menu, sweep: Run > Sweep..., tune: Run > "
                                                   "Tune... started with its defaults)."),
                                    QStringLiteral("dialog"));
    QCommandLineOption presentationOption(QStringLiteral("presentation"),
                                          QStringLiteral("Presentation size for this session (1 = normal, 1.5, 2), "
                                                         "not saved."),
                                          QStringLiteral("factor"));
    parser.addOption(presentationOption);
    parser.addOption(dialogOption);
    QCommandLineOption perAgentOption(QStringLiteral("epsilon-per-agent"),
                                      QStringLiteral("Show every agent's ε in the ε plot, not only the max."));
    parser.addOption(perAgentOption);
    QCommandLineOption teachingOption(
        QStringLiteral("teaching"),
        QStringLiteral("Record the experiment and show a Teaching tab: network, message, eavesdropper, frontier, "
                       "theory or notes."),
        QStringLiteral("tab"));
    parser.addOption(teachingOption);
    QCommandLineOption presentationModeOption(QStringLiteral("presentation-mode"),
                                              QStringLiteral("Start in presentation mode (lesson notes, locked parameters)."));
    parser.addOption(presentationModeOption);
    QCommandLineOption resultsOption(QStringLiteral("results"),
                                     QStringLiteral("Open a results folder (as File > Open Results...): checked against its "
                                                    "manifest, shown without running."),
                                     QStringLiteral("folder"));
    parser.addOption(resultsOption);
    parser.process(app);

    dplab::MainWindow window;
    const QStringList files = parser.positionalArguments();
    // After a crash: offer the autosaved experiment first (it replaces what would be opened).
    bool restored = false;
    if (dplab::ExperimentFiles::hasRecovery()) {
        window.showInitially();
        restored = window.files()->offerRecovery();
    }
    if (!restored) {
        if (files.isEmpty())
            window.openPreset(dplab::MainWindow::defaultPreset());
        else
            window.openFile(files.first());
    }
    window.showInitially();
    if (parser.isSet(resultsOption)) {
        QString error;
        const QString dir = parser.value(resultsOption);
        if (!window.loadResults(dir, &error))
            QMessageBox::warning(&window, QObject::tr("Open results"),
                                 QObject::tr("Could not open the results in %1:\n%2").arg(dir, error));
    }
    window.showView(parser.value(viewOption));
    if (parser.isSet(perAgentOption))
        window.plotPanel()->setEpsilonPerAgent(true);
    if (parser.isSet(presentationOption))
        window.setPresentationScale(parser.value(presentationOption).toDouble(), false);
    if (parser.value(dialogOption) == QLatin1String("generator"))
        QTimer::singleShot(500, &window, &dplab::MainWindow::generateGraph);
    if (parser.value(dialogOption) == QLatin1String("help"))
        QTimer::singleShot(0, &window, &dplab::MainWindow::showHelp);
    if (parser.value(dialogOption) == QLatin1String("sweep"))
        QTimer::singleShot(500, &window, [&window] { window.showSweepEditor(); });
    if (parser.value(dialogOption) == QLatin1String("tune"))
        QTimer::singleShot(500, &window, [&window] { window.showTuneDialog()->startTuning(); });
    if (parser.value(dialogOption) == QLatin1String("weight-matrix"))
        QTimer::singleShot(500, &window, [&window] { window.graphActions()->matrixAction()->trigger(); });
    if (parser.value(dialogOption) == QLatin1String("node-menu"))
        QTimer::singleShot(500, &window, [&window] {
            auto *scene = window.findChild<dplab::GraphScene *>();
            auto *view = window.findChild<dplab::GraphView *>();
            if (!scene || !view || !scene->nodeItem(0))
                return;
            const QPointF at = scene->nodeItem(0)->pos();
            scene->clearSelection();
            scene->nodeItem(0)->setSelected(true);
            window.graphActions()->showContextMenu(0, dplab::Edge{-1, -1},
                                                   view->viewport()->mapToGlobal(view->mapFromScene(at)), at);
        });
    if (auto *teaching = window.findChild<dplab::TeachingDock *>()) {
        if (parser.isSet(presentationModeOption))
            teaching->presentationAction()->setChecked(true);
        if (parser.isSet(teachingOption))
            QTimer::singleShot(0, teaching, [teaching, tab = parser.value(teachingOption)] { teaching->showTab(tab); });
    }
    if (parser.isSet(runOption))
        QTimer::singleShot(0, &window, &dplab::MainWindow::startRun);
    return app.exec();
}
