// SPDX-License-Identifier: GPL-3.0-or-later
//
// Live mode (Run ▸ Live Mode): off by default; an edit stops the run in flight within 100 ms and,
// after the debounce, starts only the changed runs; a run estimated too long waits for Run. Also
// measures edit → first new curve point on the teaching presets (reported, not asserted; the
// numbers are in docs/benchmarks.md).
#include "experimentdocument.h"
#include "liveresults.h"
#include "resultsview.h"
#include "runactions.h"
#include "runcontroller.h"

#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QWidget>

#include "uitest.h"

using namespace dplab;

namespace {

const QString kPresets = QStringLiteral(DPLAB_TEST_SOURCE_DIR "/resources/presets");

struct Window {
    QWidget window;
    ExperimentDocument document;
    RunController controller;
    LiveResults results;
    ResultsView views{&results};
    RunActions actions{&document, &controller, &results, &views, &window};
};

} // namespace

class TestLiveMode : public QObject
{
    Q_OBJECT

private slots:
    void offByDefault();
    void teachingPresetsSwitchItOnWithoutRunning();
    void editStopsTheRunWithin100msAndRestartsTheChangedRuns();
    void editToCurveLatencyOnTeachingPresets();
};

void TestLiveMode::offByDefault()
{
    Window w;
    QVERIFY(w.actions.liveAction()->isCheckable());
    QVERIFY(!w.actions.liveAction()->isChecked());
    QString error;
    Json doc = presetJson(kPresets, QStringLiteral("teaching-dgd-vs-tracking.json"));
    doc["presentation"].erase("live"); // a file that does not ask for live mode
    QVERIFY(w.document.loadJson(doc, kPresets, QString(), &error));
    QVERIFY(!w.actions.liveAction()->isChecked());
    w.document.setValue("/runs/0/params/stepsize", Json(0.2), QStringLiteral("stepsize"));
    QTest::qWait(RunActions::kLiveDebounceMs + 200);
    QVERIFY(!w.controller.isActive());
    QVERIFY(!w.controller.lastResult());
}

void TestLiveMode::teachingPresetsSwitchItOnWithoutRunning()
{
    const QStringList files = QDir(kPresets).entryList({QStringLiteral("teaching-*.json")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 9);
    Window w;
    QSignalSpy started(&w.controller, &RunController::started);
    for (const QString &file : files) {
        w.actions.liveAction()->setChecked(false);
        QString error;
        QVERIFY2(w.document.loadJson(presetJson(kPresets, file), kPresets, QString(), &error), qPrintable(error));
        QVERIFY2(w.actions.liveAction()->isChecked(), qPrintable(file));
    }
    // Opening is not an edit: nothing ran.
    QTest::qWait(RunActions::kLiveDebounceMs + 200);
    QCOMPARE(started.count(), 0);
    // A file without the key leaves the mode as it is (here: on).
    Json paper = presetJson(kPresets, QStringLiteral("paper001-fig2-nonconvex-logistic.json"));
    QVERIFY(!paper.contains("presentation"));
    QString error;
    QVERIFY(w.document.loadJson(paper, kPresets, QString(), &error));
    QVERIFY(w.actions.liveAction()->isChecked());
    // Opening with live mode on starts nothing either.
    QTest::qWait(RunActions::kLiveDebounceMs + 200);
    QCOMPARE(started.count(), 0);
}

void TestLiveMode::editStopsTheRunWithin100msAndRestartsTheChangedRuns()
{
    Window w;
    QString error;
    Json doc = presetJson(kPresets, QStringLiteral("teaching-dgd-vs-tracking.json"));
    doc["iterations"] = 50'000'000;
    doc["record_every"] = 5000;
    QVERIFY(w.document.loadJson(doc, kPresets, QString(), &error));
    QSignalSpy batches(&w.controller, &RunController::batchesArrived);
    QSignalSpy finished(&w.controller, &RunController::finished);
    QSignalSpy started(&w.controller, &RunController::started);
    QVERIFY(w.actions.start(false));
    QVERIFY(batches.wait(30000)); // under way
    w.actions.liveAction()->setChecked(true);

    QElapsedTimer clock;
    clock.start();
    w.document.setValue("/iterations", Json(200), QStringLiteral("iterations"));
    QVERIFY(finished.wait(5000));
    const qint64 ms = clock.elapsed();
    // The goal is 100 ms and is reported; only a run that has not stopped after 5 s fails (the wait
    // above), so that a busy machine (CI, parallel tests) cannot fail the test on time alone.
    qInfo("live mode stopped the run %lld ms after the edit (goal 100 ms)", static_cast<long long>(ms));
    QVERIFY(finished.first().first().value<std::shared_ptr<const ExperimentResult>>()->cancelled);

    // After the debounce a new run starts by itself and finishes (200 iterations is short).
    QVERIFY(started.wait(5000));
    QVERIFY(finished.wait(30000));
    QCOMPARE(w.controller.lastJobCount(), 2); // both runs: the cancelled ones are not reusable
    QCOMPARE(w.controller.experiment()->iterations, 200);

    // Editing one run re-runs that run only.
    w.document.setValue("/runs/1/params/stepsize", Json(0.05), QStringLiteral("stepsize"));
    QVERIFY(started.wait(5000));
    QVERIFY(finished.wait(30000));
    QCOMPARE(w.controller.lastJobCount(), 1);

    // A run estimated far beyond the limit waits for Run.
    const int runs = started.count();
    w.document.setValue("/iterations", Json(2'000'000'000LL), QStringLiteral("iterations"));
    QTest::qWait(RunActions::kLiveDebounceMs + 300);
    QCOMPARE(started.count(), runs);
    QVERIFY(!w.controller.isActive());
}

void TestLiveMode::editToCurveLatencyOnTeachingPresets()
{
    const QStringList files = QDir(kPresets).entryList({QStringLiteral("teaching-*.json")}, QDir::Files, QDir::Name);
    QVERIFY(!files.isEmpty());
    for (const QString &file : files) {
        Window w;
        QString error;
        QVERIFY2(w.document.loadJson(presetJson(kPresets, file), kPresets, QString(), &error), qPrintable(error));
        QSignalSpy finished(&w.controller, &RunController::finished);
        if (!w.actions.start(false)) {
            qInfo("%s: does not start here (%s)", qPrintable(file), qPrintable(w.actions.lastRunError()));
            continue;
        }
        QVERIFY(finished.wait(120000));
        QVERIFY2(w.actions.liveAction()->isChecked(), qPrintable(file)); // the preset switched it on
        QSignalSpy batches(&w.controller, &RunController::batchesArrived);
        QElapsedTimer clock;
        clock.start();
        // An edit every preset has: the seed (every run changes).
        const Json seed = w.document.value("/seed");
        w.document.setValue("/seed", Json(seed.get<long long>() + 1), QStringLiteral("seed"));
        const bool drawn = batches.wait(120000);
        const qint64 firstPoint = clock.elapsed();
        if (w.controller.isActive())
            QVERIFY(finished.wait(120000));
        qInfo("LATENCY %s: edit → first new curve point %lld ms (debounce %d ms included), edit → finished %lld ms%s",
              qPrintable(file), static_cast<long long>(firstPoint), RunActions::kLiveDebounceMs,
              static_cast<long long>(clock.elapsed()), drawn ? "" : " (no restart: estimated too long)");
    }
}

QTEST_MAIN(TestLiveMode)
#include "tst_livemode.moc"
