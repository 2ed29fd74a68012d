// SPDX-License-Identifier: GPL-3.0-or-later
//
// TeachingDock: how the teaching views join the main window, in one place so MainWindow only
// calls install(). The dock holds a TeachingPanel fed from the experiment document; the
// playback position draws a cursor on the live plots; presentation mode (View menu) hides the
// panels and parameter controls the experiment file names, locks parameters and shows the
// lesson notes; Run ▸ ε sweep runs the frontier.
//
// Threading: GUI thread.
#pragma once

#include <QDockWidget>
#include <QRect>
#include <QVector>

#include <optional>

class QAction;
class QLabel;
class QMainWindow;
class QMenu;
class QCPItemStraightLine;

namespace dplab {

class ExperimentDocument;
class ExperimentPanel;
class PlotPanel;
class PresentationController;
class TeachingPanel;

class TeachingDock : public QDockWidget
{
    Q_OBJECT

public:
    /** Everything install() connects to; null members are skipped. */
    struct Hooks {
        ExperimentDocument *document = nullptr;
        ExperimentPanel *experimentPanel = nullptr;
        PlotPanel *plots = nullptr;
        QMenu *viewMenu = nullptr;
        QMenu *runMenu = nullptr;
        /** Window panels by presentation id ("graph", "experiment", "inspector", "plots"). */
        QVector<QPair<QString, QWidget *>> panels;
    };

    /** Creates the dock (tabbed with `tabWith` when given) and connects it. */
    static TeachingDock *install(QMainWindow *window, const Hooks &hooks, QDockWidget *tabWith = nullptr);

    TeachingPanel *panel() const { return mPanel; }
    PresentationController *presentation() const { return mPresentation; }
    QAction *presentationAction() const { return mPresentationAction; }
    /** Esc: leaves presentation mode (enabled only in it). */
    QAction *leavePresentationAction() const { return mLeaveAction; }
    /** The status bar's presentation-mode indicator. */
    QLabel *presentationIndicator() const { return mIndicator; }
    /** Presentation mode shows the lab at least this large (View ▸ Presentation Size, when
     *  larger, is kept). */
    static constexpr double kPresentationScale = 1.5;
    QAction *sweepAction() const { return mSweepAction; }
    /** Raises the dock, records the experiment and, once recorded, shows tab `tab` ("network",
     *  "message", "eavesdropper", "frontier", "theory", "notes") at a mid iteration — what
     *  `dplab --teaching TAB` does (demonstrations, screenshots). */
    void showTab(const QString &tab);
    /** Shows the cursor on the live plots at iteration k (−1 hides it). */
    void setPlotCursor(qint64 k);

private:
    TeachingDock(QMainWindow *window, const Hooks &hooks);
    void enterPresentation();
    void leavePresentation();
    /** The teaching layout: while the dock is shown docked, the graph editor in the centre gives
     *  its room to the dock's network view (one large network, not two copies). */
    void updateCentre();

    QMainWindow *mWindow;
    QDockWidget *mResults = nullptr; ///< the dock the teaching dock is tabbed with
    Hooks mHooks;
    QAction *mLeaveAction;
    QLabel *mIndicator;
    struct Saved {
        QRect geometry;
        Qt::WindowStates windowState;
        QByteArray state;
        double scale = 1.0;
        QVector<QWidget *> hidden; ///< editing chrome hidden by presentation mode
        QVector<QAction *> addedActions; ///< the hidden menu bar's actions, on the window meanwhile
    };
    std::optional<Saved> mSaved;
    TeachingPanel *mPanel;
    PresentationController *mPresentation;
    QAction *mPresentationAction;
    QAction *mSettingsAction;
    QAction *mSweepAction;
    QVector<QCPItemStraightLine *> mCursors;
};

} // namespace dplab
