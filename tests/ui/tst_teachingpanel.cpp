// SPDX-License-Identifier: GPL-3.0-or-later
//
// TeachingPanel and its views on real recordings: the message inspector shows exactly the
// core's recorded messages; scrubbing moves every view and reports the iteration; the network
// colours follow the chosen quantity; the eavesdropper is exact without noise and fails with
// it; the ε frontier's points equal separate runs; theory overlays are drawn.
#include "attackpanel.h"
#include "frontierview.h"
#include "messageinspector.h"
#include "playbackcontroller.h"
#include "playbackview.h"
#include "statespaceview.h"
#include "teachingpanel.h"
#include "theoryview.h"

#include "dplab/common/files.h"
#include "dplab/engine/metrics.h"
#include "dplab/engine/writers.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QSignalSpy>
#include <QSlider>
#include <QTableWidget>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace dplab;

namespace {

std::shared_ptr<const Experiment> preset(const std::string &name, int iterations = 0)
{
    const std::string dir = std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets";
    auto doc = readJsonFile(dir + "/" + name);
    if (!doc)
        qFatal("%s", doc.error().toString().c_str());
    if (iterations > 0)
        (*doc)["iterations"] = iterations;
    auto e = parseExperiment(*doc, dir);
    if (!e)
        qFatal("%s", e.error().toString().c_str());
    return std::make_shared<const Experiment>(std::move(e.value()));
}

/** Resolves `doc` and records it in `session`; false if either fails. */
bool recordDocument(TeachingSession &session, const Json &doc)
{
    auto e = parseExperiment(doc, ".");
    return e.ok() && session.runNow(std::make_shared<const Experiment>(std::move(e.value())));
}

} // namespace

class TestTeachingPanel : public QObject
{
    Q_OBJECT

private slots:
    void inspectorShowsTheRecordedMessages();
    void scrubbingMovesEveryView();
    void recordsInTheBackground();
    void attackExactWithoutNoiseOnly();
    void attackComparisonForAnyExperiment();
    void frontierEqualsSeparateRuns();
    void theoryOverlaysAreDrawn();
    void theoryDrawsPaper003LevelOrSaysWhyNot();
    void barWrapsWhenNarrow();
};

void TestTeachingPanel::inspectorShowsTheRecordedMessages()
{
    auto experiment = preset("teaching-compression-bits.json", 40);
    TeachingSession session;
    QString error;
    QVERIFY2(session.runNow(experiment, &error), qPrintable(error));
    MessageInspector inspector;
    inspector.setSession(&session);
    inspector.setRun(1); // top-2: compressed messages
    inspector.setEdge(2, 3);
    inspector.setIndex(7);
    const MessageRecord *record = session.messages(1, 7);
    QVERIFY(record);
    int rows = 0;
    for (const Message &m : record->messages) {
        if (m.sender != 2)
            continue;
        QVERIFY(rows < inspector.table()->rowCount());
        QCOMPARE(inspector.table()->item(rows, 0)->text(), QString::fromStdString(m.channel));
        QCOMPARE(inspector.table()->item(rows, 1)->text(), MessageInspector::vectorText(m.clean));
        QCOMPARE(inspector.table()->item(rows, 2)->text(), MessageInspector::vectorText(m.noise));
        QCOMPARE(inspector.table()->item(rows, 3)->text(), MessageInspector::vectorText(m.sent));
        QCOMPARE(inspector.table()->item(rows, 4)->text(), QString::number(static_cast<qulonglong>(m.bits)));
        // Top-2 of 10 coordinates: 2 values at 32 bits + 2 indices at 4 bits.
        QCOMPARE(m.bits, std::uint64_t(72));
        QCOMPARE((m.sent.array() != 0).count(), Eigen::Index(2));
        ++rows;
    }
    QCOMPARE(rows, inspector.table()->rowCount());
    QVERIFY(rows >= 1);
    // The plot holds the link's clean and sent values over the recording, coordinate 0.
    QCPGraph *sent = inspector.plot()->graph(0);
    QCPGraph *clean = inspector.plot()->graph(1);
    QCOMPARE(sent->dataCount(), 40);
    const Message *m = findMessage(*record, 2, record->messages.front().channel);
    QVERIFY(m);
    QCOMPARE(sent->data()->at(7)->value, m->sent[0]);
    QCOMPARE(clean->data()->at(7)->value, m->clean[0]);
}

