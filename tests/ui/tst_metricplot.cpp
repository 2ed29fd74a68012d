// SPDX-License-Identifier: GPL-3.0-or-later
//
// MetricPlot: the hover read-out of a curve stays (it was replaced after ~1 s by a tooltip
// listing the run names).
#include "liveresults.h"
#include "metricplot.h"
#include "plotstyle.h"
#include "presettest.h"

#include "dplab/engine/experiment.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QTest>

#include <cmath>
#include <cstring>
#include <QToolTip>

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <thread>

using namespace dplab;

class TestMetricPlot : public QObject
{
    Q_OBJECT

private slots:
    void hoverReadoutIsNotReplacedByTooltip();
    void streamingDrawsEveryStrideThRowThenEveryRow();
    void hugeEpsilonIsDrawnToTheLastIteration();
    void liveRedrawsKeepTheirShareOfTheGuiThread();
    void aRedrawReplacesThePendingLiveRedraw();
    void liveRedrawsFollowTheRunsCpuNotTheWallTime();
    void fullResolutionReloadDrawsEveryRowExactly_data();
    void fullResolutionReloadDrawsEveryRowExactly();
    void newRunDuringTheReloadDrawsOnlyTheNewRun_data();
    void newRunDuringTheReloadDrawsOnlyTheNewRun();
};

