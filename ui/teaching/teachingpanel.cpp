// SPDX-License-Identifier: GPL-3.0-or-later
#include "teachingpanel.h"
#include "wrappingbar.h"

#include "attackpanel.h"
#include "errorwords.h"
#include "frontierview.h"
#include "fulltextcombobox.h"
#include "messageinspector.h"
#include "playbackcontroller.h"
#include "playbackview.h"
#include "statespaceview.h"
#include "theoryview.h"

#include "mathtext.h"
#include "presentationscale.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QTextDocument>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace dplab {

namespace {

// Lesson notes are Markdown whose formulas sit in indented code blocks with a little LaTeX
// (`∇f_{t+1}`, `Σ_{k<t}`). Qt shows code blocks verbatim in a fixed 13 px font: here each formula
// line becomes an indented paragraph rendered by mathToHtml, in the text's own font, so it
// follows the presentation size like the rest.
QString notesToHtml(const QString &markdown)
{
    QStringList lines = markdown.split(QLatin1Char('\n'));
    QStringList formulas;
    static const QRegularExpression codeLine(QStringLiteral("^(    |\t)(\\S.*)$"));
    bool previousBlank = true, inCode = false;
    for (QString &line : lines) {
        const auto match = codeLine.match(line);
        if (match.hasMatch() && (previousBlank || inCode)) {
            line = QStringLiteral("    DPLABMATH%1X").arg(formulas.size());
            formulas << match.captured(2);
            inCode = true;
        } else {
            inCode = false;
        }
        previousBlank = line.trimmed().isEmpty();
    }
    QTextDocument document;
    document.setMarkdown(lines.join(QLatin1Char('\n')));
    QString html = document.toHtml();
    // The body's font is the one of this moment: drop it so the browser's font applies.
    static const QRegularExpression body(QStringLiteral("<body style=\"[^\"]*\">"));
    html.replace(body, QStringLiteral("<body>"));
    // Each formula line is a paragraph (or a <pre>) holding only its token in a monospace span.
    static const QRegularExpression line(QStringLiteral("<(p|pre)[^>]*>(?:<span[^>]*>)?DPLABMATH(\\d+)X(?:</span>)?</(?:p|pre)>"));
    QString out;
    qsizetype at = 0;
    for (auto it = line.globalMatch(html); it.hasNext();) {
        const auto m = it.next();
        out += html.mid(at, m.capturedStart() - at);
        at = m.capturedEnd();
        const int index = m.captured(2).toInt();
        out += QStringLiteral("<p style=\"margin-left:2em;\">%1</p>").arg(index < formulas.size() ? mathToHtml(formulas[index]) : QString());
    }
    out += html.mid(at);
    return out;
}

/** The experiment `source` makes now; none when there is no source, or when it cannot make
 *  one, then `status` says why in words (`cannot` holds %1 for the reason). */
std::shared_ptr<const Experiment>
sourcedExperiment(const TeachingPanel::ExperimentSource &source, QLabel *status, const QString &cannot)
{
    if (!source)
        return nullptr;
    QString error;
    std::shared_ptr<const Experiment> experiment = source(&error);
    if (!experiment)
        status->setText(cannot.arg(errorInWords(error)));
    return experiment;
}

} // namespace

QVector<double> TeachingPanel::speeds()
{
    return {1, 2, 5, 10, 25, 50, 100, 250, 1000, 0};
}

