// SPDX-License-Identifier: GPL-3.0-or-later
#include "teachingpanel.h"
#include "wrappingbar.h"

#include "attackpanel.h"
#include "frontierview.h"
#include "messageinspector.h"
#include "playbackcontroller.h"
#include "playbackview.h"
#include "statespaceview.h"
#include "theoryview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

namespace dplab {

QVector<double> TeachingPanel::speeds()
{
    return {1, 2, 5, 10, 25, 50, 100, 250, 1000, 0};
}

TeachingPanel::TeachingPanel(QWidget *parent)
    : QWidget(parent), mSession(new TeachingSession(this)), mController(new PlaybackController(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    // The playback bar: two groups, on one row when the panel is wide enough, else on two
    // (WrappingBar), so a projector-sized window never needs a horizontal scroll bar for it.
    mBar = new WrappingBar(this);
    layout->addWidget(mBar);
    QHBoxLayout *setup = mBar->group(0);
    QHBoxLayout *transport = mBar->group(1);
    mRecord = new QPushButton(tr("Record"), this);
    mRecord->setToolTip(tr("Run the experiment once keeping every iteration and every message, for playback "
                           "(one repetition; long runs are cut to their first iterations)."));
    setup->addWidget(mRecord);
    mRun = new QComboBox(this);
    mRun->setToolTip(tr("The run the network, state space and message views show."));
    mRun->setMinimumContentsLength(14);
    mRun->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setup->addWidget(mRun, 1);
    mQuantity = new QComboBox(this);
    mQuantity->addItems(TeachingSession::quantityNames());
    mQuantity->setToolTip(tr("What colours the agents."));
    setup->addWidget(mQuantity, 1);
    mBack = new QToolButton(this);
    mBack->setIcon(style()->standardIcon(QStyle::SP_MediaSkipBackward));
    mBack->setToolTip(tr("Step back one iteration"));
    mPlay = new QToolButton(this);
    mPlay->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    mPlay->setToolTip(tr("Play / pause"));
    mForward = new QToolButton(this);
    mForward->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
    mForward->setToolTip(tr("Step forward one iteration"));
    transport->addWidget(mBack);
    transport->addWidget(mPlay);
    transport->addWidget(mForward);
    mSpeed = new QComboBox(this);
    for (double s : speeds())
        mSpeed->addItem(s > 0 ? tr("%1 it/s").arg(s) : tr("full speed"), s);
    mSpeed->setCurrentIndex(2);
    mSpeed->setToolTip(tr("Playback speed in iterations per second. Up to 10 it/s every message is animated."));
    transport->addWidget(mSpeed);
    mScrubber = new QSlider(Qt::Horizontal, this);
    mScrubber->setMinimumWidth(80);
    mScrubber->setToolTip(tr("Scrub through the recorded iterations; the plots show a cursor there."));
    transport->addWidget(mScrubber, 1);
    mIteration = new QLabel(this);
    mIteration->setMinimumWidth(110);
    transport->addWidget(mIteration);
    mStatus = new QLabel(this);
    mStatus->setWordWrap(true);
    layout->addWidget(mStatus);

    mTabs = new QTabWidget(this);
    mPlaybackPage = new QWidget(mTabs);
    auto *pageLayout = new QHBoxLayout(mPlaybackPage);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    auto *split = new QSplitter(Qt::Horizontal, mPlaybackPage);
    mView = new PlaybackView(split);
    mStateSpace = new StateSpaceView(split);
    split->addWidget(mView);
    split->addWidget(mStateSpace);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    pageLayout->addWidget(split);
    mInspector = new MessageInspector(mTabs);
    mAttack = new AttackPanel(mTabs);
    mFrontier = new FrontierView(mTabs);
    mTheory = new TheoryView(mTabs);
    mNotes = new QTextBrowser(mTabs);
    mNotes->setWordWrapMode(QTextOption::WordWrap); // between words only, never inside one
    mNotes->setOpenExternalLinks(true);
    auto add = [this](const QString &id, QWidget *page, const QString &title) {
        mPanels.insert(id, page);
        mPanelTitles.insert(id, title);
        mTabs->addTab(page, title);
    };
    add(QStringLiteral("playback"), mPlaybackPage, tr("Network"));
    add(QStringLiteral("messages"), mInspector, tr("Message"));
    add(QStringLiteral("attack"), mAttack, tr("Eavesdropper"));
    add(QStringLiteral("frontier"), mFrontier, tr("ε frontier"));
    add(QStringLiteral("theory"), mTheory, tr("Theory"));
    add(QStringLiteral("notes"), mNotes, tr("Lesson notes"));
    mPanels.insert(QStringLiteral("state_space"), mStateSpace);
    layout->addWidget(mTabs, 1);

    connect(mRecord, &QPushButton::clicked, this, &TeachingPanel::record);
    connect(mSession, &TeachingSession::ready, this, &TeachingPanel::onReady);
    connect(mSession, &TeachingSession::failed, this, [this](const QString &m) { mStatus->setText(tr("Recording failed: %1").arg(m)); });
    connect(mSession, &TeachingSession::busyChanged, this, [this](bool busy) {
        mRecord->setEnabled(!busy);
        if (busy)
            mStatus->setText(tr("Recording…"));
    });
    connect(mRun, &QComboBox::currentIndexChanged, this, &TeachingPanel::setRun);
    connect(mQuantity, &QComboBox::currentIndexChanged, this,
            [this](int q) { mView->setQuantity(static_cast<TeachingSession::Quantity>(q)); });
    connect(mBack, &QToolButton::clicked, mController, &PlaybackController::stepBack);
    connect(mForward, &QToolButton::clicked, mController, &PlaybackController::stepForward);
    connect(mPlay, &QToolButton::clicked, mController, &PlaybackController::togglePlay);
    connect(mController, &PlaybackController::playingChanged, this,
            [this](bool playing) {
                mPlay->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
            });
    connect(mSpeed, &QComboBox::currentIndexChanged, this,
            [this](int i) { mController->setSpeed(mSpeed->itemData(i).toDouble()); });
    mController->setSpeed(mSpeed->currentData().toDouble());
    connect(mScrubber, &QSlider::valueChanged, mController, &PlaybackController::setIndex);
    connect(mController, &PlaybackController::indexChanged, this, &TeachingPanel::onIndex);
    connect(mView, &PlaybackView::edgeClicked, this, [this](int from, int to) {
        mController->pause();
        mInspector->setEdge(from, to);
        if (mPanels.value(QStringLiteral("messages")) && mTabs->indexOf(mInspector) >= 0 && mTabs->currentWidget() != mPlaybackPage)
            mTabs->setCurrentWidget(mInspector);
        mStatus->setText(tr("Link %1 → %2 selected: see the Message tab.").arg(from).arg(to));
    });
    setNotes(QString());
    mStatus->setText(tr("Press Record to play the experiment back iteration by iteration."));
}

void TeachingPanel::setExperimentSource(ExperimentSource source)
{
    mSource = std::move(source);
}

QWidget *TeachingPanel::panel(const QString &id) const
{
    return mPanels.value(id, nullptr);
}

void TeachingPanel::setPanelVisible(const QString &id, bool visible)
{
    QWidget *page = panel(id);
    if (!page)
        return;
    if (id == QLatin1String("state_space")) {
        page->setVisible(visible);
        return;
    }
    const int index = mTabs->indexOf(page);
    if (visible && index < 0) {
        // Re-insert in the original order.
        const QStringList order = {QStringLiteral("playback"), QStringLiteral("messages"), QStringLiteral("attack"),
                                   QStringLiteral("frontier"), QStringLiteral("theory"),   QStringLiteral("notes")};
        int at = 0;
        for (const QString &other : order) {
            if (other == id)
                break;
            if (mTabs->indexOf(mPanels.value(other)) >= 0)
                ++at;
        }
        mTabs->insertTab(at, page, mPanelTitles.value(id));
    } else if (!visible && index >= 0) {
        mTabs->removeTab(index);
    }
}

void TeachingPanel::setNotes(const QString &markdown)
{
    mNotesText = markdown;
    mNotes->setMarkdown(markdown.isEmpty()
                            ? tr("*No lesson notes in this experiment.* Add them in presentation mode "
                                 "(View ▸ Presentation settings); they are saved in the experiment file.")
                            : markdown);
}

bool TeachingPanel::barWrapped() const
{
    return mBar->isWrapped();
}

qint64 TeachingPanel::currentIteration() const
{
    if (!mSession->hasResult())
        return -1;
    const auto &its = mSession->iterations(mRun->currentIndex() >= 0 ? mRun->currentIndex() : 0);
    const int index = mController->index();
    return index >= 0 && index < static_cast<int>(its.size()) ? its[index] : -1;
}

void TeachingPanel::record()
{
    if (!mSource)
        return;
    QString error;
    std::shared_ptr<const Experiment> experiment = mSource(&error);
    if (!experiment) {
        mStatus->setText(tr("Cannot record: %1").arg(error));
        return;
    }
    mController->pause();
    mSession->start(experiment);
}

void TeachingPanel::sweepEpsilon()
{
    if (!mSource)
        return;
    QString error;
    std::shared_ptr<const Experiment> experiment = mSource(&error);
    if (!experiment) {
        mStatus->setText(tr("Cannot sweep: %1").arg(error));
        return;
    }
    mFrontier->setExperiment(experiment);
    setPanelVisible(QStringLiteral("frontier"), true);
    mTabs->setCurrentWidget(mFrontier);
    mFrontier->start();
}

void TeachingPanel::onReady()
{
    const int keep = mRun->currentIndex();
    mRun->blockSignals(true);
    mRun->clear();
    for (int r = 0; r < mSession->runCount(); ++r)
        mRun->addItem(mSession->runLabel(r));
    mRun->setCurrentIndex(std::clamp(keep, 0, std::max(0, mSession->runCount() - 1)));
    mRun->blockSignals(false);
    mView->setSession(mSession);
    mStateSpace->setSession(mSession);
    mStateSpace->setVisible(mStateSpace->applies() || !mPanels.contains(QStringLiteral("state_space")));
    mInspector->setSession(mSession);
    mAttack->setSession(mSession);
    mTheory->setSession(mSession);
    if (mSession->experiment()) {
        auto frontierExperiment = mSource ? mSource(nullptr) : nullptr;
        if (frontierExperiment)
            mFrontier->setExperiment(frontierExperiment);
    }
    setRun(mRun->currentIndex());
    QString text = tr("Recorded %1 iteration(s) of %2 run(s).")
                       .arg(mSession->runCount() > 0 ? static_cast<int>(mSession->iterations(0).size()) - 1 : 0)
                       .arg(mSession->runCount());
    if (!mSession->note().isEmpty())
        text += QLatin1Char(' ') + mSession->note();
    if (!mStateSpace->applies())
        text += QLatin1Char(' ') + tr("(The state-space view needs 2-D decisions.)");
    mStatus->setText(text);
    emit recorded();
}

void TeachingPanel::setRun(int run)
{
    if (run < 0)
        return;
    const int count = static_cast<int>(mSession->iterations(run).size());
    mController->setCount(count);
    mScrubber->blockSignals(true);
    mScrubber->setRange(0, std::max(0, count - 1));
    mScrubber->blockSignals(false);
    mView->setRun(run);
    mStateSpace->setRun(run);
    mInspector->setRun(run);
    onIndex(mController->index());
}

void TeachingPanel::onIndex(int index)
{
    mScrubber->blockSignals(true);
    mScrubber->setValue(index);
    mScrubber->blockSignals(false);
    const bool animate = mController->isPlaying() && mController->speed() > 0 && mController->speed() <= 10;
    mView->setIndex(index, animate ? static_cast<int>(mController->tickInterval() * 0.9) : 0);
    mStateSpace->setIndex(index);
    mInspector->setIndex(index);
    mAttack->setIndex(index);
    mTheory->setIndex(index);
    const qint64 k = currentIteration();
    mIteration->setText(k >= 0 ? tr("iteration %1 / %2").arg(k).arg(mSession->iterations(std::max(0, mRun->currentIndex())).back())
                               : QString());
    if (k >= 0)
        emit iterationChanged(k);
}

} // namespace dplab
