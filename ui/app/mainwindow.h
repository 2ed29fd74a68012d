// SPDX-License-Identifier: GPL-3.0-or-later
//
// MainWindow: the lab window (docs/architecture.md §6). It only assembles: the graph editor in the centre, the
// experiment panel on the left, the inspector on the right, the result tabs at the bottom, the
// menus, toolbars and status bar. The work is done by the parts it places:
//   ExperimentFiles  — New/Open/Save/recent files/presets/drops, unsaved-changes prompts
//   GraphActions     — graph editing commands, layouts, graph import/export
//   RunActions       — Run/Pause/Step/Stop/Reset over the RunController
//   ExportActions    — plots, data and report export
//   RunStatusWidget  — iteration, speed, elapsed time, ε and state in the status bar
// Layout, geometry and options persist in QSettings.
//
// Threading: GUI thread.
#pragma once

#include "exportactions.h"

#include <QMainWindow>

class QAction;
class QActionGroup;
class QDockWidget;
class QMenu;

namespace dplab {

class ExperimentDocument;
class ExperimentFiles;
class ExperimentPanel;
class HelpPanel;
class RunHistory;
class ComparisonView;
class GraphActions;
class GraphScene;
class GraphView;
class InspectorWidget;
class LiveResults;
class PlotPanel;
class ResultsView;
class RunActions;
class RunController;
class RunStatusWidget;
class SweepView;
class SweepEditor;
class TuneDialog;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    static QString defaultPreset();
    static QString version();

    // The parts.
    ExperimentDocument *document() const { return mDocument; }
    ExperimentFiles *files() const { return mFiles; }
    GraphActions *graphActions() const { return mGraphActions; }
    RunActions *runActions() const { return mRunActions; }
    RunHistory *runHistory() const { return mHistory; }
    ExportActions *exportActions() const { return mExportActions; }
    GraphScene *graphScene() const { return mScene; }
    GraphView *graphView() const { return mView; }
    InspectorWidget *inspector() const { return mInspector; }
    ExperimentPanel *experimentPanel() const { return mPanel; }
    ResultsView *resultsView() const { return mResultsView; }
    PlotPanel *plotPanel() const;
    ComparisonView *comparisonView() const;
    SweepView *sweepView() const;
    RunController *runController() const { return mController; }
    LiveResults *liveResults() const { return mResults; }
    RunStatusWidget *runStatus() const { return mRunStatus; }
    HelpPanel *helpPanel() const { return mHelp; }
    QDockWidget *helpDock() const { return mHelpDock; }

    /** Restores the saved geometry, or shows 1400×900 (maximized on smaller screens). */
    void showInitially();
    /** Shows one of the result views: "live", "comparison" or "sweep". */
    void showView(const QString &view);
    /** Puts the docks back where they start, at sizes fitted to the window. */
    void resetLayout();
    /** Widens or heightens any dock squeezed below what its content needs. */
    void ensureDocksUsable();
    /** View ▸ Presentation Size: 1 = normal (saved unless `persist` is false); the docks are
     *  laid out again for the new text size. */
    void setPresentationScale(double factor, bool persist = true);

    // Shorthands for the parts' most used calls (command line, tests).
    bool openFile(const QString &path);
    bool openPreset(const QString &resourcePath);
    bool loadFile(const QString &path, QString *error);
    using DataExport = ExportActions::DataExport;
    bool writeData(DataExport kind, const QString &path, QString *error) const;
    bool writeReport(const QString &dir, QString *error);
    bool hasFinishedRun() const;
    QString lastRunError() const;
    /** The status bar's run state text. */
    QString runStatusText() const;

    /** Shows a results folder (run or merge output) in the result views without running, and its
     *  experiment in the editor, untitled (File ▸ Open Results…; no questions asked). */
    bool loadResults(const QString &dir, QString *error);

public slots:
    /** File ▸ Open Results…: asks for a results folder, then loadResults. */
    void openResults();
    void startRun();
    void pauseRun();
    void stepRun();
    void stopRun();
    void resetRun();
    void generateGraph();
    void about();
    /** F1: shows the help on the selected run. */
    void showHelp();
    /** Run ▸ Tune…: the Tune dialog (kept between openings: its last tuning stays). */
    TuneDialog *showTuneDialog();
    /** Run ▸ Sweep…: the sweep editor. */
    SweepEditor *showSweepEditor();

protected:
    void showEvent(QShowEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createMenus();
    void createToolBars();
    void createDocks();
    void updateTitle();
    void readSettings();
    void writeSettings();

    ExperimentDocument *mDocument;
    TuneDialog *mTuneDialog = nullptr;
    SweepEditor *mSweepEditor = nullptr;
    QAction *mTuneAction = nullptr;
    GraphScene *mScene;
    GraphView *mView;
    InspectorWidget *mInspector;
    ExperimentPanel *mPanel;
    LiveResults *mResults;
    ResultsView *mResultsView;
    RunController *mController;
    ExperimentFiles *mFiles;
    GraphActions *mGraphActions;
    RunActions *mRunActions;
    RunHistory *mHistory;
    ExportActions *mExportActions;
    RunStatusWidget *mRunStatus;
    HelpPanel *mHelp;
    QDockWidget *mPanelDock = nullptr;
    QDockWidget *mInspectorDock = nullptr;
    QDockWidget *mPlotDock = nullptr;
    QDockWidget *mHelpDock = nullptr;
    QDockWidget *mHistoryDock = nullptr;
    QByteArray mDefaultState;
    QActionGroup *mScaleGroup = nullptr;
    bool mDocksChecked = false;

    QAction *mUndoAction, *mRedoAction, *mQuitAction, *mAboutAction, *mAboutQtAction, *mHelpAction;
    QMenu *mViewMenu = nullptr;
};

} // namespace dplab
