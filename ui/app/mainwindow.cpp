// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "openresults.h"

#include "experimentdocument.h"
#include "experimentfiles.h"
#include "experimentpanel.h"
#include "graphactions.h"
#include "graphdocument.h"
#include "graphscene.h"
#include "graphview.h"
#include "helppanel.h"
#include "presentationscale.h"
#include "inspectorwidget.h"
#include "liveresults.h"
#include "sweepeditor.h"
#include "tunedialog.h"
#include "nonblockingwarning.h"
#include "plotpanel.h"
#include "presentationcontroller.h"
#include "presetlibrary.h"
#include "rememberedfolder.h"
#include "resultsview.h"
#include "runactions.h"
#include "runcontroller.h"
#include "runhistory.h"
#include "historywidget.h"
#include "runstatuswidget.h"
#include "teachingdock.h"
#include "wheelguard.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace dplab {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , mDocument(new ExperimentDocument(this))
    , mScene(new GraphScene(mDocument->graphDocument(), this))
    , mView(new GraphView(mScene, this))
    , mInspector(new InspectorWidget(mDocument, this))
    , mPanel(new ExperimentPanel(mDocument, this))
    , mResults(new LiveResults(this))
    , mResultsView(new ResultsView(mResults, this))
    , mController(new RunController(this))
    , mFiles(new ExperimentFiles(mDocument, this))
    , mGraphActions(new GraphActions(mDocument, mScene, mView, mInspector, this))
    , mRunActions(new RunActions(mDocument, mController, mResults, mResultsView, this))
    , mHistory(new RunHistory(10, this))
    , mExportActions(new ExportActions(mDocument, mController, mRunActions, mResultsView->plotPanel(), this))
    , mRunStatus(new RunStatusWidget(mController, mResults, this))
    , mHelp(new HelpPanel(mDocument, this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    WheelGuard::install(); // no field of the window changes under the wheel unless it has the focus
    mRunActions->setHistory(mHistory);
    mResultsView->plotPanel()->setHistory(mHistory);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    auto *centre = new QWidget(this);
    auto *centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->addWidget(mView);
    setCentralWidget(centre);

    mUndoAction = mDocument->undoStack()->createUndoAction(this, tr("&Undo"));
    mUndoAction->setShortcut(QKeySequence::Undo);
    mRedoAction = mDocument->undoStack()->createRedoAction(this, tr("&Redo"));
    // The platform's Redo keys may already hold Ctrl+Shift+Z: a key twice on one action is an
    // "ambiguous shortcut" that does nothing. Each key once, Ctrl+Y included.
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    for (const QKeySequence &key : {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)})
        if (!redoKeys.contains(key))
            redoKeys << key;
    mRedoAction->setShortcuts(redoKeys);
    mQuitAction = new QAction(tr("&Quit"), this);
    mQuitAction->setShortcut(QKeySequence::Quit);
    mQuitAction->setMenuRole(QAction::QuitRole);
    connect(mQuitAction, &QAction::triggered, this, &QWidget::close);
    mAboutAction = new QAction(tr("&About DPLab"), this);
    connect(mAboutAction, &QAction::triggered, this, &MainWindow::about);
    mHelpAction = new QAction(tr("&Help on the Selected Run"), this);
    mHelpAction->setShortcut(QKeySequence::HelpContents);
    mHelpAction->setToolTip(tr("What the selected run's algorithm does, its parameters and privacy (F1)"));
    connect(mHelpAction, &QAction::triggered, this, &MainWindow::showHelp);
    mAboutQtAction = new QAction(tr("About &Qt"), this);
    connect(mAboutQtAction, &QAction::triggered, qApp, &QApplication::aboutQt);

    createMenus();
    createToolBars();
    createDocks();
    statusBar()->addPermanentWidget(mRunStatus);

    auto showMessage = [this](const QString &text, int timeout) { statusBar()->showMessage(text, timeout); };
    connect(mFiles, &ExperimentFiles::message, this, showMessage);
    connect(mGraphActions, &GraphActions::message, this, showMessage);
    connect(mRunActions, &RunActions::message, this, showMessage);
    connect(mExportActions, &ExportActions::message, this, showMessage);
    connect(mFiles, &ExperimentFiles::replaced, mRunActions, &RunActions::resetRun);
    connect(mView, &GraphView::experimentDropped, this, [this](const QString &path) {
        QTimer::singleShot(0, mFiles, [this, path] { mFiles->openFile(path); });
    });
    connect(mRunActions, &RunActions::runStatusesChanged, mPanel, &ExperimentPanel::setRunStatuses);

    connect(mDocument, &ExperimentDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(mDocument, &ExperimentDocument::fileNameChanged, this, &MainWindow::updateTitle);
    connect(mDocument, &ExperimentDocument::valueChanged, this, [this](const QString &pointer) {
        if (pointer == QLatin1String("/name"))
            updateTitle();
    });
    connect(mDocument, &ExperimentDocument::loaded, this, [this] {
        mView->fitGraph();
        updateTitle();
    });
    connect(mPanel, &ExperimentPanel::currentRunChanged, mInspector, &InspectorWidget::setCurrentRun);
    connect(mPanel, &ExperimentPanel::currentRunChanged, mHelp, &HelpPanel::setRun);
    mHelp->setRun(mPanel->currentRun());
    connect(mInspector, &InspectorWidget::inspected, this, [this](const Inspection &in) {
        mScene->setHighlightedNodes(in.connectivity.offending);
        const Eigen::MatrixXd none;
        const Eigen::MatrixXd &first = in.matrices.size() > 0 ? in.matrices[0].matrix : none;
        const Eigen::MatrixXd &second = in.matrices.size() > 1 ? in.matrices[1].matrix : none;
        mScene->setWeightMatrices(first, second);
    });

    updateTitle();
    readSettings();
}

MainWindow::~MainWindow() = default;

QString MainWindow::defaultPreset()
{
    return PresetLibrary::defaultPreset();
}

QString MainWindow::version()
{
    return QStringLiteral(DPLAB_VERSION);
}

PlotPanel *MainWindow::plotPanel() const
{
    return mResultsView->plotPanel();
}

ComparisonView *MainWindow::comparisonView() const
{
    return mResultsView->comparisonView();
}

SweepView *MainWindow::sweepView() const
{
    return mResultsView->sweepView();
}

// --- construction -------------------------------------------------------------------------------

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(mFiles->newAction());
    file->addAction(mFiles->openAction());
    mFiles->setRecentMenu(file->addMenu(tr("Open &Recent")));
    file->addAction(mFiles->saveAction());
    file->addAction(mFiles->saveAsAction());
    file->addAction(tr("Open Res&ults…"), this, &MainWindow::openResults)
        ->setToolTip(tr("Show a results folder (dplab-cli run or merge) in the result views without running"));
    file->addSeparator();
    file->addAction(mGraphActions->importAction());
    file->addAction(mGraphActions->exportAction());
    file->addAction(mGraphActions->exportPictureAction());
    file->addAction(mExportActions->exportPlotsAction());
    mExportActions->fillDataMenu(file->addMenu(tr("Export &Data")));
    file->addAction(mExportActions->exportReportAction());
    file->addSeparator();
    file->addAction(mQuitAction);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(mUndoAction);
    edit->addAction(mRedoAction);
    edit->addSeparator();
    edit->addAction(mGraphActions->deleteAction());
    edit->addAction(mGraphActions->selectAllAction());

    mViewMenu = menuBar()->addMenu(tr("&View"));
    mViewMenu->addAction(mGraphActions->zoomInAction());
    mViewMenu->addAction(mGraphActions->zoomOutAction());
    mViewMenu->addAction(mGraphActions->fitAction());
    mViewMenu->addAction(mGraphActions->showWeightsAction());
    mViewMenu->addSeparator();
    QAction *resetPlots = mViewMenu->addAction(tr("Reset Plot Views"));
    connect(resetPlots, &QAction::triggered, plotPanel(), &PlotPanel::resetViews);
    QMenu *size = mViewMenu->addMenu(tr("&Presentation Size"));
    size->setToolTipsVisible(true);
    mScaleGroup = new QActionGroup(this);
    const std::pair<double, QString> sizes[] = {{1.0, tr("&Normal")},
                                                {1.25, tr("&Large (125%)")},
                                                {1.5, tr("La&rger (150%)")},
                                                {2.0, tr("&Projector (200%)")}};
    for (const auto &[factor, text] : sizes) {
        QAction *a = size->addAction(text);
        a->setCheckable(true);
        a->setData(factor);
        a->setToolTip(tr("Fonts, node labels, plot ticks and line widths together"));
        mScaleGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, factor = factor] { setPresentationScale(factor); });
    }
    QAction *resetLayoutAction = mViewMenu->addAction(tr("Reset &Layout"));
    resetLayoutAction->setToolTip(tr("Put every panel back where it starts, sized to the window"));
    connect(resetLayoutAction, &QAction::triggered, this, &MainWindow::resetLayout);
    mViewMenu->addSeparator();

    QMenu *graph = menuBar()->addMenu(tr("&Graph"));
    graph->addActions(mGraphActions->modeGroup()->actions());
    graph->addSeparator();
    graph->addAction(mGraphActions->directedAction());
    graph->addAction(mGraphActions->generateAction());
    graph->addAction(mGraphActions->circularAction());
    graph->addAction(mGraphActions->forceAction());
    graph->addSeparator();
    graph->addAction(mGraphActions->matrixAction());

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(mRunActions->runAction());
    run->addAction(mRunActions->pauseAction());
    run->addAction(mRunActions->stepAction());
    run->addAction(mRunActions->stopAction());
    run->addAction(mRunActions->resetAction());
    run->addSeparator();
    run->addAction(mRunActions->liveAction());
    QAction *sweepAction = run->addAction(tr("S&weep…"));
    sweepAction->setToolTip(tr("Sweep a parameter, or a grid of two, without editing the file"));
    connect(sweepAction, &QAction::triggered, this, &MainWindow::showSweepEditor);
    mTuneAction = run->addAction(tr("&Tune…"));
    mTuneAction->setToolTip(tr("Search a parameter of every run for its best value, optionally at a target ε"));
    connect(mTuneAction, &QAction::triggered, this, &MainWindow::showTuneDialog);

    mFiles->fillPresetMenu(menuBar()->addMenu(tr("&Presets")));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(mHelpAction);
    help->addSeparator();
    help->addAction(mAboutAction);
    help->addAction(mAboutQtAction);
}