namespace {

// Two repetitions of one run of `rows` rows, each repetition's value a function of (k, rep).
void streamTwoRepetitions(LiveResults &live, int run, int rows, const std::function<double(int, int)> &value)
{
    for (int rep = 0; rep < 2; ++rep)
        live.addEvents({RunEvent{StatusEvent::Kind::Started, 0, run, rep, 0, {}}});
    for (int from = 0; from < rows; from += 4000)
        for (int rep = 0; rep < 2; ++rep) {
            RunBatch batch = metricBatch(QStringLiteral("consensus_error"), from, std::min(rows, from + 4000),
                                         [&](int k) { return value(k, rep); });
            batch.run = run;
            batch.repetition = rep;
            live.addBatches({batch});
        }
}

void finish(LiveResults &live, int run, int rows)
{
    for (int rep = 0; rep < 2; ++rep)
        live.addEvents({RunEvent{StatusEvent::Kind::Finished, 0, run, rep, rows - 1, {}}});
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

} // namespace

void TestMetricPlot::fullResolutionReloadDrawsEveryRowExactly_data()
{
    QTest::addColumn<bool>("logY");
    QTest::newRow("linear axis") << false;
    QTest::newRow("log axis (band clamped where mean − std ≤ 0)") << true;
}

void TestMetricPlot::fullResolutionReloadDrawsEveryRowExactly()
{
    // A finished run's lines get every row back from the reload thread: each point must be the
    // one drawn from LiveResults' mean and std directly (key = iteration, mean, mean ± std, the
    // band clamped to mean·10⁻³ on a log axis where mean − std ≤ 0, gaps for values a plot
    // cannot show), bit for bit, in both runs.
    QFETCH(bool, logY);
    const auto experiment = defaultPresetExperiment([](Json &doc) { doc["repetitions"] = 2; });
    QVERIFY(experiment);
    LiveResults live;
    live.reset(*experiment);
    QVERIFY(live.runCount() >= 2);
    MetricPlot plot(&live);
    plot.setMetric(QStringLiteral("consensus_error")); // sets the metric's preferred axis
    plot.setLogY(logY);
    const int rows = 30011;
    auto value = [](int k, int rep) {
        if (k == 7)
            return std::numeric_limits<double>::quiet_NaN();
        if (k == 11)
            return rep == 0 ? -1.0 : 1e300; // beyond what a plot shows, and ≤ 0 on a log axis
        // Smooth (cheap to draw), with rows where mean − std ≤ 0.
        return std::exp(-k * 1e-4) * (rep == 0 ? 1.0 + 0.95 * std::sin(1e-3 * k) : 0.02 + 0.01 * std::cos(2e-3 * k));
    };
    for (int run = 0; run < 2; ++run)
        streamTwoRepetitions(live, run, rows, value);
    QVERIFY(plot.pointCount(0) <= MetricPlot::kLivePoints);
    for (int run = 0; run < 2; ++run)
        finish(live, run, rows);
    QTRY_COMPARE(plot.pointCount(0), rows);
    QTRY_COMPARE(plot.pointCount(1), rows);
    for (int run = 0; run < 2; ++run) {
        const QVector<double> &iterations = live.iterations(0, run);
        const QVector<double> mean = live.mean(0, run, QStringLiteral("consensus_error"));
        const QVector<double> sd = live.std(0, run, QStringLiteral("consensus_error"));
        QCOMPARE(mean.size(), rows);
        // The run's graphs: the band (upper, lower) is made just before the mean line.
        QCPGraph *meanGraph = plot.meanGraph(run);
        QCPGraph *upper = nullptr, *lower = nullptr;
        for (int i = 1; i < plot.graphCount(); ++i)
            if (plot.graph(i) == meanGraph) {
                upper = plot.graph(i - 2);
                lower = plot.graph(i - 1);
            }
        QVERIFY(upper && lower);
        QCOMPARE(upper->dataCount(), rows);
        QCOMPARE(lower->dataCount(), rows);
        for (int k = 0; k < rows; ++k) {
            const double m = mean[k];
            const bool show = std::isfinite(m) && std::abs(m) < kLargestPlotted && (!logY || m > 0);
            const double nan = std::numeric_limits<double>::quiet_NaN();
            double lo = m - sd[k];
            if (logY && lo <= 0)
                lo = m * 1e-3;
            const QCPGraphData &p = *(meanGraph->data()->constBegin() + k);
            const QCPGraphData &u = *(upper->data()->constBegin() + k);
            const QCPGraphData &l = *(lower->data()->constBegin() + k);
            const bool keys = sameBits(p.key, iterations[k]) && sameBits(u.key, iterations[k]) && sameBits(l.key, iterations[k]);
            const bool values = sameBits(p.value, show ? m : nan) && sameBits(u.value, show ? m + sd[k] : nan)
                                && sameBits(l.value, show ? lo : nan);
            if (!keys || !values) // (a message built for every row took seconds)
                QFAIL(qPrintable(QStringLiteral("run %1, row %2: %3 differ").arg(run).arg(k).arg(keys ? QStringLiteral("values") : QStringLiteral("keys"))));
        }
    }
    // The axes fit every row (their ranges come with the reloaded points).
    plot.resetView();
    const double first = live.mean(0, 0, QStringLiteral("consensus_error")).at(0);
    QVERIFY(plot.yAxis->range().contains(first));
    QVERIFY(plot.xAxis->range().contains(rows - 1));
}

void TestMetricPlot::newRunDuringTheReloadDrawsOnlyTheNewRun_data()
{
    // The reload starts 100 ms after the runs stop and is built on another thread: a new run
    // (LiveResults reset) before it starts, while it is built, or once it is done.
    QTest::addColumn<int>("delayMs");
    QTest::addColumn<bool>("deletePlot");
    for (int delay : {0, 100, 103, 300})
        QTest::addRow("new run after %d ms", delay) << delay << false;
    QTest::newRow("plot closed during the reload") << 102 << true;
}

void TestMetricPlot::newRunDuringTheReloadDrawsOnlyTheNewRun()
{
    QFETCH(int, delayMs);
    QFETCH(bool, deletePlot);
    const auto experiment = defaultPresetExperiment([](Json &doc) { doc["repetitions"] = 2; });
    QVERIFY(experiment);
    LiveResults live;
    live.reset(*experiment);
    auto plot = std::make_unique<MetricPlot>(&live);
    plot->setMetric(QStringLiteral("consensus_error"));
    const int rows = 40001;
    for (int run = 0; run < 2; ++run)
        streamTwoRepetitions(live, run, rows, [](int k, int) { return 1.0 + k; });
    for (int run = 0; run < 2; ++run)
        finish(live, run, rows);
    QTest::qWait(delayMs);
    if (deletePlot) {
        plot.reset();
        QTest::qWait(300); // the reload finishes for a plot that is gone
        return;
    }
    // A new run of another length and other values.
    live.reset(*experiment);
    const int newRows = 5000;
    streamTwoRepetitions(live, 0, newRows, [](int k, int) { return 2.0 + k; });
    QTest::qWait(400); // any reload still in flight has come back
    QVERIFY(plot->pointCount(0) > 0);
    QVERIFY(plot->pointCount(0) <= MetricPlot::kLivePoints); // still streaming: the live lines
    QCOMPARE(plot->pointCount(1), 0);
    for (auto it = plot->meanGraph(0)->data()->constBegin(); it != plot->meanGraph(0)->data()->constEnd(); ++it)
        QCOMPARE(it->value, 2.0 + it->key); // nothing of the old run (1 + k)
    finish(live, 0, newRows);
    QTRY_COMPARE(plot->pointCount(0), newRows);
    QCOMPARE((plot->meanGraph(0)->data()->constEnd() - 1)->value, 2.0 + (newRows - 1));
}

void TestMetricPlot::hoverReadoutIsNotReplacedByTooltip()
{
    const auto experiment = defaultPresetExperiment();
    QVERIFY(experiment);
    LiveResults live;
    live.reset(*experiment);
    live.addBatches({metricBatch(QStringLiteral("consensus_error"), 0, 21, [](int k) { return 1.0 + k; })});
    MetricPlot plot(&live);
    plot.setMetric(QStringLiteral("consensus_error"));
    plot.resize(500, 350);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replot();
    QCPGraph *graph = nullptr;
    for (int i = 0; i < plot.graphCount() && !graph; ++i)
        if (plot.graph(i)->dataCount() > 0)
            graph = plot.graph(i);
    QVERIFY(graph);
    // Hover the point at iteration 10.
    const QPointF at = graph->coordsToPixels(10, 11);
    QMouseEvent move(QEvent::MouseMove, at, plot.mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&plot, &move);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("iteration")), qPrintable(QToolTip::text()));
    // Qt's tooltip event arrives after the hover delay: the read-out must stay.
    QHelpEvent help(QEvent::ToolTip, at.toPoint(), plot.mapToGlobal(at.toPoint()));
    QApplication::sendEvent(&plot, &help);
    QVERIFY2(QToolTip::text().contains(QStringLiteral("iteration")), qPrintable(QToolTip::text()));
}

