// SPDX-License-Identifier: GPL-3.0-or-later
//
// MainWindow: the lab window (DESIGN §6, issue 7). Graph editor in the centre, the experiment
// panel on the left, the inspector on the right, live plots at the bottom, a run toolbar and a
// status bar with iteration, iterations/s, elapsed time, current max ε and the run status.
// File ▸ New/Open/Save/Save As/Recent, a Presets menu of every compiled-in preset grouped by
// paper and teaching, drag-and-drop of experiment files, the file and a modified marker in the
// title, and no silent loss of unsaved changes. Layout, geometry and recent files persist in
// QSettings.
//
// Threading: GUI thread.
#pragma once

#include <QMainWindow>

#include <memory>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;
class QTimer;

namespace dplab {

class ComparisonView;
class ExperimentDocument;
class ExperimentPanel;
class GraphScene;
class GraphView;
class InspectorWidget;
class LiveResults;
class PlotPanel;
class RunController;
class SweepView;
struct ExperimentResult;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    static QString defaultPreset();
    static QString version();

    /** Opens an experiment file (asks to save unsaved changes first). */
    bool openFile(const QString &path);
    /** Opens a compiled-in preset (":/presets/…") as an untitled copy. */
    bool openPreset(const QString &resourcePath);
    /** Restores the saved geometry, or shows 1400×900 (maximized on smaller screens). */
    void showInitially();
    /** Opens without asking (tests, command line): replaces the document. */
    bool loadFile(const QString &path, QString *error);
    /** Shows a results folder (run or merge output) in the result views without running, and its
     *  experiment in the editor, untitled (File ▸ Open Results…; no questions asked). */
    bool loadResults(const QString &dir, QString *error);

    ExperimentDocument *document() const { return mDocument; }
    GraphScene *graphScene() const { return mScene; }
    GraphView *graphView() const { return mView; }
    InspectorWidget *inspector() const { return mInspector; }
    ExperimentPanel *experimentPanel() const { return mPanel; }
    PlotPanel *plotPanel() const { return mPlots; }
    ComparisonView *comparisonView() const { return mComparison; }
    SweepView *sweepView() const { return mSweep; }
    /** Shows one of the result views: "live", "comparison" or "sweep". */
    void showView(const QString &view);
    RunController *runController() const { return mController; }
    LiveResults *liveResults() const { return mResults; }
    /** The status bar's run state text (tests). */
    QString runStatusText() const;
    /** Data files of the last finished run (File ▸ Export Data). */
    enum class DataExport { Metrics = 0, EpsilonPerAgent = 1, FinalValues = 2, Sweep = 3 };
    /** Writes one data file of the last finished run atomically; false with `error` when
     *  there is none (or no sweep) or the write fails. */
    bool writeData(DataExport kind, const QString &path, QString *error) const;
    /** Writes report.html, report.pdf and the run outputs (metrics.csv, summary.json,
     *  experiment.json, …) of the last finished run into `dir`. */
    bool writeReport(const QString &dir, QString *error);
    /** Whether a run has finished (and none is active). */
    bool hasFinishedRun() const;
    /** The last message shown for a failed start (tests). */
    QString lastRunError() const { return mLastRunError; }

public slots:
    void newExperiment();
    void open();
    void openResults();
    bool save();
    bool saveAs();
    /** Run (or resume when paused). */
    void startRun();
    void pauseRun();
    void stepRun();
    void stopRun();
    void resetRun();
    void generateGraph();
    void applyCircularLayout();
    void applyForceLayout();
    void importGraph();
    void exportGraph();
    void exportGraphPicture();
    void exportData(DataExport kind);
    /** Asks for a folder and writes the report there (running the experiment first if needed). */
    void exportReport();
    void about();

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void createMenus();
    void createToolBars();
    void createDocks();
    void createStatusBar();
    void updateTitle();
    void updateRunActions();
    void updateStatusBar();
    void updateRunStatuses();
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    bool maybeSave();
    bool startController(bool paused);
    void onRunFinished(std::shared_ptr<const ExperimentResult> result);
    void onRunFailed(const QString &message);
    void readSettings();
    void writeSettings();

    ExperimentDocument *mDocument;
    GraphScene *mScene;
    GraphView *mView;
    InspectorWidget *mInspector;
    ExperimentPanel *mPanel;
    LiveResults *mResults;
    PlotPanel *mPlots;
    ComparisonView *mComparison;
    SweepView *mSweep;
    QTabWidget *mResultTabs;
    RunController *mController;
    QTimer *mStatusTimer;
    QString mLastRunError;
    QString mPendingReportDir;
    qint64 mSpeedDone = 0;
    qint64 mSpeedTime = 0;
    double mSpeed = 0.0;

    // actions
    QAction *mNewAction, *mOpenAction, *mSaveAction, *mSaveAsAction, *mQuitAction;
    QAction *mImportGraphAction, *mExportGraphAction, *mExportGraphPictureAction, *mExportPlotsAction, *mExportReportAction;
    QAction *mUndoAction, *mRedoAction, *mDeleteAction, *mSelectAllAction;
    QAction *mZoomInAction, *mZoomOutAction, *mFitAction, *mShowWeightsAction;
    QAction *mSelectModeAction, *mAddNodeModeAction, *mAddEdgeModeAction;
    QActionGroup *mModeGroup;
    QAction *mDirectedAction, *mGenerateAction, *mCircularAction, *mForceAction, *mMatrixAction;
    QAction *mRunAction, *mPauseAction, *mStepAction, *mStopAction, *mResetAction;
    QAction *mAboutAction, *mAboutQtAction;
    QMenu *mRecentMenu;
    QMenu *mViewMenu;

    // status bar
    QLabel *mStatusIteration;
    QLabel *mStatusSpeed;
    QLabel *mStatusElapsed;
    QLabel *mStatusEpsilon;
    QLabel *mStatusState;
    QProgressBar *mProgress;
};

} // namespace dplab
