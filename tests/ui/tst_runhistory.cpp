// SPDX-License-Identifier: GPL-3.0-or-later
//
// Run history and re-running only what changed: every finished result is kept (the last 10 per
// run, pinned ones always) with a label of what differed; the plots draw the older ones as ghost
// lines; restore is one undo step; save writes a results folder. After an edit, only the runs
// whose run identity changed become jobs, and the kept runs give the same numbers as a fresh run.
#include "experimentdocument.h"
#include "liveresults.h"
#include "metricplot.h"
#include "rerunplan.h"
#include "runcontroller.h"
#include "runhistory.h"

#include "dplab/engine/experiment.h"
#include "dplab/engine/runidentity.h"
#include "dplab/engine/runner.h"

#include "uitest.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <optional>

using namespace dplab;

namespace {

Json baseDocument()
{
    QFile file(QStringLiteral(DPLAB_TEST_SOURCE_DIR "/resources/presets/teaching-dgd-vs-tracking.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the preset");
    Json doc = Json::parse(file.readAll().toStdString());
    doc["iterations"] = 60;
    doc["repetitions"] = 2;
    return doc;
}

std::shared_ptr<const Experiment> build(const Json &doc)
{
    auto e = parseExperiment(doc, DPLAB_TEST_SOURCE_DIR "/resources/presets");
    if (!e)
        qFatal("%s", e.error().toString().c_str());
    return std::make_shared<const Experiment>(std::move(e.value()));
}

std::shared_ptr<const ExperimentResult> runAll(const Experiment &experiment)
{
    RunnerOptions options;
    options.threads = 2;
    auto r = Runner(options).run(experiment);
    if (!r)
        qFatal("%s", r.error().toString().c_str());
    return std::make_shared<const ExperimentResult>(std::move(r.value()));
}

Json withStepsize(Json doc, int run, double stepsize)
{
    doc["runs"][static_cast<std::size_t>(run)]["params"]["stepsize"] = stepsize;
    return doc;
}

bool sameRun(const RunResult &a, const RunResult &b)
{
    if (a.repetitions.size() != b.repetitions.size())
        return false;
    for (std::size_t k = 0; k < a.repetitions.size(); ++k)
        if (a.repetitions[k].iterations != b.repetitions[k].iterations
            || a.repetitions[k].values != b.repetitions[k].values)
            return false;
    return true;
}

} // namespace

class TestRunHistory : public QObject
{
    Q_OBJECT

private slots:
    void describesWhatDiffered();
    void keepsResultsAndLabelsGhosts();
    void keepsTheLastTenAndPinned();
    void restoreIsOneUndoStep();
    void savesAResultsFolder();
    void plotDrawsGhostLines();
    void rerunsOnlyWhatChanged();
    void controllerCountsOnlyChangedJobs();
    void theRunsKeysAreTheFreshKeys();
};

void TestRunHistory::describesWhatDiffered()
{
    const Json a = Json::parse(R"({"params":{"stepsize":0.1,"rho":2},"algorithm":"dgd"})");
    const Json b = Json::parse(R"({"params":{"stepsize":0.2,"rho":2},"algorithm":"dgd"})");
    QCOMPARE(describeDifference(a, b), QStringLiteral("params.stepsize 0.1 → 0.2"));
    QCOMPARE(describeDifference(a, a), QString());
    const Json c = Json::parse(R"({"params":{"stepsize":0.1},"algorithm":"dgd","x":[1,2]})");
    QCOMPARE(describeDifference(a, c), QStringLiteral("params.rho 2 → —, x — → [1,2]"));
}

void TestRunHistory::keepsResultsAndLabelsGhosts()
{
    RunHistory history;
    QSignalSpy changed(&history, &RunHistory::changed);
    const Json first = baseDocument();
    auto e1 = build(first);
    history.addResult(first, e1, runAll(*e1));
    QCOMPARE(history.entries().size(), 2); // one per run
    QVERIFY(history.ghosts(0, 0).isEmpty());

    const Json second = withStepsize(first, 0, 0.2);
    auto e2 = build(second);
    history.addResult(second, e2, runAll(*e2));
    // Only run 0 changed: one new entry; run 1 keeps its single entry.
    QCOMPARE(history.entries().size(), 3);
    QCOMPARE(history.ghosts(0, 0).size(), 1);
    QVERIFY(history.ghosts(0, 1).isEmpty());
    // The resolved specification writes a constant step as a schedule with scale a.
    QCOMPARE(history.ghosts(0, 0).first()->difference, QStringLiteral("params.stepsize.a 0.1 → 0.2"));
    QCOMPARE(history.current(0, 0)->difference, QString());
    QCOMPARE(changed.count(), 2);

    history.setHidden(history.ghosts(0, 0).first()->id, true);
    QVERIFY(history.ghosts(0, 0).isEmpty());
}

void TestRunHistory::keepsTheLastTenAndPinned()
{
    RunHistory history(10);
    const Json doc = baseDocument();
    auto e = build(doc);
    auto result = runAll(*e);
    // The same result under twelve different configurations of run 0 (the history keys by the
    // configuration, not by the numbers).
    int firstId = 0;
    for (int i = 0; i < 12; ++i) {
        const Json d = withStepsize(doc, 0, 0.01 * (i + 1));
        history.addResult(d, build(d), result);
        if (i == 0) {
            firstId = history.current(0, 0)->id;
            history.setPinned(firstId, true);
        }
    }
    int run0 = 0;
    for (const HistoryEntry &entry : history.entries())
        run0 += entry.run == 0 ? 1 : 0;
    QCOMPARE(run0, 11); // ten unpinned + the pinned first one
    QVERIFY(history.entry(firstId));
    history.setPinned(firstId, false); // unpinned: the oldest beyond ten goes
    QVERIFY(!history.entry(firstId));
}

void TestRunHistory::restoreIsOneUndoStep()
{
    ExperimentDocument document;
    QString error;
    QVERIFY(document.loadJson(baseDocument(), QStringLiteral(DPLAB_TEST_SOURCE_DIR "/resources/presets"),
                              QString(), &error));
    RunHistory history;
    const Json before = document.toJson();
    const Json oldStep = document.value("/runs/0/params/stepsize");
    auto e1 = build(before);
    history.addResult(before, e1, runAll(*e1));
    const int oldId = history.current(0, 0)->id;

    document.setValue("/runs/0/params/stepsize", Json(0.3), QStringLiteral("stepsize"));
    document.setValue("/iterations", Json(40), QStringLiteral("iterations"));
    const Json edited = document.toJson();
    auto e2 = build(edited);
    history.addResult(edited, e2, runAll(*e2));

    const int steps = document.undoStack()->count();
    QVERIFY(history.restore(oldId, &document, &error));
    QCOMPARE(document.undoStack()->count(), steps + 1);
    QCOMPARE(js(document.value("/runs/0/params/stepsize")), js(oldStep));
    QCOMPARE(document.value("/iterations").get<int>(), 60);
    document.undoStack()->undo();
    QCOMPARE(document.value("/runs/0/params/stepsize").get<double>(), 0.3);
    QCOMPARE(document.value("/iterations").get<int>(), 40);
}

void TestRunHistory::savesAResultsFolder()
{
    RunHistory history;
    const Json doc = baseDocument();
    auto e = build(doc);
    history.addResult(doc, e, runAll(*e));
    const int id = history.current(0, 1)->id;
    history.setPinned(id, true);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(history.save(id, dir.filePath(QStringLiteral("pinned")), &error), qPrintable(error));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("pinned/metrics.csv"))));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("pinned/experiment.json"))));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("pinned/manifest.json"))));
    QVERIFY(!history.save(12345, dir.filePath(QStringLiteral("none")), &error));
}