void TestMetricPlot::streamingDrawsEveryStrideThRowThenEveryRow()
{
    const auto experiment = defaultPresetExperiment([](Json &doc) { doc["repetitions"] = 1; });
    QVERIFY(experiment);
    LiveResults live;
    live.reset(*experiment);
    MetricPlot plot(&live);
    plot.setMetric(QStringLiteral("consensus_error"));
    live.addEvents({RunEvent{StatusEvent::Kind::Started, 0, 0, 0, 0, {}}});
    const int rows = 5 * MetricPlot::kLivePoints + 123;
    for (int from = 0; from < rows; from += 250) {
        live.addBatches({metricBatch(QStringLiteral("consensus_error"), from, std::min(rows, from + 250),
                                     [](int k) { return 1.0 / (1.0 + k); })});
        // While the run streams: never more than kLivePoints, each a recorded row k·stride.
        QVERIFY(plot.pointCount(0) <= MetricPlot::kLivePoints);
    }
    QCPGraph *mean = plot.meanGraph(0);
    QVERIFY(mean->dataCount() > MetricPlot::kLivePoints / 2);
    const double stride = (mean->data()->constBegin() + 1)->key;
    QCOMPARE(stride, 8.0); // 10 123 rows: the stride doubled from 1 to 8
    for (int j = 0; j < mean->dataCount(); ++j) {
        const QCPGraphData &p = *(mean->data()->constBegin() + j);
        QCOMPARE(p.key, j * stride);
        QCOMPARE(p.value, 1.0 / (1.0 + p.key));
    }
    // The run ends: every row is drawn.
    live.addEvents({RunEvent{StatusEvent::Kind::Finished, 0, 0, 0, rows - 1, {}}});
    QTRY_COMPARE(plot.pointCount(0), rows);
    QCOMPARE((mean->data()->constEnd() - 1)->key, double(rows - 1));
}

