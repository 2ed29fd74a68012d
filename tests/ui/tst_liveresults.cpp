// SPDX-License-Identifier: GPL-3.0-or-later
//
// LiveResults: mean and sample standard deviation over repetitions (hand-computed), rows
// released only when every running repetition has them, repetitions that ended early
// dropping out, NaN skipped, run states and their texts.
#include "liveresults.h"
#include "metricplot.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace dplab;

namespace {

RunBatch batch(int run, int rep, QVector<qint64> its, QVector<double> values)
{
    RunBatch b;
    b.run = run;
    b.repetition = rep;
    b.names = {QStringLiteral("consensus_error"), QStringLiteral("bits")};
    b.iterations = std::move(its);
    b.values = std::move(values);
    return b;
}

Experiment twoRunsThreeReps()
{
    Experiment e;
    e.repetitions = 3;
    e.runs.resize(2);
    e.runs[0].label = "A";
    e.runs[1].label = "B";
    return e;
}

} // namespace

class TestLiveResults : public QObject
{
    Q_OBJECT

private slots:
    void meanAndStd();
    void rowsWaitForEveryRepetition();
    void startedRepetitionHoldsRowsBack();
    void divergedRepetitionDropsOut();
    void nanIsSkipped();
    void perAgentEpsilonIsAveragedOverRepetitions();
    void epsilonPlotDrawsOneLinePerAgent();
    void alternativeBoundIsDashed();
};

void TestLiveResults::meanAndStd()
{
    LiveResults live;
    live.reset(twoRunsThreeReps());
    QCOMPARE(live.runCount(), 2);
    QCOMPARE(live.runLabel(1), QStringLiteral("B"));
    QSignalSpy appended(&live, &LiveResults::rowsAppended);
    live.addBatches({batch(0, 0, {0, 1}, {1, 0, 2, 64}), batch(0, 1, {0, 1}, {3, 0, 4, 64}),
                     batch(0, 2, {0, 1}, {5, 0, 9, 64})});
    QCOMPARE(appended.count(), 1);
    QCOMPARE(live.rowCount(0, 0), 2);
    // Row 0: values 1, 3, 5 → mean 3, sample std sqrt(((−2)² + 0 + 2²)/2) = 2.
    QCOMPARE(live.mean(0, 0, QStringLiteral("consensus_error"))[0], 3.0);
    QCOMPARE(live.std(0, 0, QStringLiteral("consensus_error"))[0], 2.0);
    // Row 1: 2, 4, 9 → mean 5, std sqrt((9 + 1 + 16)/2) = sqrt(13).
    QCOMPARE(live.mean(0, 0, QStringLiteral("consensus_error"))[1], 5.0);
    QVERIFY(std::abs(live.std(0, 0, QStringLiteral("consensus_error"))[1] - std::sqrt(13.0)) < 1e-15);
    QCOMPARE(live.mean(0, 0, QStringLiteral("bits"))[1], 64.0);
    QCOMPARE(live.iterations(0, 0), (QVector<double>{0, 1}));
    QCOMPARE(live.counts(0, 0), (QVector<int>{3, 3}));
    QVERIFY(live.mean(0, 0, QStringLiteral("epsilon")).isEmpty());
    QCOMPARE(live.rowCount(0, 1), 0);
    QCOMPARE(live.latestIteration(), qint64(1));
}

void TestLiveResults::startedRepetitionHoldsRowsBack()
{
    LiveResults live;
    live.reset(twoRunsThreeReps());
    live.addEvents({RunEvent{StatusEvent::Kind::Started, 0, 1, 2, 0, {}}});
    live.addBatches({batch(1, 0, {0, 1}, {1, 0, 1, 0}), batch(1, 1, {0, 1}, {3, 0, 3, 0})});
    QCOMPARE(live.rowCount(0, 1), 0); // repetition 2 is running but has recorded nothing yet
}

