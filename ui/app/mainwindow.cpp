// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "comparisonview.h"
#include "exporter.h"
#include "experimentdocument.h"
#include "experimentpanel.h"
#include "forcelayout.h"
#include "generatordialog.h"
#include "graphdocument.h"
#include "graphio.h"
#include "graphscene.h"
#include "graphview.h"
#include "inspectorwidget.h"
#include "liveresults.h"
#include "metricplot.h"
#include "plotpanel.h"
#include "presetlibrary.h"
#include "reportwriter.h"
#include "runcontroller.h"
#include "sweepview.h"
#include "teachingdock.h"
#include "textconvert.h"

#include "dplab/common/files.h"
#include "dplab/engine/metrics.h"
#include "dplab/engine/writers.h"
#include "dplab/graph/generators.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDir>
#include <QDragEnterEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include <cmath>

namespace dplab {

namespace {

constexpr int kMaxRecentFiles = 10;

// A warning that does not block (window-modal, deleted on close): the run and the tests go on.
void showWarning(QWidget *parent, const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QString formatElapsed(qint64 ms)
{
    if (ms < 60000)
        return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 1);
    return QStringLiteral("%1:%2").arg(ms / 60000).arg((ms / 1000) % 60, 2, 10, QLatin1Char('0'));
}

Json newExperimentTemplate()
{
    std::string algorithm;
    std::string name;
    for (const AlgorithmDescriptor &d : algorithmRegistry())
        if (d.graphKind != GraphKind::Directed && !d.needsOnline) {
            algorithm = d.id;
            name = d.name;
            break;
        }
    return Json{{"format", kExperimentFormat},
                {"version", kExperimentVersion},
                {"name", "Untitled experiment"},
                {"seed", 1},
                {"iterations", 500},
                {"repetitions", 1},
                {"record_every", 1},
                {"graph", {{"generator", {{"type", "ring"}, {"nodes", 8}}}, {"weights", {{"scheme", "metropolis"}}}}},
                {"problem", {{"type", "quadratic"}, {"dimension", 2}}},
                {"runs", Json::array({Json{{"label", name}, {"algorithm", algorithm}}})}};
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , mDocument(new ExperimentDocument(this))
    , mScene(new GraphScene(mDocument->graphDocument(), this))
    , mView(new GraphView(mScene, this))
    , mInspector(new InspectorWidget(mDocument, this))
    , mPanel(new ExperimentPanel(mDocument, this))
    , mResults(new LiveResults(this))
    , mPlots(new PlotPanel(mResults, this))
    , mComparison(new ComparisonView(mResults, this))
    , mSweep(new SweepView(this))
    , mResultTabs(new QTabWidget(this))
    , mController(new RunController(this))
    , mStatusTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    auto *centre = new QWidget(this);
    auto *centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->addWidget(mView);
    setCentralWidget(centre);

    createActions();
    createMenus();
    createToolBars();
    createDocks();
    createStatusBar();

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
    connect(mInspector, &InspectorWidget::inspected, this, [this](const Inspection &in) {
        mScene->setHighlightedNodes(in.connectivity.offending);
        const Eigen::MatrixXd none;
        const Eigen::MatrixXd &first = in.matrices.size() > 0 ? in.matrices[0].matrix : none;
        const Eigen::MatrixXd &second = in.matrices.size() > 1 ? in.matrices[1].matrix : none;
        mScene->setWeightMatrices(first, second);
    });

    connect(mController, &RunController::batchesArrived, mResults, &LiveResults::addBatches);
    connect(mController, &RunController::eventsArrived, mResults, &LiveResults::addEvents);
    connect(mController, &RunController::stateChanged, this, [this] {
        updateRunActions();
        updateStatusBar();
    });
    connect(mController, &RunController::finished, this, &MainWindow::onRunFinished);
    connect(mController, &RunController::failed, this, &MainWindow::onRunFailed);
    connect(mController, &RunController::progressChanged, this, &MainWindow::updateStatusBar);
    connect(mResults, &LiveResults::runStateChanged, this, &MainWindow::updateRunStatuses);
    mStatusTimer->setInterval(250);
    connect(mStatusTimer, &QTimer::timeout, this, &MainWindow::updateStatusBar);

    updateRunActions();
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

// --- construction -------------------------------------------------------------------------------

void MainWindow::createActions()
{
    QStyle *s = style();
    mNewAction = new QAction(tr("&New"), this);
    mNewAction->setShortcut(QKeySequence::New);
    connect(mNewAction, &QAction::triggered, this, &MainWindow::newExperiment);
    mOpenAction = new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this);
    mOpenAction->setShortcut(QKeySequence::Open);
    connect(mOpenAction, &QAction::triggered, this, &MainWindow::open);
    mSaveAction = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this);
    mSaveAction->setShortcut(QKeySequence::Save);
    connect(mSaveAction, &QAction::triggered, this, &MainWindow::save);
    mSaveAsAction = new QAction(tr("Save &As…"), this);
    mSaveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(mSaveAsAction, &QAction::triggered, this, &MainWindow::saveAs);
    mImportGraphAction = new QAction(tr("&Import Graph…"), this);
    connect(mImportGraphAction, &QAction::triggered, this, &MainWindow::importGraph);
    mExportGraphAction = new QAction(tr("&Export Graph…"), this);
    connect(mExportGraphAction, &QAction::triggered, this, &MainWindow::exportGraph);
    mExportGraphPictureAction = new QAction(tr("Export Graph &Picture…"), this);
    mExportGraphPictureAction->setToolTip(tr("Save the graph as drawn in the editor (PNG, SVG or PDF)"));
    connect(mExportGraphPictureAction, &QAction::triggered, this, &MainWindow::exportGraphPicture);
    mExportPlotsAction = new QAction(tr("Export All &Plots…"), this);
    mExportPlotsAction->setToolTip(tr("Save every live plot as it is on screen (PNG at a chosen DPI, SVG or PDF)"));
    connect(mExportPlotsAction, &QAction::triggered, mPlots, &PlotPanel::exportPlots);
    mExportReportAction = new QAction(tr("Export &Report…"), this);
    mExportReportAction->setToolTip(tr("Write report.html and report.pdf of the last run (runs the experiment first if needed)"));
    connect(mExportReportAction, &QAction::triggered, this, &MainWindow::exportReport);
    mQuitAction = new QAction(tr("&Quit"), this);
    mQuitAction->setShortcut(QKeySequence::Quit);
    mQuitAction->setMenuRole(QAction::QuitRole);
    connect(mQuitAction, &QAction::triggered, this, &QWidget::close);