void TestRunHistory::plotDrawsGhostLines()
{
    RunHistory history;
    LiveResults results;
    const Json first = baseDocument();
    auto e1 = build(first);
    results.reset(*e1);
    MetricPlot plot(&results);
    plot.setMetric(QStringLiteral("distance_to_optimum"));
    plot.setHistory(&history);
    history.addResult(first, e1, runAll(*e1));
    QCOMPARE(plot.ghostCount(), 0);
    const Json second = withStepsize(withStepsize(first, 0, 0.05), 1, 0.05);
    auto e2 = build(second);
    history.addResult(second, e2, runAll(*e2));
    QCOMPARE(plot.ghostCount(), 2);
    QCOMPARE(plot.ghostLabel(0), QStringLiteral("params.stepsize.a 0.1 → 0.05"));
    // DPLAB_SCREENSHOT_DIR=docs/screenshots writes the picture the README shows.
    if (const QByteArray dir = qgetenv("DPLAB_SCREENSHOT_DIR"); !dir.isEmpty()) {
        results.reset(*e2);
        for (int r = 0; r < 2; ++r) {
            RunBatch batch;
            batch.run = r;
            const RepetitionResult &rep = history.current(0, r)->result->points[0].runs[static_cast<std::size_t>(r)].repetitions[0];
            for (const std::string &n : history.current(0, r)->result->points[0].runs[static_cast<std::size_t>(r)].metricNames)
                batch.names << QString::fromStdString(n);
            for (std::size_t k = 0; k < rep.iterations.size(); ++k) {
                batch.iterations << rep.iterations[k];
                for (double v : rep.values[k])
                    batch.values << v;
            }
            results.addBatches({batch});
        }
        plot.setLogY(true);
        plot.resize(760, 420);
        plot.rebuild();
        plot.resetView();
        plot.savePng(QString::fromUtf8(dir) + QStringLiteral("/ghost-lines.png"), 760, 420);
    }
    history.setHidden(history.ghosts(0, 0).first()->id, true);
    QCOMPARE(plot.ghostCount(), 1);
}

