// SPDX-License-Identifier: GPL-3.0-or-later
//
// Run ▸ Sweep…: the editor writes the experiment's sweep from a parameter of the descriptors and
// a list or a range, as one undo step; bad values name the field and write nothing; two
// parameters make a grid, which runs as a sweep of pairs and shows as a heatmap of a final
// metric in the Sweep view (cells equal to the runner's final means).
#include "experimentdocument.h"
#include "sweepeditor.h"
#include "sweepview.h"

#include "dplab/engine/runner.h"
#include "dplab/engine/sweepgrid.h"
#include "dplab/engine/writers.h"

#include <QTest>
#include <QUndoStack>

#include <cmath>

#include "uitest.h"

using namespace dplab;

namespace {

const QString kPresets = QStringLiteral(DPLAB_TEST_SOURCE_DIR "/resources/presets");

} // namespace

class TestSweepEditor : public QObject
{
    Q_OBJECT

private slots:
    void writesTheSweepAsOneUndoStep();
    void badValuesNameTheFieldAndWriteNothing();
    void aGridRunsAndShowsAsAHeatmap();
    void aGridValueMustHaveOneEntryPerPath();
};

void TestSweepEditor::writesTheSweepAsOneUndoStep()
{
    ExperimentDocument document;
    QString error;
    QVERIFY(document.loadJson(presetJson(kPresets, QStringLiteral("teaching-dgd-vs-tracking.json")), kPresets, QString(), &error));
    SweepEditor editor(&document);
    SweepEditor::Axis axis;
    axis.path = QStringLiteral("runs[*].params.stepsize");
    axis.range = true;
    axis.from = 0.01;
    axis.to = 1;
    axis.count = 5;
    axis.log = true;
    QVERIFY(editor.setAxis(0, axis));
    QVERIFY(editor.setAxis(1, {}, false));
    const int steps = document.undoStack()->count();
    QVERIFY2(editor.apply(), qPrintable(editor.error()));
    QCOMPARE(document.undoStack()->count(), steps + 1);
    const Json expected = Json::parse(R"({"parameter": "runs[*].params.stepsize", "values": [0.01, 0.0316228, 0.1, 0.316228, 1]})");
    QVERIFY2(document.value("/sweep") == expected, document.value("/sweep").dump().c_str());
    auto resolved = document.resolve();
    QVERIFY(resolved);
    QCOMPARE(resolved->sweep->values.size(), std::size_t(5));

    // The editor reads the sweep back as a list; a list writes the same values.
    SweepEditor again(&document);
    auto values = again.axisValues(0);
    QVERIFY(values);
    QVERIFY2(Json(*values) == Json::parse("[0.01, 0.0316228, 0.1, 0.316228, 1]"), Json(*values).dump().c_str());

    document.undoStack()->undo();
    QVERIFY(document.value("/sweep").is_null());
}

void TestSweepEditor::badValuesNameTheFieldAndWriteNothing()
{
    ExperimentDocument document;
    QString error;
    QVERIFY(document.loadJson(presetJson(kPresets, QStringLiteral("teaching-dgd-vs-tracking.json")), kPresets, QString(), &error));
    SweepEditor editor(&document);
    SweepEditor::Axis axis;
    axis.path = QStringLiteral("runs[0].params.stepsize");
    axis.list = QStringLiteral("0.1, -0.2");
    QVERIFY(editor.setAxis(0, axis));
    const int steps = document.undoStack()->count();
    QVERIFY(!editor.apply());
    QVERIFY2(editor.error().startsWith(QStringLiteral("Parameter values: -0.2 is outside")), qPrintable(editor.error()));
    axis.list = QStringLiteral("0.1, fast");
    QVERIFY(editor.setAxis(0, axis));
    QVERIFY(!editor.apply());
    QVERIFY2(editor.error().contains(QStringLiteral("\"fast\" is not a number")), qPrintable(editor.error()));
    axis.range = true;
    axis.from = 0;
    axis.to = 1;
    axis.log = true;
    QVERIFY(editor.setAxis(0, axis));
    QVERIFY(!editor.apply());
    QVERIFY2(editor.error().startsWith(QStringLiteral("Parameter range")), qPrintable(editor.error()));
    QCOMPARE(document.undoStack()->count(), steps);
    QVERIFY(document.value("/sweep").is_null());
}