void TestLiveResults::rowsWaitForEveryRepetition()
{
    LiveResults live;
    live.reset(twoRunsThreeReps());
    QSignalSpy reset(&live, &LiveResults::seriesReset);
    live.addBatches({batch(1, 0, {0, 1, 2}, {1, 0, 1, 0, 1, 0}), batch(1, 1, {0}, {3, 0})});
    // Repetition 2 has not started: it does not hold rows back; repetition 1 only has row 0.
    QCOMPARE(live.rowCount(0, 1), 1);
    QCOMPARE(live.mean(0, 1, QStringLiteral("consensus_error")), (QVector<double>{2}));
    QCOMPARE(reset.count(), 0);
    live.addBatches({batch(1, 2, {0, 1}, {5, 0, 5, 0})});
    // Repetition 2 joined: row 0 is recomputed over three repetitions.
    QCOMPARE(reset.count(), 1);
    QCOMPARE(live.rowCount(0, 1), 1);
    QCOMPARE(live.mean(0, 1, QStringLiteral("consensus_error")), (QVector<double>{3}));
    QCOMPARE(live.counts(0, 1), (QVector<int>{3}));
    live.addBatches({batch(1, 1, {1, 2}, {3, 0, 3, 0}), batch(1, 2, {2}, {5, 0})});
    QCOMPARE(live.rowCount(0, 1), 3);
    QCOMPARE(live.mean(0, 1, QStringLiteral("consensus_error")), (QVector<double>{3, 3, 3}));
}

void TestLiveResults::divergedRepetitionDropsOut()
{
    LiveResults live;
    live.reset(twoRunsThreeReps());
    QSignalSpy state(&live, &LiveResults::runStateChanged);
    live.addEvents({RunEvent{StatusEvent::Kind::Started, 0, 0, 0, 0, {}}});
    live.addBatches({batch(0, 0, {0, 1, 2}, {1, 0, 1, 0, 1, 0}), batch(0, 1, {0}, {2, 0}),
                     batch(0, 2, {0, 1, 2}, {3, 0, 3, 0, 3, 0})});
    QCOMPARE(live.rowCount(0, 0), 1);
    live.addEvents({RunEvent{StatusEvent::Kind::Diverged, 0, 0, 1, 1, QStringLiteral("NaN")},
                    RunEvent{StatusEvent::Kind::Finished, 0, 0, 1, 1, QStringLiteral("diverged")}});
    QCOMPARE(live.rowCount(0, 0), 3);
    QCOMPARE(live.counts(0, 0), (QVector<int>{3, 2, 2}));
    QCOMPARE(live.mean(0, 0, QStringLiteral("consensus_error"))[2], 2.0);
    QCOMPARE(live.runState(0, 0), LiveResults::RunState::Diverged);
    QCOMPARE(live.runStatusText(0, 0), QStringLiteral("diverged at 1"));
    QVERIFY(state.count() >= 2);
}

void TestLiveResults::nanIsSkipped()
{
    LiveResults live;
    live.reset(twoRunsThreeReps());
    const double nan = std::nan("");
    live.addBatches({batch(0, 0, {0}, {nan, 1}), batch(0, 1, {0}, {4, 1}), batch(0, 2, {0}, {nan, 1})});
    QCOMPARE(live.mean(0, 0, QStringLiteral("consensus_error"))[0], 4.0);
    QCOMPARE(live.std(0, 0, QStringLiteral("consensus_error"))[0], 0.0);
    QCOMPARE(live.latestMax(QStringLiteral("consensus_error")), 4.0);
}

namespace {

RunBatch epsilonBatch(int rep, QVector<qint64> its, QVector<double> maxEps, QVector<double> perAgent)
{
    RunBatch b;
    b.run = 0;
    b.repetition = rep;
    b.names = {QStringLiteral("epsilon")};
    b.iterations = std::move(its);
    b.values = std::move(maxEps);
    b.agents = 2;
    b.epsilonAgents = std::move(perAgent);
    return b;
}

} // namespace