void TestRunHistory::rerunsOnlyWhatChanged()
{
    const Json first = baseDocument();
    auto e1 = build(first);
    auto r1 = runAll(*e1);

    // Unchanged (even reformatted, relabelled): nothing runs.
    Json relabelled = first;
    relabelled["runs"][0]["label"] = "renamed";
    relabelled["name"] = "other name";
    auto same = build(relabelled);
    RerunPlan none = planRerun(*same, e1.get(), r1.get());
    QCOMPARE(none.changedRuns(), 0);

    // One run edited: one run's repetitions are the runner's jobs.
    const Json second = withStepsize(first, 1, 0.05);
    auto e2 = build(second);
    RerunPlan plan = planRerun(*e2, e1.get(), r1.get());
    QCOMPARE(plan.changedRuns(), 1);
    QCOMPARE(plan.runs[0], std::vector<int>{1});
    RunnerOptions options;
    options.threads = 2;
    int jobs = -1;
    auto merged = runChanged(*e2, plan, r1.get(), options, nullptr, nullptr, &jobs);
    QVERIFY(merged);
    QCOMPARE(jobs, 2); // two repetitions of run 1
    auto fresh = runAll(*e2);
    QVERIFY(sameRun(merged->points[0].runs[0], fresh->points[0].runs[0]));
    QVERIFY(sameRun(merged->points[0].runs[1], fresh->points[0].runs[1]));
    QVERIFY(sameRun(merged->points[0].runs[0], r1->points[0].runs[0]));

    // The seed changes every run.
    Json reseeded = first;
    reseeded["seed"] = 99;
    auto e3 = build(reseeded);
    QCOMPARE(planRerun(*e3, e1.get(), r1.get()).changedRuns(), 2);
    // No previous result: everything runs.
    QCOMPARE(planRerun(*e3, nullptr, nullptr).changedRuns(), 2);
}