    mUndoAction = mDocument->undoStack()->createUndoAction(this, tr("&Undo"));
    mUndoAction->setShortcut(QKeySequence::Undo);
    mRedoAction = mDocument->undoStack()->createRedoAction(this, tr("&Redo"));
    mRedoAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
    mDeleteAction = new QAction(tr("&Delete"), this);
    mDeleteAction->setShortcut(QKeySequence::Delete);
    mDeleteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    mView->addAction(mDeleteAction);
    connect(mDeleteAction, &QAction::triggered, mScene, &GraphScene::deleteSelection);
    mSelectAllAction = new QAction(tr("Select &All"), this);
    mSelectAllAction->setShortcut(QKeySequence::SelectAll);
    mSelectAllAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    mView->addAction(mSelectAllAction);
    connect(mSelectAllAction, &QAction::triggered, this, [this] {
        for (QGraphicsItem *item : mScene->items())
            if (item->flags() & QGraphicsItem::ItemIsSelectable)
                item->setSelected(true);
    });

    mZoomInAction = new QAction(tr("Zoom &In"), this);
    mZoomInAction->setShortcut(QKeySequence::ZoomIn);
    connect(mZoomInAction, &QAction::triggered, mView, &GraphView::zoomIn);
    mZoomOutAction = new QAction(tr("Zoom &Out"), this);
    mZoomOutAction->setShortcut(QKeySequence::ZoomOut);
    connect(mZoomOutAction, &QAction::triggered, mView, &GraphView::zoomOut);
    mFitAction = new QAction(tr("&Fit Graph"), this);
    mFitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(mFitAction, &QAction::triggered, mView, &GraphView::fitGraph);
    mShowWeightsAction = new QAction(tr("Show &Weights"), this);
    mShowWeightsAction->setCheckable(true);
    mShowWeightsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    mShowWeightsAction->setToolTip(tr("Show the mixing weight(s) of the selected run on every edge"));
    connect(mShowWeightsAction, &QAction::toggled, mScene, &GraphScene::setShowWeights);

    mModeGroup = new QActionGroup(this);
    mSelectModeAction = new QAction(tr("&Select / Move"), mModeGroup);
    mSelectModeAction->setShortcut(QKeySequence(Qt::Key_S));
    mSelectModeAction->setToolTip(tr("Select and move nodes and edges; drag on empty space for a rubber band (S)"));
    mAddNodeModeAction = new QAction(tr("Add &Node"), mModeGroup);
    mAddNodeModeAction->setShortcut(QKeySequence(Qt::Key_N));
    mAddNodeModeAction->setToolTip(tr("Click on empty space to add an agent (N)"));
    mAddEdgeModeAction = new QAction(tr("Add &Edge"), mModeGroup);
    mAddEdgeModeAction->setShortcut(QKeySequence(Qt::Key_E));
    mAddEdgeModeAction->setToolTip(tr("Drag from one node to another to add an edge (E)"));
    for (QAction *a : mModeGroup->actions()) {
        a->setCheckable(true);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        mView->addAction(a);
    }
    mSelectModeAction->setChecked(true);
    connect(mSelectModeAction, &QAction::triggered, this, [this] { mScene->setMode(GraphScene::Mode::Select); });
    connect(mAddNodeModeAction, &QAction::triggered, this, [this] { mScene->setMode(GraphScene::Mode::AddNode); });
    connect(mAddEdgeModeAction, &QAction::triggered, this, [this] { mScene->setMode(GraphScene::Mode::AddEdge); });