void TestLiveResults::perAgentEpsilonIsAveragedOverRepetitions()
{
    LiveResults live;
    live.reset(twoRunsThreeReps());
    // Two agents; rows are (agent 0, agent 1) per iteration.
    live.addBatches({epsilonBatch(0, {0, 5}, {0, 3}, {0, 0, 1, 3}), epsilonBatch(1, {0, 5}, {0, 5}, {0, 0, 2, 5}),
                     epsilonBatch(2, {0, 5}, {0, 7}, {0, 0, 6, 7})});
    QCOMPARE(live.epsilonAgentCount(0, 0), 2);
    QCOMPARE(live.epsilonAgentCount(0, 1), 0);
    QCOMPARE(live.epsilonAgentMean(0, 0, 0), (QVector<double>{0, 3}));
    QCOMPARE(live.epsilonAgentMean(0, 0, 1), (QVector<double>{0, 5}));
    QVERIFY(live.epsilonAgentMean(0, 0, 2).isEmpty());
    QCOMPARE(live.mean(0, 0, QStringLiteral("epsilon")), (QVector<double>{0, 5}));
}

void TestLiveResults::epsilonPlotDrawsOneLinePerAgent()
{
    LiveResults live;
    live.reset(twoRunsThreeReps());
    MetricPlot plot(&live);
    plot.setMetric(QStringLiteral("epsilon"));
    live.addBatches({epsilonBatch(0, {0, 5}, {0, 3}, {0, 0, 1, 3}), epsilonBatch(1, {0, 5}, {0, 5}, {0, 0, 2, 5}),
                     epsilonBatch(2, {0, 5}, {0, 7}, {0, 0, 6, 7})});
    QCOMPARE(plot.agentGraphCount(0), 0);
    plot.setPerAgent(true);
    QCOMPARE(plot.agentGraphCount(0), 2);
    QCOMPARE(plot.agentGraphCount(1), 0); // run B has no data
    QCOMPARE(plot.pointCount(0), 2);      // the max line is still there
    // Later rows are appended to the agent lines as they stream in.
    live.addBatches({epsilonBatch(0, {10}, {4}, {2, 4}), epsilonBatch(1, {10}, {6}, {3, 6}),
                     epsilonBatch(2, {10}, {8}, {7, 8})});
    QCOMPARE(plot.agentGraphCount(0), 2);
    QCOMPARE(plot.graphCount(), 2 + 2); // two max lines (no bands in per-agent mode) + two agents
    plot.setPerAgent(false);
    QCOMPARE(plot.agentGraphCount(0), 0);
}

void TestLiveResults::alternativeBoundIsDashed()
{
    LiveResults live;
    live.reset(twoRunsThreeReps());
    MetricPlot plot(&live);
    plot.setMetric(QStringLiteral("epsilon"));
    QVector<RunBatch> batches;
    for (int rep = 0; rep < 3; ++rep) {
        RunBatch b = epsilonBatch(rep, {0, 5}, {0, 3}, {0, 0, 1, 3});
        b.alternatives = 1;
        b.alternativeNames = {QStringLiteral("Theorem 3-1 (finite T)")};
        b.epsilonAlternatives = {0, 4.0 + rep};
        batches << b;
    }
    live.addBatches(batches);
    QCOMPARE(live.epsilonAlternativeCount(0, 0), 1);
    QCOMPARE(live.epsilonAlternativeMean(0, 0, 0), (QVector<double>{0, 5}));
    QCOMPARE(plot.alternativeGraphCount(0), 1);
    QCOMPARE(plot.alternativeGraphCount(1), 0);
    QCPGraph *dashed = plot.graph(plot.graphCount() - 1);
    QCOMPARE(dashed->pen().style(), Qt::DashLine);
    QVERIFY(dashed->name().contains(QStringLiteral("finite T")));
    plot.setMetric(QStringLiteral("bits"));
    QCOMPARE(plot.alternativeGraphCount(0), 0); // only the ε plot has them
}

QTEST_MAIN(TestLiveResults)
#include "tst_liveresults.moc"