void TestRunHistory::controllerCountsOnlyChangedJobs()
{
    RunController controller;
    LiveResults live;
    connect(&controller, &RunController::batchesArrived, &live, &LiveResults::addBatches);
    connect(&controller, &RunController::eventsArrived, &live, &LiveResults::addEvents);
    QSignalSpy finished(&controller, &RunController::finished);
    const Json first = baseDocument();
    auto e1 = build(first);
    live.reset(*e1);
    QVERIFY(controller.start(e1));
    QVERIFY(finished.wait(20000));
    QCOMPARE(controller.lastJobCount(), 4); // 2 runs × 2 repetitions

    auto e2 = build(withStepsize(first, 0, 0.2));
    live.reset(*e2);
    QVERIFY(controller.start(e2));
    QVERIFY(finished.wait(20000));
    QCOMPARE(controller.lastJobCount(), 2);
    // The kept run still shows its curve: replayed into the live results.
    QCOMPARE(live.rowCount(0, 1), 61);
    QCOMPARE(live.rowCount(0, 0), 61);
    QCOMPARE(live.runState(0, 1), LiveResults::RunState::Finished);
    QVERIFY(sameRun(controller.lastResult()->points[0].runs[0], runAll(*e2)->points[0].runs[0]));

    controller.setReuseUnchanged(false);
    QVERIFY(controller.start(e2));
    QVERIFY(finished.wait(20000));
    QCOMPARE(controller.lastJobCount(), 4);
}

void TestRunHistory::theRunsKeysAreTheFreshKeys()
{
    // The keys the run computes from the points it built (RunController::lastResultKeys) must be
    // the keys resolving each point afresh gives, byte for byte, with and without a sweep.
    Json swept = baseDocument();
    swept["sweep"] = {{"parameter", "runs[*].params.stepsize"}, {"values", {0.05, 0.1, 0.2}}};
    for (const Json &doc : {baseDocument(), swept}) {
        auto e = build(doc);
        const int points = e->sweep ? static_cast<int>(e->sweep->values.size()) : 1;
        RunController controller;
        QSignalSpy finished(&controller, &RunController::finished);
        QVERIFY(controller.start(e));
        QVERIFY(finished.wait(20000));
        const std::shared_ptr<const RunKeys> keys = controller.lastResultKeys();
        QVERIFY(keys);
        QCOMPARE(static_cast<int>(keys->size()), points);
        for (int p = 0; p < points; ++p) {
            QCOMPARE((*keys)[static_cast<std::size_t>(p)].size(), e->runs.size());
            std::optional<Result<Experiment>> point;
            if (e->sweep)
                point = sweepPointForKeys(*e, p);
            for (int r = 0; r < static_cast<int>(e->runs.size()); ++r) {
                const RunKey &key = (*keys)[static_cast<std::size_t>(p)][static_cast<std::size_t>(r)];
                const auto fresh = runIdentityAt(*e, p, r, -1);
                QVERIFY(fresh);
                QCOMPARE(key.identity, *fresh);
                QCOMPARE(key.specification, runSpecification(point ? **point : *e, r));
            }
        }
        // The run (every run through runChanged now) gives the runner's numbers.
        const auto result = controller.lastResult();
        const auto reference = runAll(*e);
        for (int p = 0; p < points; ++p)
            for (std::size_t r = 0; r < e->runs.size(); ++r)
                QVERIFY(sameRun(result->points[static_cast<std::size_t>(p)].runs[r],
                                reference->points[static_cast<std::size_t>(p)].runs[r]));
        // A history given the run's keys holds what one computing them itself holds.
        RunHistory given, computed;
        given.addResult(doc, e, result, keys.get());
        computed.addResult(doc, e, result);
        QCOMPARE(given.entries().size(), points * static_cast<int>(e->runs.size()));
        QCOMPARE(given.entries().size(), computed.entries().size());
        for (int k = 0; k < given.entries().size(); ++k) {
            QCOMPARE(given.entries()[k].identity, computed.entries()[k].identity);
            QCOMPARE(given.entries()[k].specification, computed.entries()[k].specification);
        }
    }
}

QTEST_MAIN(TestRunHistory)
#include "tst_runhistory.moc"