void TestTeachingPanel::scrubbingMovesEveryView()
{
    auto experiment = preset("teaching-dgd-vs-tracking.json", 60);
    TeachingPanel panel;
    panel.resize(1200, 700);
    panel.setExperimentSource([experiment](QString *) { return experiment; });
    QSignalSpy ready(&panel, &TeachingPanel::recorded);
    QSignalSpy moved(&panel, &TeachingPanel::iterationChanged);
    panel.record();
    QVERIFY(ready.wait(20000));
    QCOMPARE(panel.controller()->count(), 61);
    panel.scrubber()->setValue(25);
    QCOMPARE(panel.controller()->index(), 25);
    QCOMPARE(panel.currentIteration(), qint64(25));
    QVERIFY(!moved.isEmpty());
    QCOMPARE(moved.last().at(0).toLongLong(), qint64(25));
    QCOMPARE(panel.playbackView()->index(), 25);
    QVERIFY(panel.stateSpace()->applies());
    QCOMPARE(panel.stateSpace()->trailLength(0), 26);
    panel.scrubber()->setValue(50);
    QCOMPARE(panel.stateSpace()->trailLength(0), StateSpaceView::kTrail + 1);
    // Colours follow the quantity: the agent farthest from x* has the top of the ramp.
    const Eigen::VectorXd d = panel.session()->quantity(0, 50, TeachingSession::Quantity::DistanceToOptimum);
    Eigen::Index far = 0;
    d.maxCoeff(&far);
    Eigen::Index near = 0;
    d.minCoeff(&near);
    const double t = panel.playbackView()->legendPosition(d[far]);
    QCOMPARE(panel.playbackView()->agentColor(static_cast<int>(far)), PlaybackView::ramp(t));
    QVERIFY(t > panel.playbackView()->legendPosition(d[near]));
    // Links carry the sender's message: width grows with the norm.
    QVERIFY(panel.playbackView()->edgeWidth(0, 1) >= 1.0);
    // Clicking a link selects it for the inspector.
    QSignalSpy clicked(panel.playbackView(), &PlaybackView::edgeClicked);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTest::mouseClick(panel.playbackView(), Qt::LeftButton, {}, panel.playbackView()->edgeMidpoint(0, 1).toPoint());
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(panel.inspector()->from(), 0);
    QCOMPARE(panel.inspector()->to(), 1);
    // Back to the start: the trail is one point.
    panel.controller()->setIndex(0);
    QCOMPARE(panel.scrubber()->value(), 0);
    QCOMPARE(panel.stateSpace()->trailLength(0), 1);
}

void TestTeachingPanel::recordsInTheBackground()
{
    TeachingSession session;
    QSignalSpy ready(&session, &TeachingSession::ready);
    session.start(preset("teaching-noise-accumulation.json", 30));
    QVERIFY(session.isBusy());
    QVERIFY(ready.wait(20000));
    QVERIFY(!session.isBusy());
    QCOMPARE(session.runCount(), 2);
    QCOMPARE(static_cast<int>(session.iterations(1).size()), 31);
    QCOMPARE(session.channels(1), (QStringList{QStringLiteral("s"), QStringLiteral("theta"), QStringLiteral("z")}));
    // Epsilon colouring needs an accountant; distance needs x*.
    QCOMPARE(session.quantity(0, 3, TeachingSession::Quantity::DistanceToOptimum).size(), Eigen::Index(6));
}

void TestTeachingPanel::attackExactWithoutNoiseOnly()
{
    TeachingSession session;
    QString error;
    QVERIFY2(session.runNow(preset("teaching-eavesdropper.json", 80), &error), qPrintable(error));
    AttackPanel panel;
    panel.setSession(&session);
    QCOMPARE(panel.plot()->graphCount(), 4);
    for (int g = 0; g < panel.plot()->graphCount(); ++g) {
        QCPGraph *graph = panel.plot()->graph(g);
        const double last = graph->data()->at(graph->dataCount() - 1)->value;
        if (graph->name().contains(QStringLiteral("without noise"))) {
            QVERIFY2(last <= 1e-9, qPrintable(graph->name()));
            continue;
        }
        // With noise one estimate can land close by chance: the median of the last 20 cannot.
        std::vector<double> tail;
        for (int k = std::max(0, graph->dataCount() - 20); k < graph->dataCount(); ++k)
            tail.push_back(graph->data()->at(k)->value);
        std::sort(tail.begin(), tail.end());
        QVERIFY2(tail[tail.size() / 2] > 0.5, qPrintable(graph->name()));
    }
    QCOMPARE(panel.table()->rowCount(), 4);
    QVERIFY(AttackPanel::helpText().contains(QStringLiteral("σ(−bᵀx)")));
}

void TestTeachingPanel::attackComparisonForAnyExperiment()
{
    TeachingSession session;
    QString error;
    QVERIFY2(session.runNow(preset("teaching-dgd-vs-tracking.json", 50), &error), qPrintable(error));
    AttackPanel panel;
    panel.setSession(&session);
    QCOMPARE(panel.plot()->graphCount(), 0);
    QSignalSpy busy(&panel, &AttackPanel::busyChanged);
    panel.runComparison(1);
    QTRY_VERIFY_WITH_TIMEOUT(panel.plot()->graphCount() == 4, 20000);
    // Quadratic local objectives: the gradients are reconstructed; exact without noise.
    for (int g = 0; g < 4; ++g) {
        QCPGraph *graph = panel.plot()->graph(g);
        QVERIFY(graph->name().contains(QStringLiteral("(noise")));
        if (graph->name().contains(QStringLiteral("noise off")))
            QVERIFY2(graph->data()->at(graph->dataCount() - 1)->value <= 1e-9, qPrintable(graph->name()));
    }
}

