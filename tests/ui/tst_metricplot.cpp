// SPDX-License-Identifier: GPL-3.0-or-later
//
// MetricPlot: the hover read-out of a curve stays (it was replaced after ~1 s by a tooltip
// listing the run names).
#include "liveresults.h"
#include "metricplot.h"
#include "presetlibrary.h"

#include "dplab/engine/experiment.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QTest>
#include <QToolTip>

using namespace dplab;

class TestMetricPlot : public QObject
{
    Q_OBJECT

private slots:
    void hoverReadoutIsNotReplacedByTooltip();
};

void TestMetricPlot::hoverReadoutIsNotReplacedByTooltip()
{
    Json doc;
    QString error;
    QVERIFY(PresetLibrary::read(PresetLibrary::defaultPreset(), &doc, &error));
    auto parsed = parseExperiment(doc, PresetLibrary::baseDir().toStdString());
    QVERIFY(parsed.ok());
    LiveResults live;
    live.reset(parsed.value());
    RunBatch batch;
    batch.names = {QStringLiteral("consensus_error")};
    for (int k = 0; k <= 20; ++k) {
        batch.iterations << k;
        batch.values << 1.0 + k;
    }
    live.addBatches({batch});
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

QTEST_MAIN(TestMetricPlot)
#include "tst_metricplot.moc"
