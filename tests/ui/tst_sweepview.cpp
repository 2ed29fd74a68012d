// SPDX-License-Identifier: GPL-3.0-or-later
//
// SweepView and the final-values table: a small sweep run through the core Runner is plotted
// as final mean ± std against the swept values, one series per run, and tabulated with the
// same numbers; without a sweep the view says how to add one.
#include "finalvaluestable.h"
#include "presetlibrary.h"
#include "presettest.h"
#include "parametertitle.h"
#include "sweepview.h"

#include <qcustomplot.h>

#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"

#include <QTest>

#include <cmath>

using namespace dplab;

namespace {

std::shared_ptr<const Experiment> sweepExperiment(bool withSweep)
{
    return sharedPresetExperiment([&](Json &doc) {
        doc["iterations"] = 30;
        doc["repetitions"] = 3;
        if (withSweep)
            doc["sweep"] = Json{{"parameter", "runs[*].params.stepsize"}, {"values", {0.01, 0.03, 0.05}}};
    });
}

/** The result of running `experiment` on two threads; null when the run fails. */
std::shared_ptr<const ExperimentResult> runOnTwoThreads(const Experiment &experiment)
{
    auto result = Runner(RunnerOptions{2, false, 64}).run(experiment);
    return result.ok() ? std::make_shared<const ExperimentResult>(std::move(result.value())) : nullptr;
}

} // namespace

class TestSweepView : public QObject
{
    Q_OBJECT

private slots:
    void plotsFinalMeanAgainstSweptValue();
    void withoutSweepExplains();
    void tableMatchesFinalStats();
    void axisNamesTheParameter();
    void legendHidesNoPoint();
};

void TestSweepView::plotsFinalMeanAgainstSweptValue()
{
    auto experiment = sweepExperiment(true);
    const auto shared = runOnTwoThreads(*experiment);
    QVERIFY(shared);
    SweepView view;
    view.setResult(experiment, shared);
    QVERIFY(view.hasSweep());
    view.setMetric(QStringLiteral("distance_to_optimum"));
    QCOMPARE(view.metric(), QStringLiteral("distance_to_optimum"));
    for (int r = 0; r < 2; ++r) {
        const auto series = view.series(r);
        QCOMPARE(series.size(), 3);
        for (int p = 0; p < 3; ++p) {
            QCOMPARE(series[p][0], experiment->sweep->values[p].get<double>());
            const RunResult &run = shared->points[p].runs[r];
            const int m = int(std::find(run.metricNames.begin(), run.metricNames.end(), "distance_to_optimum")
                              - run.metricNames.begin());
            const FinalStats s = finalStats(run, m);
            QCOMPARE(series[p][1], s.mean);
            QCOMPARE(series[p][2], s.std);
        }
    }
    // The noise-free run converges faster with a larger step: its final distance falls.
    const auto noiseFree = view.series(0);
    QVERIFY(noiseFree[2][1] < noiseFree[0][1]);
    QCOMPARE(view.plot()->graphCount(), 2);
}

void TestSweepView::withoutSweepExplains()
{
    auto experiment = sweepExperiment(false);
    const auto result = runOnTwoThreads(*experiment);
    QVERIFY(result);
    SweepView view;
    view.setResult(experiment, result);
    QVERIFY(!view.hasSweep());
    QCOMPARE(view.plot()->graphCount(), 0);
    QCOMPARE(view.plot()->itemCount(), 1);
    // Without a legend the axes keep the plot's width (a hidden legend row squeezed them).
    view.resize(700, 420);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot();
    QVERIFY2(view.plot()->axisRect()->rect().width() > view.plot()->width() / 2,
             qPrintable(QStringLiteral("%1 of %2").arg(view.plot()->axisRect()->rect().width()).arg(view.plot()->width())));
}

void TestSweepView::tableMatchesFinalStats()
{
    auto experiment = sweepExperiment(true);
    const auto result = runOnTwoThreads(*experiment);
    QVERIFY(result);
    FinalValuesTable table;
    table.setResult(*result, QStringLiteral("runs[*].params.stepsize"));
    QCOMPARE(table.rowCount(), 6);
    const QString tsv = table.toTsv();
    QVERIFY(tsv.startsWith(QStringLiteral("runs[*].params.stepsize\trun\tstatus\t")));
    // Sorting by the distance column orders rows by the mean.
    int column = -1;
    for (int c = 0; c < table.columnCount(); ++c)
        if (table.horizontalHeaderItem(c)->toolTip() == QStringLiteral("distance_to_optimum"))
            column = c;
    QVERIFY(column >= 0);
    table.sortItems(column, Qt::AscendingOrder);
    for (int r = 1; r < table.rowCount(); ++r)
        QVERIFY(table.item(r - 1, column)->data(Qt::UserRole).toDouble()
                <= table.item(r, column)->data(Qt::UserRole).toDouble());
    const RunResult &first = result->points[0].runs[0];
    const FinalStats s = finalStats(first, 1);
    QVERIFY(s.count == 3);
    QVERIFY(std::isfinite(s.mean) && s.std >= 0);
}

void TestSweepView::axisNamesTheParameter()
{
    // The sweep axis read "graph.generator.rho_wo" (the JSON path) instead of the parameter.
    const QString title = sweepParameterTitle(QStringLiteral("graph.generator.rho_wo"));
    QVERIFY2(title.contains(QStringLiteral("ρ")) && !title.contains(QStringLiteral("graph.generator")), qPrintable(title));
    const QString step = sweepParameterTitle(QStringLiteral("runs[*].params.stepsize"));
    QVERIFY2(!step.contains(QStringLiteral("runs[*]")), qPrintable(step));
    QVERIFY2(sweepParameterTitle(QStringLiteral("runs[*].privacy.epsilon")).contains(QStringLiteral("ε")),
             qPrintable(sweepParameterTitle(QStringLiteral("runs[*].privacy.epsilon"))));
    auto experiment = sweepExperiment(true);
    const auto result = runOnTwoThreads(*experiment);
    QVERIFY(result);
    SweepView view;
    view.setResult(experiment, result);
    QCOMPARE(view.plot()->xAxis->label(), step);
}

void TestSweepView::legendHidesNoPoint()
{
    // The legend sat inside the axes, over the last point (on screen and in the exported PNG).
    auto experiment = sweepExperiment(true);
    const auto shared = runOnTwoThreads(*experiment);
    QVERIFY(shared);
    SweepView view;
    view.resize(700, 420);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setResult(experiment, shared);
    view.plot()->replot();
    QCustomPlot *plot = view.plot();
    QVERIFY(plot->legend->visible());
    const QRect legend = plot->legend->outerRect();
    QVERIFY(!legend.isEmpty());
    QVERIFY2(!legend.intersects(plot->axisRect()->rect()), "the legend overlaps the axes");
    QVERIFY2(plot->axisRect()->rect().width() > plot->width() / 2,
             qPrintable(QStringLiteral("%1 of %2").arg(plot->axisRect()->rect().width()).arg(plot->width())));
    for (int g = 0; g < plot->graphCount(); ++g) {
        QCPGraph *graph = plot->graph(g);
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            const QPointF pixel = graph->coordsToPixels(it->key, it->value);
            QVERIFY(!legend.contains(pixel.toPoint()));
        }
    }
    // The exported picture has the same layout.
    const QPixmap picture = plot->toPixmap(700, 420);
    QCOMPARE(picture.size(), QSize(700, 420));
    QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->rect()));
}

QTEST_MAIN(TestSweepView)
#include "tst_sweepview.moc"