void MainWindow::createToolBars()
{
    QToolBar *run = addToolBar(tr("Run"));
    run->setObjectName(QStringLiteral("RunToolBar"));
    run->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    run->addAction(mRunActions->runAction());
    run->addAction(mRunActions->pauseAction());
    run->addAction(mRunActions->stepAction());
    run->addAction(mRunActions->stopAction());
    run->addAction(mRunActions->resetAction());

    QToolBar *graph = addToolBar(tr("Graph"));
    graph->setObjectName(QStringLiteral("GraphToolBar"));
    graph->setToolButtonStyle(Qt::ToolButtonTextOnly);
    graph->addActions(mGraphActions->modeGroup()->actions());
    graph->addSeparator();
    graph->addAction(mGraphActions->directedAction());
    graph->addAction(mGraphActions->generateAction());
    graph->addAction(mGraphActions->forceAction());
    graph->addAction(mGraphActions->showWeightsAction());
    graph->addAction(mGraphActions->fitAction());
    graph->addSeparator();
    // Fixed "Undo" / "Redo" buttons: the stack's actions rename themselves ("Undo Add node"),
    // which widened the button, reflowed the toolbar and pushed Redo into the overflow. The
    // buttons trigger them and show their full text as the tooltip.
    for (QAction *stackAction : {mUndoAction, mRedoAction}) {
        auto *button = new QAction(stackAction == mUndoAction ? tr("Undo") : tr("Redo"), graph);
        button->setObjectName(stackAction == mUndoAction ? QStringLiteral("UndoButton") : QStringLiteral("RedoButton"));
        auto sync = [button, stackAction] {
            button->setEnabled(stackAction->isEnabled());
            button->setToolTip(stackAction->text().remove(QLatin1Char('&')));
        };
        sync();
        connect(stackAction, &QAction::changed, button, sync);
        connect(button, &QAction::triggered, stackAction, &QAction::trigger);
        graph->addAction(button);
    }
}