TeachingPanel::TeachingPanel(QWidget *parent)
    : QWidget(parent), mSession(new TeachingSession(this)), mController(new PlaybackController(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    buildPlaybackBar(layout);
    buildPages(layout);
    connectPlayback();
    setNotes(QString());
    mStatus->setText(tr("Press Record to play the experiment back iteration by iteration."));
}

/** The playback bar — record, run, quantity; transport, speed, scrubber, iteration — and the
 *  status line under it. */
void TeachingPanel::buildPlaybackBar(QVBoxLayout *layout)
{
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
    mRun = new FullTextComboBox(this); // the whole run name where there is room
    mRun->setToolTip(tr("The run the network, state space and message views show."));
    mRun->setMinimumContentsLength(14);
    setup->addWidget(mRun); // no stretch factor: it would split the room equally, not by need
    auto *quantity = new FullTextComboBox(this);
    quantity->setFitCurrentText(true); // "Consensus deviation ‖x_i − x̄‖" takes room only when chosen
    mQuantity = quantity;
    mQuantity->addItems(TeachingSession::quantityNames());
    mQuantity->setToolTip(tr("What colours the agents."));
    setup->addWidget(mQuantity);
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
    // The transport icons grow with the presentation size, like the text beside them.
    auto scaleIcons = [this] {
        const int side = int(std::lround(16 * PresentationScale::factor()));
        for (QToolButton *button : {mBack, mPlay, mForward})
            button->setIconSize(QSize(side, side));
    };
    scaleIcons();
    connect(PresentationScale::instance(), &PresentationScale::changed, this, scaleIcons);
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
}

/** The network beside the tabs (state space, message, eavesdropper, frontier, theory, notes). */
void TeachingPanel::buildPages(QVBoxLayout *layout)
{
    // The network is not a tab: it stays on screen whichever tab is selected (the Message
    // tab's plot beside the links it explains), and takes the most room.
    mSplit = new QSplitter(Qt::Horizontal, this);
    mSplit->setChildrenCollapsible(false);
    mPlaybackPage = new QWidget(mSplit);
    auto *pageLayout = new QVBoxLayout(mPlaybackPage);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    mView = new PlaybackView(mPlaybackPage);
    pageLayout->addWidget(mView);
    mTabs = new QTabWidget(mSplit);
    mStateSpace = new StateSpaceView(mTabs);
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
    mPanels.insert(QStringLiteral("playback"), mPlaybackPage);
    add(QStringLiteral("state_space"), mStateSpace, tr("State space"));
    add(QStringLiteral("messages"), mInspector, tr("Message"));
    add(QStringLiteral("attack"), mAttack, tr("Eavesdropper"));
    add(QStringLiteral("frontier"), mFrontier, tr("ε frontier"));
    add(QStringLiteral("theory"), mTheory, tr("Theory"));
    add(QStringLiteral("notes"), mNotes, tr("Lesson notes"));
    mSplit->addWidget(mPlaybackPage);
    mSplit->addWidget(mTabs);
    mSplit->setStretchFactor(0, 1);
    mSplit->setStretchFactor(1, 1);
    layout->addWidget(mSplit, 1);
}

/** Recording, the run and quantity choices, the transport and the edge clicks. */
void TeachingPanel::connectPlayback()
{
    connect(mRecord, &QPushButton::clicked, this, &TeachingPanel::record);
    connect(mSession, &TeachingSession::ready, this, &TeachingPanel::onReady);
    connect(mSession, &TeachingSession::failed, this, [this](const QString &m) { mStatus->setText(tr("Recording failed: %1").arg(errorInWords(m))); });
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
        if (mTabs->indexOf(mInspector) >= 0)
            mTabs->setCurrentWidget(mInspector); // the network stays in view beside it
        mStatus->setText(tr("Link %1 → %2 selected: see the Message tab.").arg(from).arg(to));
    });
}

void TeachingPanel::setExperimentSource(ExperimentSource source)
{
    mSource = std::move(source);
    // The frontier's own sweep button sweeps the experiment on screen, like Run ▸ ε Sweep.
    mFrontier->setSource(mSource);
}

QString TeachingPanel::statusText() const
{
    return mStatus->text();
}

void TeachingPanel::reset()
{
    mController->pause();
    mSession->clear();
    mRun->blockSignals(true);
    mRun->clear();
    mRun->blockSignals(false);
    mController->setCount(0);
    mController->setIndex(0);
    mScrubber->blockSignals(true);
    mScrubber->setRange(0, 0);
    mScrubber->setValue(0);
    mScrubber->blockSignals(false);
    mView->setSelectedEdge(-1, -1);
    mView->setSession(mSession);
    mStateSpace->setSession(mSession);
    mInspector->setSession(mSession);
    mAttack->setSession(mSession);
    mAttack->reset();
    mTheory->setSession(mSession);
    mFrontier->reset();
    mIteration->clear();
    mStatus->setText(tr("Press Record to play the experiment back iteration by iteration."));
    emit iterationChanged(-1);
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
    if (id == QLatin1String("playback")) {
        page->setVisible(visible);
        return;
    }
    const int index = mTabs->indexOf(page);
    if (visible && index < 0) {
        // Re-insert in the original order.
        const QStringList order = {QStringLiteral("state_space"), QStringLiteral("messages"), QStringLiteral("attack"),
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
    mNotes->setHtml(notesToHtml(markdown.isEmpty()
                                    ? tr("*No lesson notes in this experiment.* Add them in presentation mode "
                                         "(View ▸ Presentation settings); they are saved in the experiment file.")
                                    : markdown));
}

void TeachingPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Beside each other when the panel is wide (the centre of the window), one above the other
    // when it is tall or narrow (a side dock).
    const Qt::Orientation wanted = width() >= 1.2 * height() && width() >= 760 ? Qt::Horizontal : Qt::Vertical;
    if (mSplit->orientation() != wanted)
        mSplit->setOrientation(wanted);
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
    const auto experiment = sourcedExperiment(mSource, mStatus, tr("Cannot record: %1"));
    if (!experiment)
        return;
    mController->pause();
    mSession->start(experiment);
}

void TeachingPanel::sweepEpsilon()
{
    const auto experiment = sourcedExperiment(mSource, mStatus, tr("Cannot sweep: %1"));
    if (!experiment)
        return;
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