    mDirectedAction = new QAction(tr("&Directed"), this);
    mDirectedAction->setCheckable(true);
    mDirectedAction->setToolTip(tr("Directed graph: an edge j → i means j sends to i"));
    connect(mDirectedAction, &QAction::triggered, this, [this](bool directed) {
        QUndoStack *stack = mDocument->undoStack();
        stack->beginMacro(directed ? tr("Make graph directed") : tr("Make graph undirected"));
        mDocument->graphDocument()->setDirected(directed);
        mDocument->setValue("/graph/weights", Json(), tr("Default weights"));
        stack->endMacro();
    });
    connect(mDocument->graphDocument(), &GraphDocument::changed, this, [this] {
        mDirectedAction->setChecked(mDocument->graphDocument()->graph().isDirected());
    });
    mGenerateAction = new QAction(tr("&Generate…"), this);
    mGenerateAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    mGenerateAction->setToolTip(tr("Replace the graph by a generated one (ring, grid, Erdős–Rényi, …)"));
    connect(mGenerateAction, &QAction::triggered, this, &MainWindow::generateGraph);
    mCircularAction = new QAction(tr("&Circular Layout"), this);
    connect(mCircularAction, &QAction::triggered, this, &MainWindow::applyCircularLayout);
    mForceAction = new QAction(tr("&Force-Directed Layout"), this);
    connect(mForceAction, &QAction::triggered, this, &MainWindow::applyForceLayout);
    mMatrixAction = new QAction(tr("Weight &Matrix…"), this);
    connect(mMatrixAction, &QAction::triggered, mInspector, &InspectorWidget::showMatrixDialog);

    mRunAction = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this);
    mRunAction->setShortcut(QKeySequence(Qt::Key_F5));
    mRunAction->setToolTip(tr("Run the experiment, or continue a paused run (F5)"));
    connect(mRunAction, &QAction::triggered, this, &MainWindow::startRun);
    mPauseAction = new QAction(s->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), this);
    mPauseAction->setShortcut(QKeySequence(Qt::Key_F6));
    mPauseAction->setToolTip(tr("Pause every running repetition (F6)"));
    connect(mPauseAction, &QAction::triggered, this, &MainWindow::pauseRun);
    mStepAction = new QAction(s->standardIcon(QStyle::SP_MediaSeekForward), tr("S&tep"), this);
    mStepAction->setShortcut(QKeySequence(Qt::Key_F10));
    mStepAction->setToolTip(tr("Advance every repetition by one iteration (F10)"));
    connect(mStepAction, &QAction::triggered, this, &MainWindow::stepRun);
    mStopAction = new QAction(s->standardIcon(QStyle::SP_MediaStop), tr("St&op"), this);
    mStopAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    mStopAction->setToolTip(tr("Stop the run (Shift+F5)"));
    connect(mStopAction, &QAction::triggered, this, &MainWindow::stopRun);
    mResetAction = new QAction(s->standardIcon(QStyle::SP_BrowserReload), tr("R&eset"), this);
    mResetAction->setToolTip(tr("Stop and clear the plots"));
    connect(mResetAction, &QAction::triggered, this, &MainWindow::resetRun);

    mAboutAction = new QAction(tr("&About DPLab"), this);
    connect(mAboutAction, &QAction::triggered, this, &MainWindow::about);
    mAboutQtAction = new QAction(tr("About &Qt"), this);
    connect(mAboutQtAction, &QAction::triggered, qApp, &QApplication::aboutQt);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(mNewAction);
    file->addAction(mOpenAction);
    mRecentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(mSaveAction);
    file->addAction(mSaveAsAction);
    file->addSeparator();
    file->addAction(mImportGraphAction);
    file->addAction(mExportGraphAction);
    file->addAction(mExportGraphPictureAction);
    file->addAction(mExportPlotsAction);
    QMenu *data = file->addMenu(tr("Export &Data"));
    const std::pair<DataExport, QString> kinds[] = {
        {DataExport::Metrics, tr("Metrics CSV…")},
        {DataExport::EpsilonPerAgent, tr("Per-agent ε CSV…")},
        {DataExport::FinalValues, tr("Final Values CSV…")},
        {DataExport::Sweep, tr("Sweep CSV…")}};
    for (const auto &[kind, text] : kinds) {
        QAction *a = data->addAction(text);
        connect(a, &QAction::triggered, this, [this, kind = kind] { exportData(kind); });
    }
    file->addAction(mExportReportAction);
    file->addSeparator();
    file->addAction(mQuitAction);
    updateRecentMenu();

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(mUndoAction);
    edit->addAction(mRedoAction);
    edit->addSeparator();
    edit->addAction(mDeleteAction);
    edit->addAction(mSelectAllAction);

    mViewMenu = menuBar()->addMenu(tr("&View"));
    mViewMenu->addAction(mZoomInAction);
    mViewMenu->addAction(mZoomOutAction);
    mViewMenu->addAction(mFitAction);
    mViewMenu->addAction(mShowWeightsAction);
    mViewMenu->addSeparator();
    QAction *resetPlots = mViewMenu->addAction(tr("Reset Plot Views"));
    connect(resetPlots, &QAction::triggered, mPlots, &PlotPanel::resetViews);
    mViewMenu->addSeparator();

    QMenu *graph = menuBar()->addMenu(tr("&Graph"));
    graph->addActions(mModeGroup->actions());
    graph->addSeparator();
    graph->addAction(mDirectedAction);
    graph->addAction(mGenerateAction);
    graph->addAction(mCircularAction);
    graph->addAction(mForceAction);
    graph->addSeparator();
    graph->addAction(mMatrixAction);

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(mRunAction);
    run->addAction(mPauseAction);
    run->addAction(mStepAction);
    run->addAction(mStopAction);
    run->addAction(mResetAction);

    QMenu *presets = menuBar()->addMenu(tr("&Presets"));
    const QVector<PresetInfo> list = PresetLibrary::presets();
    for (const QString &groupName : PresetLibrary::groups(list)) {
        QMenu *group = presets->addMenu(groupName);
        for (const PresetInfo &p : list) {
            if (p.group != groupName)
                continue;
            QAction *a = group->addAction(p.title);
            a->setToolTip(p.description);
            a->setStatusTip(p.fileName);
            connect(a, &QAction::triggered, this, [this, path = p.resourcePath] { openPreset(path); });
        }
        group->setToolTipsVisible(true);
    }
    if (list.isEmpty())
        presets->addAction(tr("(no presets compiled in)"))->setEnabled(false);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(mAboutAction);
    help->addAction(mAboutQtAction);
}