void MainWindow::createDocks()
{
    mPanelDock = new QDockWidget(tr("Experiment"), this);
    mPanelDock->setObjectName(QStringLiteral("ExperimentDock"));
    mPanelDock->setWidget(mPanel);
    addDockWidget(Qt::LeftDockWidgetArea, mPanelDock);

    mInspectorDock = new QDockWidget(tr("Inspector"), this);
    mInspectorDock->setObjectName(QStringLiteral("InspectorDock"));
    mInspectorDock->setWidget(mInspector);
    addDockWidget(Qt::RightDockWidgetArea, mInspectorDock);

    mHelpDock = new QDockWidget(tr("Help"), this);
    mHelpDock->setObjectName(QStringLiteral("HelpDock"));
    mHelpDock->setWidget(mHelp);
    addDockWidget(Qt::RightDockWidgetArea, mHelpDock);
    tabifyDockWidget(mInspectorDock, mHelpDock);

    // Run history: every finished result while the window is open; the plots draw the older
    // ones as ghost lines (ui/model/runhistory.h).
    mHistoryDock = new QDockWidget(tr("History"), this);
    mHistoryDock->setObjectName(QStringLiteral("HistoryDock"));
    mHistoryDock->setWidget(new HistoryWidget(mHistory, mDocument, mHistoryDock));
    addDockWidget(Qt::RightDockWidgetArea, mHistoryDock);
    tabifyDockWidget(mHelpDock, mHistoryDock);
    mInspectorDock->raise();

    mPlotDock = new QDockWidget(tr("Results"), this);
    mPlotDock->setObjectName(QStringLiteral("PlotDock"));
    mPlotDock->setWidget(mResultsView);
    addDockWidget(Qt::BottomDockWidgetArea, mPlotDock);

    mViewMenu->addAction(mPanelDock->toggleViewAction());
    mViewMenu->addAction(mInspectorDock->toggleViewAction());
    mViewMenu->addAction(mHelpDock->toggleViewAction());
    mViewMenu->addAction(mHistoryDock->toggleViewAction());
    mViewMenu->addAction(mPlotDock->toggleViewAction());

    // Teaching: playback, messages, eavesdropper, ε frontier, presentation mode (ui/teaching).
    TeachingDock::Hooks teaching;
    teaching.document = mDocument;
    teaching.experimentPanel = mPanel;
    teaching.plots = plotPanel();
    teaching.viewMenu = mViewMenu;
    for (QAction *action : menuBar()->actions())
        if (action->menu() && action->text() == tr("&Run"))
            teaching.runMenu = action->menu();
    teaching.panels = {{QStringLiteral("graph"), centralWidget()},
                       {QStringLiteral("experiment"), mPanelDock},
                       {QStringLiteral("inspector"), mInspectorDock},
                       {QStringLiteral("plots"), mPlotDock}};
    TeachingDock::install(this, teaching, mPlotDock);
    mDefaultState = saveState();
    resizeDocks({mPanelDock, mInspectorDock}, {370, 290}, Qt::Horizontal);
    resizeDocks({mPlotDock}, {420}, Qt::Vertical);
}

