// SPDX-License-Identifier: GPL-3.0-or-later
//
// TeachingPanel: the teaching views in one place. "Record" runs the current experiment once
// with every iteration and message kept (TeachingSession); the playback bar then plays it at a
// chosen speed (1 iteration/s … full speed), steps, or scrubs back and forth, and every view
// follows: the network with agents coloured by a quantity and messages travelling on the links,
// the 2-D state space, the message inspector (click a link while paused), the eavesdropper, the
// theory overlays. The ε sweep runs from the same experiment. Panels have the ids of
// presentationPanelIds() for presentation mode.
//
// Threading: GUI thread.
#pragma once

#include "teachingsession.h"

#include <QWidget>

#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSplitter;
class QTabWidget;
class QTextBrowser;
class QToolButton;
class QVBoxLayout;

namespace dplab {

class AttackPanel;
class FrontierView;
class WrappingBar;
class MessageInspector;
class PlaybackController;
class PlaybackView;
class StateSpaceView;
class TheoryView;

class TeachingPanel : public QWidget
{
    Q_OBJECT

public:
    explicit TeachingPanel(QWidget *parent = nullptr);

    /** Where "Record" and "ε sweep" get the experiment (the document, validated); a null
     *  result with `error` set shows the error. */
    using ExperimentSource = std::function<std::shared_ptr<const Experiment>(QString *error)>;
    void setExperimentSource(ExperimentSource source);

    /** The speeds the speed box offers (iterations per second; 0 = full speed). */
    static QVector<double> speeds();

    TeachingSession *session() const { return mSession; }
    PlaybackController *controller() const { return mController; }
    PlaybackView *playbackView() const { return mView; }
    StateSpaceView *stateSpace() const { return mStateSpace; }
    MessageInspector *inspector() const { return mInspector; }
    AttackPanel *attackPanel() const { return mAttack; }
    FrontierView *frontierView() const { return mFrontier; }
    TheoryView *theoryView() const { return mTheory; }
    QSlider *scrubber() const { return mScrubber; }
    QComboBox *speedBox() const { return mSpeed; }
    QComboBox *runBox() const { return mRun; }
    QTabWidget *tabs() const { return mTabs; }
    /** The status line under the playback bar; the iteration label of the bar. */
    QString statusText() const;
    QLabel *iterationLabel() const { return mIteration; }
    /** The tab page of a presentation panel id ("playback", "messages", ...), or nullptr. */
    QWidget *panel(const QString &id) const;
    /** Shows or hides the tab of a panel id. */
    void setPanelVisible(const QString &id, bool visible);
    /** Lesson notes (Markdown). */
    void setNotes(const QString &markdown);
    QString notes() const { return mNotesText; }

    /** The recorded iteration at the playback position (−1 before a recording). */
    qint64 currentIteration() const;
    /** Whether the playback bar is on two rows (the panel is narrower than one row needs). */
    bool barWrapped() const;
    /** The network beside (wide panel) or above (tall panel) the tabs, always on screen with
     *  the transport bar and the selected tab. */
    QSplitter *splitter() const { return mSplit; }

    /** The panel's minimum height at any width: the dock's scroll area then gives the panel
     *  the dock's height and scrolls only below that minimum. (Its word-wrapped labels made the
     *  layout answer with every child's preferred height, 932 px at 1280×720, so the dock
     *  scrolled the tab's plot out of view.) */
    int heightForWidth(int) const override { return minimumSizeHint().height(); }

protected:
    void resizeEvent(QResizeEvent *event) override;

public slots:
    /** Records the experiment of the source (asynchronously). */
    void record();
    /** Starts the ε sweep on the source's experiment. */
    void sweepEpsilon();
    /** Forgets everything shown about the previous experiment (another one was opened): the
     *  recording and its playback position, the message, eavesdropper, frontier and theory
     *  views; emits iterationChanged(−1) so the plots drop their cursor. */
    void reset();

signals:
    /** The playback position moved (to recorded iteration k): plots show a cursor there. */
    void iterationChanged(qint64 iteration);
    /** A recording is ready. */
    void recorded();

private:
    void buildPlaybackBar(QVBoxLayout *layout);
    void buildPages(QVBoxLayout *layout);
    void connectPlayback();
    void onReady();
    void onIndex(int index);
    void setRun(int run);

    ExperimentSource mSource;
    TeachingSession *mSession;
    PlaybackController *mController;
    QTabWidget *mTabs;
    QPushButton *mRecord;
    QComboBox *mRun;
    QComboBox *mQuantity;
    QToolButton *mBack;
    QToolButton *mPlay;
    QToolButton *mForward;
    QComboBox *mSpeed;
    QSlider *mScrubber;
    QLabel *mIteration;
    WrappingBar *mBar = nullptr; ///< record / run / quantity; transport / speed / scrubber
    QLabel *mStatus;
    PlaybackView *mView;
    StateSpaceView *mStateSpace;
    QWidget *mPlaybackPage;
    QSplitter *mSplit;
    MessageInspector *mInspector;
    AttackPanel *mAttack;
    FrontierView *mFrontier;
    TheoryView *mTheory;
    QTextBrowser *mNotes;
    QString mNotesText;
    QHash<QString, QWidget *> mPanels;
    QHash<QString, QString> mPanelTitles;
};

} // namespace dplab