void MainWindow::createToolBars()
{
    QToolBar *run = addToolBar(tr("Run"));
    run->setObjectName(QStringLiteral("RunToolBar"));
    run->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    run->addAction(mRunAction);
    run->addAction(mPauseAction);
    run->addAction(mStepAction);
    run->addAction(mStopAction);
    run->addAction(mResetAction);

    QToolBar *graph = addToolBar(tr("Graph"));
    graph->setObjectName(QStringLiteral("GraphToolBar"));
    graph->setToolButtonStyle(Qt::ToolButtonTextOnly);
    graph->addActions(mModeGroup->actions());
    graph->addSeparator();
    graph->addAction(mDirectedAction);
    graph->addAction(mGenerateAction);
    graph->addAction(mForceAction);
    graph->addAction(mShowWeightsAction);
    graph->addAction(mFitAction);
    graph->addSeparator();
    graph->addAction(mUndoAction);
    graph->addAction(mRedoAction);
}

void MainWindow::createDocks()
{
    auto *panelDock = new QDockWidget(tr("Experiment"), this);
    panelDock->setObjectName(QStringLiteral("ExperimentDock"));
    panelDock->setWidget(mPanel);
    addDockWidget(Qt::LeftDockWidgetArea, panelDock);

    auto *inspectorDock = new QDockWidget(tr("Inspector"), this);
    inspectorDock->setObjectName(QStringLiteral("InspectorDock"));
    inspectorDock->setWidget(mInspector);
    addDockWidget(Qt::RightDockWidgetArea, inspectorDock);

    mResultTabs->setDocumentMode(true);
    mResultTabs->addTab(mPlots, tr("Live plots"));
    mResultTabs->addTab(mComparison, tr("Comparison"));
    mResultTabs->addTab(mSweep, tr("Sweep"));
    mResultTabs->setTabToolTip(0, tr("Every run overlaid, updating while the run streams"));
    mResultTabs->setTabToolTip(1, tr("One panel per run with shared axes, and the final values"));
    mResultTabs->setTabToolTip(2, tr("Final metric against the swept parameter"));
    auto *plotDock = new QDockWidget(tr("Results"), this);
    plotDock->setObjectName(QStringLiteral("PlotDock"));
    plotDock->setWidget(mResultTabs);
    addDockWidget(Qt::BottomDockWidgetArea, plotDock);

    resizeDocks({panelDock, inspectorDock}, {370, 290}, Qt::Horizontal);
    resizeDocks({plotDock}, {420}, Qt::Vertical);
    mViewMenu->addAction(panelDock->toggleViewAction());
    mViewMenu->addAction(inspectorDock->toggleViewAction());
    mViewMenu->addAction(plotDock->toggleViewAction());

    // Teaching: playback, messages, eavesdropper, ε frontier, presentation mode (ui/teaching).
    TeachingDock::Hooks teaching;
    teaching.document = mDocument;
    teaching.experimentPanel = mPanel;
    teaching.plots = mPlots;
    teaching.viewMenu = mViewMenu;
    for (QAction *action : menuBar()->actions())
        if (action->menu() && action->text() == tr("&Run"))
            teaching.runMenu = action->menu();
    teaching.panels = {{QStringLiteral("graph"), centralWidget()},
                       {QStringLiteral("experiment"), panelDock},
                       {QStringLiteral("inspector"), inspectorDock},
                       {QStringLiteral("plots"), plotDock}};
    TeachingDock::install(this, teaching, plotDock);
}