void MainWindow::resetLayout()
{
    restoreState(mDefaultState);
    for (QDockWidget *dock : {mPanelDock, mInspectorDock, mPlotDock}) {
        dock->setFloating(false);
        dock->show();
    }
    mInspectorDock->raise();
    mPlotDock->raise(); // Results before Teaching: the graph editor keeps the centre
    // Sizes fitted to the window: the panel and the inspector a share of the width (never less
    // than their content needs), the results a share of the height.
    const int width = std::max(this->width(), 800);
    const int height = std::max(this->height(), 600);
    const int panel = std::max(mPanel->minimumSizeHint().width() + 24, int(width * 0.27));
    const int inspector = std::max(260, int(width * 0.2));
    resizeDocks({mPanelDock, mInspectorDock}, {panel, inspector}, Qt::Horizontal);
    // Below 1000 pixels (a 1280×720 projector, a 1400×900 window) the plots take more than
    // half: two rows of plots need the height more than the graph does.
    resizeDocks({mPlotDock}, {int(height * (height < 1000 ? 0.56 : 0.42))}, Qt::Vertical);
}

void MainWindow::ensureDocksUsable()
{
    // A layout saved on a larger screen (or a dock dragged thin) can leave a dock too small to
    // use: give it back what its content needs.
    const int panelNeeds = mPanel->minimumSizeHint().width() + 24;
    if (mPanelDock->isVisible() && !mPanelDock->isFloating() && mPanelDock->width() < panelNeeds)
        resizeDocks({mPanelDock}, {panelNeeds}, Qt::Horizontal);
    if (mInspectorDock->isVisible() && !mInspectorDock->isFloating() && mInspectorDock->width() < 220)
        resizeDocks({mInspectorDock}, {260}, Qt::Horizontal);
    const int plotsNeed = std::min(360, height() / 3);
    if (mPlotDock->isVisible() && !mPlotDock->isFloating() && mPlotDock->height() < plotsNeed)
        resizeDocks({mPlotDock}, {plotsNeed}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (mDocksChecked)
        return;
    mDocksChecked = true;
    // Once the window has its size: first start → the default layout fitted to it; later
    // starts → the saved layout, with squeezed docks restored.
    if (QSettings().value(QStringLiteral("mainWindow/state")).toByteArray().isEmpty())
        resetLayout();
    else
        QTimer::singleShot(0, this, &MainWindow::ensureDocksUsable);
}

void MainWindow::setPresentationScale(double factor, bool persist)
{
    PresentationScale::instance()->setFactor(factor, persist);
    for (QAction *a : mScaleGroup->actions())
        a->setChecked(std::abs(a->data().toDouble() - PresentationScale::factor()) < 1e-6);
    // Larger text needs wider docks: lay them out again once the new fonts have been applied.
    QTimer::singleShot(0, this, [this] {
        // Not while presenting: that would bring the hidden editing docks back; leaving
        // presentation mode restores the layout it found.
        const auto *teaching = findChild<TeachingDock *>();
        if (isVisible() && !(teaching && teaching->presentation()->isActive()))
            resetLayout();
    });
}

void MainWindow::showHelp()
{
    mHelpDock->show();
    mHelpDock->raise();
    mHelp->setRun(mPanel->currentRun());
}

// --- title, settings ----------------------------------------------------------------------------

void MainWindow::updateTitle()
{
    setWindowTitle(QStringLiteral("%1[*] — DPLab").arg(mDocument->displayName()));
    setWindowModified(mDocument->isModified());
}

void MainWindow::readSettings()
{
    QSettings settings;
    const QByteArray state = settings.value(QStringLiteral("mainWindow/state")).toByteArray();
    if (!state.isEmpty())
        restoreState(state);
    mGraphActions->showWeightsAction()->setChecked(settings.value(QStringLiteral("graph/showWeights"), false).toBool());
    PresentationScale::instance()->restore();
    for (QAction *a : mScaleGroup->actions())
        a->setChecked(std::abs(a->data().toDouble() - PresentationScale::factor()) < 1e-6);
}

void MainWindow::writeSettings()
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("graph/showWeights"), mGraphActions->showWeightsAction()->isChecked());
}