void TestMetricPlot::hugeEpsilonIsDrawnToTheLastIteration()
{
    // paper 001's q sweep at 300 iterations: ε grows like q^(−t) to 1.2e225. The curve stopped
    // where it passed 1e200 (about iteration 270 of 300), the caption's value never drawn.
    const auto experiment = defaultPresetExperiment([](Json &doc) { doc["repetitions"] = 1; });
    QVERIFY(experiment);
    LiveResults live;
    live.reset(*experiment);
    MetricPlot plot(&live);
    plot.setLogY(true);
    plot.setMetric(QStringLiteral("epsilon"));
    live.addEvents({RunEvent{StatusEvent::Kind::Started, 0, 0, 0, 0, {}}});
    live.addBatches({metricBatch(QStringLiteral("epsilon"), 0, 301, [](int k) { return std::pow(0.18, -double(k)) * 3.0; })});
    live.addEvents({RunEvent{StatusEvent::Kind::Finished, 0, 0, 0, 300, {}}});
    QTRY_COMPARE(plot.pointCount(0), 301);
    QCPGraph *mean = plot.meanGraph(0);
    const QCPGraphData &last = *(mean->data()->constEnd() - 1);
    QCOMPARE(last.key, 300.0);
    QVERIFY2(std::isfinite(last.value) && last.value > 1e220, qPrintable(QString::number(last.value)));
    plot.resetView();
    QVERIFY(plot.yAxis->range().contains(last.value));
    // Another experiment without ε: the old ε axes did not stay behind the placeholder.
    live.reset(*experiment);
    live.addBatches({metricBatch(QStringLiteral("consensus_error"), 0, 1, [](int) { return 1.0; })});
    plot.replot();
    QVERIFY(!plot.yAxis->range().contains(last.value));
    QVERIFY(!plot.yAxis->tickLabels());
    QVERIFY(!plot.xAxis->tickLabels());
}

void TestMetricPlot::liveRedrawsKeepTheirShareOfTheGuiThread()
{
    // Cheap redraws: every kLiveReplotMs. Costly ones: spaced so that drawing takes
    // kLiveDrawShare of the time (cost / interval), never more; capped at a minute.
    QCOMPARE(MetricPlot::liveReplotInterval(0.0), MetricPlot::kLiveReplotMs);
    QCOMPARE(MetricPlot::liveReplotInterval(MetricPlot::kLiveReplotMs * MetricPlot::kLiveDrawShare),
             MetricPlot::kLiveReplotMs);
    for (double cost : {3.0, 12.0, 40.0, 250.0}) {
        const int interval = MetricPlot::liveReplotInterval(cost);
        QVERIFY(interval > MetricPlot::kLiveReplotMs);
        QVERIFY2(cost / interval <= MetricPlot::kLiveDrawShare + 1e-12, qPrintable(QString::number(interval)));
        QVERIFY(cost / (interval - 1) > MetricPlot::kLiveDrawShare); // and not longer than that
    }
    QCOMPARE(MetricPlot::liveReplotInterval(1e9), 60000);
}

