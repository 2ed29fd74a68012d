// SPDX-License-Identifier: GPL-3.0-or-later
//
// ComparisonView: one panel per run with shared axes that zoom together, following
// LiveResults; the final table lists every run.
#include "comparisonview.h"
#include "finalvaluestable.h"
#include "liveresults.h"
#include "presettest.h"
#include "runcontroller.h"

#include "dplab/engine/experiment.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QSignalSpy>
#include <QTest>

using namespace dplab;

class TestComparisonView : public QObject
{
    Q_OBJECT

private slots:
    void panelsPerRunWithSharedAxes();
    void sweepSelectorShowsTheValue();
    void aHiddenViewShowsTheSameOnceShown();
};

namespace {

/** What a comparison view shows: per panel its title, its graph's points and axis ranges, and
 *  every cell of the final-values table. */
QStringList contentOf(const ComparisonView &view)
{
    QStringList content;
    QCustomPlot *plot = view.multiples();
    for (QCPAxisRect *rect : plot->axisRects()) {
        const QCPRange x = rect->axis(QCPAxis::atBottom)->range(), y = rect->axis(QCPAxis::atLeft)->range();
        content << QStringLiteral("axes %1 %2 %3 %4").arg(x.lower).arg(x.upper).arg(y.lower).arg(y.upper);
    }
    for (int i = 0; i < plot->graphCount(); ++i)
        for (auto it = plot->graph(i)->data()->constBegin(); it != plot->graph(i)->data()->constEnd(); ++it)
            content << QStringLiteral("%1 %2 %3").arg(i).arg(it->key, 0, 'g', 17).arg(it->value, 0, 'g', 17);
    for (QCPLayoutElement *e : plot->plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(e))
            content << text->text();
    const FinalValuesTable *table = view.table();
    for (int r = 0; r < table->rowCount(); ++r)
        for (int c = 0; c < table->columnCount(); ++c)
            content << (table->item(r, c) ? table->item(r, c)->text() : QString());
    return content;
}

/** Runs `experiment` to its end with `live` fed by the run's batches and events; the finished
 *  result, or null when the run did not finish within a minute. */
std::shared_ptr<const ExperimentResult> runToTheEnd(const std::shared_ptr<const Experiment> &experiment,
                                                    LiveResults &live)
{
    RunController controller;
    QObject::connect(&controller, &RunController::batchesArrived, &live, &LiveResults::addBatches);
    QObject::connect(&controller, &RunController::eventsArrived, &live, &LiveResults::addEvents);
    live.reset(*experiment);
    QSignalSpy finished(&controller, &RunController::finished);
    if (!controller.start(experiment) || !finished.wait(60000))
        return nullptr;
    return controller.lastResult();
}

} // namespace

void TestComparisonView::panelsPerRunWithSharedAxes()
{
    auto parsed = defaultPresetExperiment([](Json &doc) { doc["iterations"] = 40; });
    QVERIFY(parsed);
    auto experiment = std::make_shared<const Experiment>(std::move(*parsed));

    LiveResults live;
    ComparisonView view(&live);
    const auto result = runToTheEnd(experiment, live);
    QVERIFY(result);
    view.setResult(result, QString());
    view.setMetric(QStringLiteral("consensus_error"));
    view.rebuild();
    QCOMPARE(view.panelCount(), 2);
    const QList<QCPAxisRect *> rects = view.multiples()->axisRects();
    QCOMPARE(rects.size(), 2);
    QCOMPARE(rects[0]->axis(QCPAxis::atLeft)->range(), rects[1]->axis(QCPAxis::atLeft)->range());
    QCOMPARE(rects[0]->axis(QCPAxis::atBottom)->range(), rects[1]->axis(QCPAxis::atBottom)->range());
    QCOMPARE(rects[0]->axis(QCPAxis::atBottom)->range().upper, 40.0);
    rects[0]->axis(QCPAxis::atBottom)->setRange(5, 15);
    QCOMPARE(rects[1]->axis(QCPAxis::atBottom)->range(), QCPRange(5, 15));
    QCOMPARE(view.table()->rowCount(), 2);
}

void TestComparisonView::sweepSelectorShowsTheValue()
{
    // The sweep point selector showed "runs[*].privacy.q = 0.1" for 0.18, cut by its width.
    const auto parsed = defaultPresetExperiment([](Json &doc) {
        doc["iterations"] = 10;
        doc["sweep"] = Json{{"parameter", "runs[*].params.stepsize"}, {"values", {0.018, 0.05}}};
    });
    QVERIFY(parsed);
    LiveResults live;
    ComparisonView view(&live);
    view.resize(900, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    live.reset(*parsed);
    QComboBox *point = nullptr;
    for (QComboBox *box : view.findChildren<QComboBox *>())
        if (box->count() == 2 && box->itemText(0).contains(QLatin1Char('=')))
            point = box;
    QVERIFY(point);
    QVERIFY(point->isVisible());
    QCOMPARE(point->itemText(0), QStringLiteral("stepsize = 0.018"));
    QVERIFY(point->itemData(0, Qt::ToolTipRole).toString().contains(QStringLiteral("runs[*].params.stepsize")));
    // Wide enough for its longest item: nothing is cut.
    QCoreApplication::processEvents();
    for (int i = 0; i < point->count(); ++i)
        QVERIFY2(point->fontMetrics().horizontalAdvance(point->itemText(i)) < point->width() - 8,
                 qPrintable(QStringLiteral("%1 in %2 px").arg(point->itemText(i)).arg(point->width())));
}

void TestComparisonView::aHiddenViewShowsTheSameOnceShown()
{
    // Behind the live plots the view builds nothing while a run starts, streams and ends (it was
    // part of every run's cost, docs/benchmarks.md); shown afterwards, it must show exactly what
    // a view that was visible all along shows: the same panels, points, ranges and table.
    auto parsed = defaultPresetExperiment([](Json &doc) {
        doc["iterations"] = 60;
        doc["repetitions"] = 2;
    });
    QVERIFY(parsed);
    auto experiment = std::make_shared<const Experiment>(std::move(*parsed));
    LiveResults live;
    ComparisonView visible(&live), hidden(&live);
    QVERIFY(shown(visible, 900, 500));
    const auto result = runToTheEnd(experiment, live);
    QVERIFY(result);
    visible.setResult(result, QString());
    hidden.setResult(result, QString());
    QTest::qWait(300); // the visible view's scheduled rebuild
    QVERIFY(visible.table()->rowCount() > 0);
    // Nothing built behind the tab yet (findChild: the accessors would build it).
    QCOMPARE(hidden.findChild<FinalValuesTable *>()->rowCount(), 0);
    QCOMPARE(hidden.findChild<QCustomPlot *>()->graphCount(), 0);
    QVERIFY(shown(hidden, 900, 500));
    const QStringList expected = contentOf(visible);
    QVERIFY(expected.size() > 100);
    QCOMPARE(contentOf(hidden), expected);
}

QTEST_MAIN(TestComparisonView)
#include "tst_comparisonview.moc"