void MainWindow::showInitially()
{
    QSettings settings;
    const QByteArray geometry = settings.value(QStringLiteral("mainWindow/geometry")).toByteArray();
    if (!geometry.isEmpty() && restoreGeometry(geometry)) {
        show();
        return;
    }
    const QScreen *screen = QGuiApplication::primaryScreen();
    const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1400, 900);
    if (available.width() < 1400 || available.height() < 900) {
        // Without a window manager (a projector laptop's kiosk session, Xvfb) showMaximized()
        // alone keeps the size hint, which squeezed the experiment panel: take the screen first.
        setGeometry(available);
        showMaximized();
        return;
    }
    resize(1400, 900);
    move(available.center() - rect().center());
    show();
}

void MainWindow::showView(const QString &view)
{
    mResultsView->showView(view);
}

// --- shorthands ---------------------------------------------------------------------------------

bool MainWindow::openFile(const QString &path)
{
    return mFiles->openFile(path);
}

bool MainWindow::openPreset(const QString &resourcePath)
{
    return mFiles->openPreset(resourcePath);
}

bool MainWindow::loadFile(const QString &path, QString *error)
{
    return mFiles->loadFile(path, error);
}

bool MainWindow::writeData(DataExport kind, const QString &path, QString *error) const
{
    return mExportActions->writeData(kind, path, error);
}

bool MainWindow::writeReport(const QString &dir, QString *error)
{
    return mExportActions->writeReport(dir, error);
}

bool MainWindow::hasFinishedRun() const
{
    return mRunActions->hasFinishedRun();
}

QString MainWindow::lastRunError() const
{
    return mRunActions->lastRunError();
}

QString MainWindow::runStatusText() const
{
    return mRunStatus->stateText();
}

void MainWindow::startRun()
{
    mRunActions->startRun();
}

void MainWindow::pauseRun()
{
    mRunActions->pauseRun();
}

void MainWindow::stepRun()
{
    mRunActions->stepRun();
}

void MainWindow::stopRun()
{
    mRunActions->stopRun();
}

void MainWindow::resetRun()
{
    mRunActions->resetRun();
}

void MainWindow::generateGraph()
{
    mGraphActions->generateGraph();
}