void TestSweepEditor::aGridRunsAndShowsAsAHeatmap()
{
    Json doc = presetJson(kPresets, QStringLiteral("teaching-noise-accumulation.json"));
    doc["iterations"] = 100;
    doc["repetitions"] = 2;
    ExperimentDocument document;
    QString error;
    QVERIFY(document.loadJson(doc, kPresets, QString(), &error));
    SweepEditor editor(&document);
    SweepEditor::Axis step;
    step.path = QStringLiteral("runs[*].params.stepsize.a"); // both runs' polynomial schedules
    step.list = QStringLiteral("0.1, 0.3");
    SweepEditor::Axis noise;
    noise.path = QStringLiteral("runs[*].privacy.noise_theta");
    noise.range = true;
    noise.from = 0.1;
    noise.to = 1;
    noise.count = 3;
    noise.log = true;
    QVERIFY(editor.setAxis(0, step));
    QVERIFY(editor.setAxis(1, noise));
    const int steps = document.undoStack()->count();
    QVERIFY2(editor.apply(), qPrintable(editor.error()));
    QCOMPARE(document.undoStack()->count(), steps + 1);
    QCOMPARE(js(document.value("/sweep/parameter")), js(Json::parse(R"(["runs[*].params.stepsize.a", "runs[*].privacy.noise_theta"])")));
    QCOMPARE(document.value("/sweep/values").size(), std::size_t(6));
    QCOMPARE(js(document.value("/sweep/values/1")), js(Json::parse("[0.1, 0.316228]")));

    auto experiment = document.validate();
    QVERIFY2(experiment, experiment ? "" : experiment.error().toString().c_str());
    QVERIFY(isGridSweep(*experiment->sweep));
    // A grid point is the experiment with both values set.
    auto point = experimentAtSweepValue(*experiment, Json::parse("[0.3, 1]"));
    QVERIFY(point);
    QCOMPARE(point->resolved["runs"][1]["params"]["stepsize"]["a"].get<double>(), 0.3);
    QCOMPARE(point->resolved["runs"][1]["privacy"]["noise_theta"].get<double>(), 1.0);

    auto shared = std::make_shared<const Experiment>(std::move(*experiment));
    auto result = Runner(RunnerOptions{2, false, 64}).run(*shared);
    QVERIFY(result);
    auto sharedResult = std::make_shared<const ExperimentResult>(std::move(*result));
    // sweep.csv names both parameters and writes each point's pair.
    const std::string csv = sweepCsv(*shared, *sharedResult);
    QVERIFY(csv.find("runs[*].params.stepsize.a × runs[*].privacy.noise_theta,\"[0.1,0.316228]\"") != std::string::npos);

    SweepView view;
    view.setResult(shared, sharedResult);
    view.setMetric(QStringLiteral("gradient_norm"));
    QVERIFY(view.isHeatmap());
    view.setHeatmapRun(1);
    const QVector<QVector<double>> cells = view.heatmap();
    QCOMPARE(cells.size(), 2);
    QCOMPARE(cells[0].size(), 3);
    const RunResult &run = sharedResult->points[4].runs[1]; // [0.3, 0.316228]
    const auto column = std::find(run.metricNames.begin(), run.metricNames.end(), "gradient_norm") - run.metricNames.begin();
    double mean = 0;
    for (const auto &rep : run.repetitions)
        mean += rep.values.back()[column] / double(run.repetitions.size());
    QVERIFY(std::isfinite(cells[1][1]));
    QVERIFY(std::abs(cells[1][1] - mean) <= 1e-12 * std::abs(mean));
    QVERIFY(cells[0][0] != cells[1][2]);
    // The ringed cell is the lowest final value (gradient norm: lower is better).
    QPoint lowest(-1, -1);
    for (int i = 0; i < cells.size(); ++i)
        for (int j = 0; j < cells[i].size(); ++j)
            if (std::isfinite(cells[i][j]) && (lowest.x() < 0 || cells[i][j] < cells[lowest.x()][lowest.y()]))
                lowest = QPoint(i, j);
    QCOMPARE(view.heatmapBest(), lowest);
}

void TestSweepEditor::aGridValueMustHaveOneEntryPerPath()
{
    Json doc = presetJson(kPresets, QStringLiteral("teaching-dgd-vs-tracking.json"));
    doc["sweep"] = Json::parse(R"({"parameter": ["runs[*].params.stepsize", "iterations"], "values": [[0.1, 10], [0.2]]})");
    auto bad = resolveExperiment(doc, kPresets.toStdString());
    QVERIFY(!bad);
    QCOMPARE(QString::fromStdString(bad.error().where), QStringLiteral("sweep.values[1]"));
    doc["sweep"] = Json::parse(R"({"parameter": ["iterations", "iterations"], "values": [[10, 10]]})");
    bad = resolveExperiment(doc, kPresets.toStdString());
    QVERIFY(!bad);
    QCOMPARE(QString::fromStdString(bad.error().where), QStringLiteral("sweep.parameter[1]"));
    // An old one-parameter sweep is unchanged, and a grid round-trips through the resolved file.
    doc["sweep"] = Json::parse(R"({"parameter": ["runs[*].params.stepsize", "iterations"], "values": [[0.1, 10], [0.2, 20]]})");
    auto grid = resolveExperiment(doc, kPresets.toStdString());
    QVERIFY(grid);
    QCOMPARE(js(grid->resolved["sweep"]), js(doc["sweep"]));
    auto again = resolveExperiment(grid->resolved, kPresets.toStdString());
    QVERIFY(again);
    QCOMPARE(js(again->resolved), js(grid->resolved));
}

QTEST_MAIN(TestSweepEditor)
#include "tst_sweepeditor.moc"