void TestTeachingPanel::frontierEqualsSeparateRuns()
{
    Json doc = preset("teaching-privacy-frontier.json")->resolved;
    doc["iterations"] = 40;
    doc["repetitions"] = 2;
    const std::string dir = std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets";
    auto experiment = std::make_shared<const Experiment>(parseExperiment(doc, dir).value());
    FrontierView view;
    view.setExperiment(experiment);
    view.setRange(10, 1000, 3, 0);
    QString error;
    QVERIFY2(view.runNow(&error), qPrintable(error));
    QVERIFY(view.result().has_value());
    QCOMPARE(static_cast<int>(view.result()->rows.size()), 6);
    QCOMPARE(view.metric(), QStringLiteral("distance_to_optimum"));
    const auto &metrics = view.result()->metrics;
    const std::size_t m = std::find(metrics.begin(), metrics.end(), "distance_to_optimum") - metrics.begin();
    // Each plotted point is the separate run at that ε.
    for (const FrontierRow &row : view.result()->rows) {
        Json one = doc;
        one["runs"][row.run]["privacy"]["epsilon"] = row.epsilon;
        auto e = parseExperiment(one, dir);
        QVERIFY(e.ok());
        auto r = Runner().run(*e);
        QVERIFY(r.ok());
        const RunResult &rr = r->points[0].runs[row.run];
        const int col = static_cast<int>(std::find(rr.metricNames.begin(), rr.metricNames.end(), "distance_to_optimum")
                                         - rr.metricNames.begin());
        QCOMPARE(row.stats[m].mean, finalMetricStats(rr, col).mean);
        QCOMPARE(row.stats[m].std, finalMetricStats(rr, col).std);
    }
    // One series per algorithm, error bars on each, points at the three ε.
    int graphs = 0, bars = 0;
    for (int k = 0; k < view.plot()->plottableCount(); ++k) {
        if (auto *g = qobject_cast<QCPGraph *>(view.plot()->plottable(k))) {
            ++graphs;
            QCOMPARE(g->dataCount(), 3);
            QCOMPARE(g->data()->at(0)->key, 10.0);
        }
        if (qobject_cast<QCPErrorBars *>(view.plot()->plottable(k)))
            ++bars;
    }
    QCOMPARE(graphs, 2);
    QCOMPARE(bars, 2);
}

void TestTeachingPanel::theoryOverlaysAreDrawn()
{
    Json doc = preset("teaching-consensus-gossip.json")->resolved;
    doc.erase("sweep");
    TeachingSession session;
    QVERIFY(recordDocument(session, doc));
    TheoryView view;
    view.setSession(&session);
    QCOMPARE(view.metric(), QStringLiteral("consensus_error"));
    QCOMPARE(view.overlayCount(), 1);
    QCPGraph *overlay = view.plot()->graph(1);
    QVERIFY(overlay->name().contains(QStringLiteral("Xiao & Boyd")));
    QCOMPARE(overlay->pen().style(), Qt::DashLine);
}

void TestTeachingPanel::theoryDrawsPaper003LevelOrSaysWhyNot()
{
    Json doc = preset("teaching-steady-state-bound.json")->resolved;
    doc["repetitions"] = 1;
    TeachingSession session;
    QVERIFY(recordDocument(session, doc));
    TheoryView view;
    view.setSession(&session);
    QCOMPARE(view.metric(), QStringLiteral("distance_to_optimum"));
    QCOMPARE(view.overlayCount(), 1); // run 0 inside Theorem 3; run 1 (α = 0.05) has no θ
    QCPGraph *level = view.plot()->graph(1);
    QVERIFY(level->name().contains(QStringLiteral("√(θ/n)")));
    QCOMPARE(level->pen().style(), Qt::DashLine);
    QVERIFY(level->dataCount() > 2);
    QCOMPARE(level->data()->at(0)->value, level->data()->at(level->dataCount() - 1)->value);
    QVERIFY2(view.note().contains(QStringLiteral("ρ(A) = 3.57")), qPrintable(view.note()));
    // The level stays in view even above every recorded point.
    QVERIFY(view.plot()->yAxis->range().contains(level->data()->at(0)->value));
}

void TestTeachingPanel::barWrapsWhenNarrow()
{
    // Docked under the graph at 1280×720 the panel gets about 700 px, less beside wide docks:
    // the transport row moves under the run selector, and no tab needs more than 520 px.
    TeachingPanel panel;
    panel.resize(1400, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(!panel.barWrapped());
    panel.resize(520, 500);
    QTRY_VERIFY(panel.barWrapped());
    QVERIFY2(panel.minimumSizeHint().width() <= 520,
             qPrintable(QStringLiteral("minimum width %1").arg(panel.minimumSizeHint().width())));
    panel.resize(1400, 500);
    QTRY_VERIFY(!panel.barWrapped());
}

QTEST_MAIN(TestTeachingPanel)
#include "tst_teachingpanel.moc"