// --- window events ------------------------------------------------------------------------------

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (mController->isActive()) {
        const auto answer = QMessageBox::question(
            this, tr("Quit during a run"),
            tr("A run is in progress. Stop the run and quit? Its results so far are lost unless exported."),
            QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (answer != QMessageBox::Yes) {
            event->ignore();
            return;
        }
    }
    if (!mFiles->maybeSave()) {
        event->ignore();
        return;
    }
    mController->stop();
    writeSettings();
    ExperimentFiles::discardRecovery();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (ExperimentFiles::acceptsDrop(event->mimeData()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    if (!ExperimentFiles::acceptsDrop(event->mimeData()))
        return;
    event->acceptProposedAction();
    mFiles->openDropped(event->mimeData());
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About DPLab"),
                       tr("<h3>DPLab %1</h3>"
                          "<p>A desktop laboratory for differentially private distributed optimization and "
                          "online learning over graphs: draw or generate a communication graph, choose "
                          "algorithms, compressors and privacy budgets, and watch consensus, accuracy and "
                          "cumulative ε live.</p>"
                          "<p>Licensed under the GNU GPL, version 3 or later. Plots by QCustomPlot (GPL-3).</p>")
                           .arg(version()));
}

void MainWindow::openResults()
{
    if (!mFiles->maybeSave())
        return;
    // Qt's own folder dialog: one "Open" takes the highlighted folder, or the folder shown when
    // none is highlighted (a platform folder chooser may instead enter the highlighted folder
    // first). It starts where the last results folder was.
    QFileDialog dialog(this, tr("Open results"), rememberedFolder(QStringLiteral("results")));
    dialog.setOption(QFileDialog::DontUseNativeDialog);
    dialog.setFileMode(QFileDialog::Directory);
    dialog.setOption(QFileDialog::ShowDirsOnly);
    dialog.setLabelText(QFileDialog::Accept, tr("Open"));
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    const QString dir = dialog.selectedFiles().constFirst();
    rememberFolder(QStringLiteral("results"), QFileInfo(dir).absolutePath());
    QString error;
    if (!dir.isEmpty() && !loadResults(dir, &error))
        QMessageBox::warning(this, tr("Open results"), tr("Could not open the results in %1:\n%2").arg(dir, error));
}

bool MainWindow::loadResults(const QString &dir, QString *error)
{
    OpenedResults opened;
    if (!openResultsFolder(dir, &opened, error))
        return false;
    mRunActions->resetRun();
    if (!mDocument->loadJson(opened.experiment->resolved, opened.baseDir, QString(), error))
        return false;
    QVector<QColor> colors;
    for (int r = 0; r < static_cast<int>(opened.experiment->runs.size()); ++r)
        colors.push_back(mDocument->runColor(r));
    showOpenedResults(opened, colors, mResults, plotPanel(), comparisonView(), sweepView());
    if (opened.unverified.isEmpty()) {
        statusBar()->showMessage(tr("Showing the results in %1 (not re-run; every file matches its manifest)").arg(dir), 8000);
    } else {
        statusBar()->showMessage(tr("Showing the UNVERIFIED results in %1 (not re-run)").arg(dir));
        showNonBlockingWarning(this, tr("Open results"), opened.unverified);
    }
    return true;
}

TuneDialog *MainWindow::showTuneDialog()
{
    if (!mTuneDialog) {
        mTuneDialog = new TuneDialog(mDocument, mResults, this);
        // A tuning with compared runs joins the experiment's report until another file is opened.
        connect(mTuneDialog, &TuneDialog::tuned, this, [this](std::shared_ptr<const TuneResult> result) {
            mExportActions->setTuning(result && !result->comparisons.empty() ? bestJson(*result) : Json());
        });
        connect(mDocument, &ExperimentDocument::loaded, this, [this] { mExportActions->setTuning(Json()); });
    }
    if (!mTuneDialog->isTuning())
        mTuneDialog->refresh();
    mTuneDialog->show();
    mTuneDialog->raise();
    mTuneDialog->activateWindow();
    return mTuneDialog;
}

SweepEditor *MainWindow::showSweepEditor()
{
    if (!mSweepEditor)
        mSweepEditor = new SweepEditor(mDocument, this);
    mSweepEditor->refresh();
    mSweepEditor->show();
    mSweepEditor->raise();
    mSweepEditor->activateWindow();
    return mSweepEditor;
}

} // namespace dplab
