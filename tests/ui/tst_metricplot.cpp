// SPDX-License-Identifier: GPL-3.0-or-later
//
// MetricPlot: the hover read-out of a curve stays (it was replaced after ~1 s by a tooltip
// listing the run names).
#include "liveresults.h"
#include "metricplot.h"
#include "presettest.h"

#include "dplab/engine/experiment.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QTest>

#include <cmath>
#include <QToolTip>

#include <algorithm>

using namespace dplab;

class TestMetricPlot : public QObject
{
    Q_OBJECT

private slots:
    void hoverReadoutIsNotReplacedByTooltip();
    void streamingDrawsEveryStrideThRowThenEveryRow();
    void hugeEpsilonIsDrawnToTheLastIteration();
    void liveRedrawsKeepTheirShareOfTheGuiThread();
};

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

QTEST_MAIN(TestMetricPlot)
#include "tst_metricplot.moc"