void MainWindow::createStatusBar()
{
    mStatusState = new QLabel(tr("idle"), this);
    mStatusIteration = new QLabel(this);
    mStatusSpeed = new QLabel(this);
    mStatusElapsed = new QLabel(this);
    mStatusEpsilon = new QLabel(this);
    mProgress = new QProgressBar(this);
    mProgress->setMaximumWidth(180);
    mProgress->setTextVisible(true);
    mProgress->setRange(0, 1000);
    mProgress->setValue(0);
    mStatusIteration->setToolTip(tr("Largest iteration recorded so far"));
    mStatusSpeed->setToolTip(tr("Iterations per second over all runs and repetitions"));
    mStatusEpsilon->setToolTip(tr("Current cumulative ε, the largest over runs and agents"));
    for (QLabel *l : {mStatusIteration, mStatusSpeed, mStatusElapsed, mStatusEpsilon, mStatusState})
        l->setMinimumWidth(90);
    statusBar()->addPermanentWidget(mStatusIteration);
    statusBar()->addPermanentWidget(mStatusSpeed);
    statusBar()->addPermanentWidget(mStatusElapsed);
    statusBar()->addPermanentWidget(mStatusEpsilon);
    statusBar()->addPermanentWidget(mProgress);
    statusBar()->addPermanentWidget(mStatusState);
    updateStatusBar();
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
    mShowWeightsAction->setChecked(settings.value(QStringLiteral("graph/showWeights"), false).toBool());
}

void MainWindow::writeSettings()
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("graph/showWeights"), mShowWeightsAction->isChecked());
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
        showMaximized();
        return;
    }
    resize(1400, 900);
    move(available.center() - rect().center());
    show();
}

void MainWindow::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    mRecentMenu->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString &f : files) {
        QAction *a = mRecentMenu->addAction(QFileInfo(f).fileName());
        a->setToolTip(f);
        a->setStatusTip(f);
        connect(a, &QAction::triggered, this, [this, f] { openFile(f); });
    }
    if (!files.isEmpty()) {
        mRecentMenu->addSeparator();
        QAction *clear = mRecentMenu->addAction(tr("Clear Menu"));
        connect(clear, &QAction::triggered, this, [this] {
            QSettings().remove(QStringLiteral("recentFiles"));
            updateRecentMenu();
        });
    }
    mRecentMenu->setEnabled(!files.isEmpty());
}

// --- files --------------------------------------------------------------------------------------