void TestMetricPlot::aRedrawReplacesThePendingLiveRedraw()
{
    // Rows that stream in schedule a live redraw; any redraw before it (the end of the run, a
    // legend change) draws them already, so the live one must not follow it (on a short run it
    // came after the end's redraw: one more redraw of every plot for nothing). A redraw is still
    // due for rows that arrive after it.
    const auto experiment = defaultPresetExperiment([](Json &doc) { doc["repetitions"] = 1; });
    QVERIFY(experiment);
    LiveResults live;
    live.reset(*experiment);
    MetricPlot plot(&live);
    plot.setMetric(QStringLiteral("consensus_error"));
    plot.setLogY(false);
    QVERIFY(shown(plot, 500, 300));
    int redraws = 0;
    connect(&plot, &QCustomPlot::afterReplot, &plot, [&redraws] { ++redraws; });
    live.addEvents({RunEvent{StatusEvent::Kind::Started, 0, 0, 0, 0, {}}});
    // Values 0 and 1 only: the y axis' labels, and so the x axis' length, stay as they are (a
    // changed length asks for one more redraw, plotstyle.cpp).
    auto rows = [](int from, int to) {
        return metricBatch(QStringLiteral("consensus_error"), from, to, [](int k) { return double(k % 2); });
    };
    live.addBatches({rows(0, 10)});
    QTRY_VERIFY(redraws > 0);
    // The pause between live redraws follows their cost (liveReplotInterval): wait longer.
    const int interval = MetricPlot::liveReplotInterval(plot.replotTime(true));
    QTest::qWait(interval + 200); // the first rows drawn, the axes settled: the next live redraw is due at once
    redraws = 0;
    live.addBatches({rows(10, 20)}); // a live redraw is due
    plot.replot();                   // e.g. the run's end: draws the 20 rows
    QCOMPARE(redraws, 1);
    QCOMPARE(plot.meanGraph(0)->dataCount(), 20);
    QTest::qWait(interval + 200);
    QCOMPARE(redraws, 1); // no live redraw after it
    live.addBatches({rows(20, 30)});
    QTRY_COMPARE_WITH_TIMEOUT(redraws, 2, 10000); // new rows: drawn again (within the live interval)
    QCOMPARE(plot.meanGraph(0)->dataCount(), 30);
}

void TestMetricPlot::liveRedrawsFollowTheRunsCpuNotTheWallTime()
{
    // After its pause, a live redraw waits until the run's threads used kLiveReplotRunCpuMs since
    // the last redraw: a run slowed down by other jobs (much wall time, little CPU) is not
    // redrawn more often than on an idle machine, where one run thread passes that quantum
    // within kLiveReplotMs (so a lecturer still sees ≥ 10 redraws a second).
    using P = MetricPlot;
    QVERIFY(P::kLiveReplotRunCpuMs <= P::kLiveReplotMs);
    const double busy = 50.0; // the run's threads used 50 ms since the last check: not idle
    QVERIFY(!P::liveReplotDue(P::kLiveReplotMs, 10.0, busy));          // loaded: 10 ms of the run's CPU
    QVERIFY(!P::liveReplotDue(P::kLiveReplotMaxMs - 1, 79.0, busy));    // still short of the quantum
    QVERIFY(P::liveReplotDue(P::kLiveReplotMs, P::kLiveReplotRunCpuMs, busy)); // idle machine, one thread
    QVERIFY(P::liveReplotDue(P::kLiveReplotMs, 200.0, busy));           // two threads
    // The rows are drawn after at most kLiveReplotMaxMs however slowly the run advances …
    QVERIFY(P::liveReplotDue(P::kLiveReplotMaxMs, 1.0, busy));
    // … and at once when the run's threads stopped (paused, a step, the end): no CPU since the
    // last check; a check too recent to tell says "busy" (infinity).
    QVERIFY(P::liveReplotDue(P::kLiveReplotMs, 0.5, 0.0));
    QVERIFY(!P::liveReplotDue(P::kLiveReplotMs, 0.5, std::numeric_limits<double>::infinity()));
    // The run's CPU clock excludes the calling thread: this thread's own work does not advance it.
    const double before = P::runCpuMs();
    volatile double x = 0;
    for (int k = 0; k < 20000000; ++k)
        x = x + std::sqrt(double(k));
    QVERIFY(P::runCpuMs() - before < 5.0);
    // A thread of the process that works does.
    std::thread worker([] {
        volatile double y = 0;
        for (int k = 0; k < 20000000; ++k)
            y = y + std::sqrt(double(k));
    });
    worker.join();
    QVERIFY(P::runCpuMs() - before >= 1.0);
}

QTEST_MAIN(TestMetricPlot)
#include "tst_metricplot.moc"