bool MainWindow::maybeSave()
{
    if (!mDocument->isModified())
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("“%1” has unsaved changes. Save them?").arg(mDocument->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

bool MainWindow::loadFile(const QString &path, QString *error)
{
    resetRun();
    QString warning;
    if (!mDocument->loadFile(path, error, &warning))
        return false;
    addRecentFile(path);
    if (!warning.isEmpty())
        statusBar()->showMessage(tr("Opened with a problem to fix: %1").arg(warning), 15000);
    else
        statusBar()->showMessage(tr("Opened %1").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

bool MainWindow::openFile(const QString &path)
{
    if (!maybeSave())
        return false;
    QString error;
    if (!loadFile(path, &error)) {
        showWarning(this, tr("Open experiment"), tr("Could not open %1:\n%2").arg(path, error));
        return false;
    }
    return true;
}

bool MainWindow::openPreset(const QString &resourcePath)
{
    if (!maybeSave())
        return false;
    resetRun();
    Json doc;
    QString error;
    QString warning;
    if (!PresetLibrary::read(resourcePath, &doc, &error)
        || !mDocument->loadJson(doc, PresetLibrary::baseDir(), QString(), &error, &warning)) {
        showWarning(this, tr("Open preset"), tr("Could not open %1:\n%2").arg(resourcePath, error));
        return false;
    }
    if (!warning.isEmpty())
        statusBar()->showMessage(tr("Preset has a problem: %1").arg(warning), 15000);
    return true;
}

void MainWindow::newExperiment()
{
    if (!maybeSave())
        return;
    resetRun();
    QString error;
    if (!mDocument->loadJson(newExperimentTemplate(), QDir::currentPath(), QString(), &error))
        QMessageBox::critical(this, tr("New experiment"), error);
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString dir = mDocument->fileName().isEmpty() ? QDir::homePath() : QFileInfo(mDocument->fileName()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open experiment"), dir,
                                                      tr("DPLab experiments (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!loadFile(path, &error))
        showWarning(this, tr("Open experiment"), tr("Could not open %1:\n%2").arg(path, error));
}

bool MainWindow::save()
{
    if (mDocument->fileName().isEmpty())
        return saveAs();
    QString error;
    if (!mDocument->save(mDocument->fileName(), &error)) {
        QMessageBox::critical(this, tr("Save experiment"), tr("Could not save:\n%1").arg(error));
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(mDocument->displayName()), 4000);
    return true;
}

bool MainWindow::saveAs()
{
    QString suggestion = mDocument->fileName();
    if (suggestion.isEmpty()) {
        QString name = mDocument->displayName().toLower();
        name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
        suggestion = QDir::home().filePath(name + QStringLiteral(".json"));
    }
    QString path = QFileDialog::getSaveFileName(this, tr("Save experiment"), suggestion,
                                                tr("DPLab experiments (*.json)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    QString error;
    if (!mDocument->save(path, &error)) {
        QMessageBox::critical(this, tr("Save experiment"), tr("Could not save:\n%1").arg(error));
        return false;
    }
    addRecentFile(path);
    statusBar()->showMessage(tr("Saved %1").arg(mDocument->displayName()), 4000);
    return true;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    mController->stop();
    writeSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QMimeData *mime = event->mimeData();
    if (mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile()
        && mime->urls().first().toLocalFile().endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty())
        return;
    event->acceptProposedAction();
    const QString path = urls.first().toLocalFile();
    QTimer::singleShot(0, this, [this, path] { openFile(path); });
}

// --- graph --------------------------------------------------------------------------------------

void MainWindow::generateGraph()
{
    GeneratorDialog dialog(this);
    const Json generator = mDocument->graphDocument()->generator();
    if (!generator.is_null())
        dialog.setSpec(generator);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const Json spec = dialog.spec();
    auto graph = dplab::generateGraph(spec, "graph.generator");
    if (!graph) {
        QMessageBox::warning(this, tr("Generate graph"), toQString(graph.error().toString()));
        return;
    }
    const bool kindChanged = graph->isDirected() != mDocument->graphDocument()->graph().isDirected();
    QUndoStack *stack = mDocument->undoStack();
    stack->beginMacro(tr("Generate %1").arg(toQString(spec.value("type", std::string()))));
    mDocument->graphDocument()->replaceGraph(*graph, spec, tr("Generate graph"));
    if (kindChanged)
        mDocument->setValue("/graph/weights", Json(), tr("Default weights"));
    stack->endMacro();
    mView->fitGraph();
}

void MainWindow::applyCircularLayout()
{
    const int n = mDocument->graphDocument()->graph().nodeCount();
    mDocument->graphDocument()->setLayout(circularLayout(n), tr("Circular layout"));
    mView->fitGraph();
}

void MainWindow::applyForceLayout()
{
    const Graph &g = mDocument->graphDocument()->graph();
    auto positions = forceDirectedLayout(g, g.positions());
    mDocument->graphDocument()->setLayout(positions, tr("Force-directed layout"));
    mView->fitGraph();
}

void MainWindow::importGraph()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import graph"), QDir::homePath(),
                                                      tr("Graphs (*.csv *.dot *.gv);;All files (*)"));
    if (path.isEmpty())
        return;
    auto text = readFile(toStdString(path));
    if (!text) {
        QMessageBox::warning(this, tr("Import graph"), toQString(text.error().toString()));
        return;
    }
    const std::string name = toStdString(QFileInfo(path).fileName());
    const QString suffix = QFileInfo(path).suffix().toLower();
    auto graph = suffix == QLatin1String("csv")
                     ? graphFromEdgeListCsv(*text, name, mDocument->graphDocument()->graph().isDirected())
                     : graphFromDot(*text, name);
    if (!graph) {
        QMessageBox::warning(this, tr("Import graph"), toQString(graph.error().toString()));
        return;
    }
    mDocument->graphDocument()->replaceGraph(*graph, Json(), tr("Import %1").arg(QFileInfo(path).fileName()));
    mView->fitGraph();
}

void MainWindow::exportGraph()
{
    QString selected;
    QString path = QFileDialog::getSaveFileName(this, tr("Export graph"), QDir::home().filePath(QStringLiteral("graph.csv")),
                                                tr("Edge list (*.csv);;Graphviz DOT (*.dot)"), &selected);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += selected.contains(QLatin1String("dot")) ? QStringLiteral(".dot") : QStringLiteral(".csv");
    const Graph &g = mDocument->graphDocument()->graph();
    const std::string text = QFileInfo(path).suffix().toLower() == QLatin1String("csv") ? graphToEdgeListCsv(g) : graphToDot(g);
    if (Status s = writeFileAtomic(toStdString(path), text); !s)
        QMessageBox::warning(this, tr("Export graph"), toQString(s.error().toString()));
    else
        statusBar()->showMessage(tr("Exported %1").arg(QFileInfo(path).fileName()), 4000);
}

void MainWindow::exportGraphPicture()
{
    QString path;
    int dpi = 0;
    if (!askPlotExportPath(this, tr("Export graph picture"), QStringLiteral("graph.png"), &path, &dpi))
        return;
    QString error;
    if (!exportScene(mScene, path, QSize(), dpi, &error))
        QMessageBox::warning(this, tr("Export graph picture"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(QFileInfo(path).fileName()), 4000);
}

bool MainWindow::hasFinishedRun() const
{
    return !mController->isActive() && mController->lastResult() && mController->experiment()
           && !mController->lastResult()->points.empty();
}

bool MainWindow::writeData(DataExport kind, const QString &path, QString *error) const
{
    if (!hasFinishedRun()) {
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

void MainWindow::exportData(DataExport kind)
{
    static const char *const names[] = {"metrics.csv", "epsilon_per_agent.csv", "final_values.csv", "sweep.csv"};
    QString error;
    if (!hasFinishedRun()) {
        QMessageBox::information(this, tr("Export data"), tr("There is no finished run to export: run the experiment first."));
        return;
    }
    QSettings settings;
    const QString folder = settings.value(QStringLiteral("export/folder"), QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(this, tr("Export data"),
                                                      QDir(folder).filePath(QLatin1String(names[int(kind)])),
                                                      tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("export/folder"), QFileInfo(path).absolutePath());
    if (!writeData(kind, path, &error))
        QMessageBox::warning(this, tr("Export data"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(QFileInfo(path).fileName()), 4000);
}

bool MainWindow::writeReport(const QString &dir, QString *error)
{
    if (!hasFinishedRun()) {
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
    return writer.write(dir, error);
}

void MainWindow::exportReport()
{
    QSettings settings;
    const QString folder = settings.value(QStringLiteral("export/folder"), QDir::homePath()).toString();
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export report into folder"), folder);
    if (dir.isEmpty())
        return;
    settings.setValue(QStringLiteral("export/folder"), dir);
    if (hasFinishedRun()) {
        QString error;
        if (!writeReport(dir, &error))
            QMessageBox::warning(this, tr("Export report"), error);
        else
            statusBar()->showMessage(tr("Wrote the report to %1").arg(dir), 8000);
        return;
    }
    if (mController->isActive()) {
        mPendingReportDir = dir;
        statusBar()->showMessage(tr("The report is written when the run finishes"), 8000);
        return;
    }
    mPendingReportDir = dir;
    if (!startController(false))
        mPendingReportDir.clear();
}

// --- running ------------------------------------------------------------------------------------

bool MainWindow::startController(bool paused)
{
    mLastRunError.clear();
    auto experiment = mDocument->validate();
    if (!experiment) {
        mLastRunError = toQString(experiment.error().toString());
        statusBar()->showMessage(tr("Cannot run: %1").arg(mLastRunError), 15000);
        showWarning(this, tr("Cannot run"), mLastRunError);
        return false;
    }
    auto shared = std::make_shared<const Experiment>(std::move(experiment.value()));
    mResults->reset(*shared);
    QVector<QColor> colors;
    for (int r = 0; r < static_cast<int>(shared->runs.size()); ++r)
        colors.push_back(mDocument->runColor(r));
    mPlots->setRunColors(colors);
    mComparison->setRunColors(colors);
    mComparison->clearResult();
    mSweep->setRunColors(colors);
    mSweep->clearResult();
    for (int p = 0; p < PlotPanel::PlotCount; ++p)
        mPlots->setRunSuffixes(p, {});
    mPlots->plot(PlotPanel::Epsilon)->setSubtitle(QString());
    mSpeedDone = 0;
    mSpeedTime = 0;
    mSpeed = 0;
    if (!mController->start(shared, paused))
        return false;
    mStatusTimer->start();
    updateRunStatuses();
    return true;
}

void MainWindow::startRun()
{
    if (mController->state() == RunController::State::Paused) {
        mController->resume();
        return;
    }
    if (mController->isActive())
        return;
    startController(false);
}

void MainWindow::pauseRun()
{
    mController->pause();
}

void MainWindow::stepRun()
{
    if (!mController->isActive()) {
        if (!startController(true))
            return;
    }
    mController->step();
}

void MainWindow::stopRun()
{
    mController->stop();
}

void MainWindow::resetRun()
{
    if (mController->isActive()) {
        mController->stop();
        // Wait for the worker to finish so the plots do not receive old batches afterwards.
        QEventLoop loop;
        connect(mController, &RunController::stateChanged, &loop, [&loop, this] {
            if (!mController->isActive())
                loop.quit();
        });
        if (mController->isActive())
            loop.exec(QEventLoop::ExcludeUserInputEvents);
    }
    mStatusTimer->stop();
    mResults->clear();
    mComparison->clearResult();
    mSweep->clearResult();
    mPanel->setRunStatuses({});
    mProgress->setValue(0);
    updateStatusBar();
}

void MainWindow::onRunFinished(std::shared_ptr<const ExperimentResult> result)
{
    mStatusTimer->stop();
    if (result && !result->points.empty()) {
        mPlots->showOutcome(*result);
        if (result->diverged())
            statusBar()->showMessage(tr("A run diverged: its curve stops at the divergence"), 10000);
        const auto experiment = mController->experiment();
        mComparison->setResult(*result, experiment && experiment->sweep ? toQString(experiment->sweep->parameter)
                                                                        : QString());
        mSweep->setResult(experiment, result);
    }
    updateRunStatuses();
    updateStatusBar();
    if (!mPendingReportDir.isEmpty()) {
        const QString dir = mPendingReportDir;
        mPendingReportDir.clear();
        QString error;
        if (!writeReport(dir, &error))
            QMessageBox::warning(this, tr("Export report"), error);
        else
            statusBar()->showMessage(tr("Wrote the report to %1").arg(dir), 8000);
    }
}

void MainWindow::onRunFailed(const QString &message)
{
    mPendingReportDir.clear();
    mStatusTimer->stop();
    mLastRunError = message;
    statusBar()->showMessage(tr("Run failed: %1").arg(message), 15000);
    showWarning(this, tr("Run failed"), message);
    updateStatusBar();
}

QString MainWindow::runStatusText() const
{
    return mStatusState->text();
}

void MainWindow::updateRunActions()
{
    const RunController::State state = mController->state();
    mRunAction->setEnabled(state == RunController::State::Idle || state == RunController::State::Paused);
    mRunAction->setText(state == RunController::State::Paused ? tr("&Resume") : tr("&Run"));
    mPauseAction->setEnabled(state == RunController::State::Running);
    mStepAction->setEnabled(state != RunController::State::Stopping);
    mStopAction->setEnabled(state == RunController::State::Running || state == RunController::State::Paused);
}

void MainWindow::updateRunStatuses()
{
    QStringList statuses;
    for (int r = 0; r < mResults->runCount(); ++r)
        statuses << mResults->runStatusText(0, r);
    mPanel->setRunStatuses(statuses);
}

void MainWindow::updateStatusBar()
{
    const qint64 elapsed = mController->elapsedMilliseconds();
    const qint64 done = mController->iterationsDone();
    const qint64 total = mController->iterationsTotal();
    // Progress arrives in steps (every 100 iterations of a job): measure over a window that
    // contains at least one step, so slow iterations do not show as "0 it/s".
    if (mController->isActive() && elapsed - mSpeedTime >= 500 && (done > mSpeedDone || elapsed - mSpeedTime >= 10000)) {
        mSpeed = elapsed > mSpeedTime ? (done - mSpeedDone) * 1000.0 / double(elapsed - mSpeedTime) : 0.0;
        mSpeedDone = done;
        mSpeedTime = elapsed;
    } else if (!mController->isActive() && elapsed > 0) {
        mSpeed = done * 1000.0 / double(elapsed);
    }
    mStatusIteration->setText(tr("iteration %1").arg(mResults->latestIteration()));
    mStatusSpeed->setText(tr("%1 it/s").arg(mSpeed >= 100 ? QString::number(qint64(mSpeed)) : QString::number(mSpeed, 'g', 3)));
    mStatusElapsed->setText(formatElapsed(elapsed));
    const double epsilon = mResults->latestMax(QLatin1String(metric::Epsilon));
    mStatusEpsilon->setText(std::isnan(epsilon)   ? tr("ε —")
                            : std::isinf(epsilon) ? tr("ε ∞")
                                                  : tr("ε %1").arg(formatNumber(epsilon, 4)));
    mProgress->setValue(total > 0 ? int(1000.0 * double(done) / double(total)) : 0);
    QString state;
    switch (mController->state()) {
    case RunController::State::Idle: {
        state = tr("idle");
        const auto result = mController->lastResult();
        if (result && mResults->runCount() > 0)
            state = result->cancelled ? tr("stopped") : result->diverged() ? tr("finished (diverged)") : tr("finished");
        break;
    }
    case RunController::State::Running:
        state = tr("running");
        break;
    case RunController::State::Paused:
        state = tr("paused");
        break;
    case RunController::State::Stopping:
        state = tr("stopping…");
        break;
    }
    mStatusState->setText(state);
}

void MainWindow::showView(const QString &view)
{
    if (view == QLatin1String("comparison"))
        mResultTabs->setCurrentWidget(mComparison);
    else if (view == QLatin1String("sweep"))
        mResultTabs->setCurrentWidget(mSweep);
    else
        mResultTabs->setCurrentWidget(mPlots);
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

} // namespace dplab
