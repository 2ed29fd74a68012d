// SPDX-License-Identifier: GPL-3.0-or-later
//
// Run ▸ Tune…: the dialog's tuning is `dplab-cli tune`'s (same seed → byte-identical tuning.csv,
// at 1 and 2 threads), Apply best is one undo step, a clicked candidate is drawn in the live
// plots with its value in the run's name, runs that cannot calibrate a target ε are listed as not
// comparable, and bad fields name the field.
#include "experimentdocument.h"
#include "liveresults.h"
#include "parameterchoices.h"
#include "tunedialog.h"
#include "tunerunner.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "uitest.h"

#include <optional>

using namespace dplab;

namespace {

const QString kPresets = QStringLiteral(DPLAB_TEST_SOURCE_DIR "/resources/presets");
const QString kCli = QStringLiteral(DPLAB_TEST_BINARY_DIR "/app/dplab-cli");

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool tuneAndWait(TuneDialog &dialog)
{
    QSignalSpy finished(dialog.runner(), &TuneRunner::finished);
    QSignalSpy failed(dialog.runner(), &TuneRunner::failed);
    if (!dialog.startTuning()) {
        qWarning("startTuning: %s", qPrintable(dialog.error()));
        return false;
    }
    for (int waited = 0; finished.isEmpty() && failed.isEmpty() && waited < 120000; waited += 50)
        QTest::qWait(50);
    if (!failed.isEmpty())
        qWarning("tuning failed: %s", qPrintable(failed.first().first().toString()));
    return !finished.isEmpty();
}

/** Tunes every run's stepsize over [0.01, hi] on a log scale for `metric`, `repetitions` per
 *  candidate within `budget` jobs; false when the dialog does not know the metric. */
bool configure(TuneDialog &dialog, double hi, const QString &metric, int repetitions, int budget)
{
    dialog.setRange(0.01, hi);
    dialog.setLogScale(true);
    const bool known = dialog.setMetric(metric);
    dialog.setRepetitions(repetitions);
    dialog.setBudget(budget);
    return known;
}

/** A document, its live results and a Tune dialog on the document's runs[*].params.stepsize. */
struct StepsizeTuning {
    ExperimentDocument document;
    LiveResults results;
    std::optional<TuneDialog> dialog;

    /** Loads `doc` (file names relative to the presets) and opens the dialog; false, with
     *  *error set when the document does not load. */
    bool open(const Json &doc, QString *error)
    {
        if (!document.loadJson(doc, kPresets, QString(), error))
            return false;
        dialog.emplace(&document, &results);
        return dialog->setParameter(QStringLiteral("runs[*].params.stepsize"));
    }
};

} // namespace

class TestTuneDialog : public QObject
{
    Q_OBJECT

private slots:
    void parametersComeFromTheDescriptors();
    void resultEqualsTheCliAtOneAndTwoThreads();
    void applyBestIsOneUndoStepAndACandidateIsDrawn();
    void runsThatCannotCalibrateAreNotComparable();
    void badFieldsNameTheField();
};

void TestTuneDialog::parametersComeFromTheDescriptors()
{
    ExperimentDocument document;
    QString error;
    QVERIFY(document.loadJson(presetJson(kPresets, QStringLiteral("paper003-fig1-dpop.json")), kPresets, QString(), &error));
    const QVector<ParameterChoice> choices = numericParameters(document.toJson());
    auto find = [&](const std::string &path) -> const ParameterChoice * {
        for (const ParameterChoice &c : choices)
            if (c.path() == path)
                return &c;
        return nullptr;
    };
    // Algorithm 1's step is a number, DPOP's a geometric schedule: its scale a is offered.
    const ParameterChoice *alpha = find("runs[0].params.alpha");
    QVERIFY(alpha);
    QCOMPARE(alpha->value, 0.06);
    const ParameterChoice *dpop = find("runs[1].params.stepsize.a");
    QVERIFY(dpop);
    QCOMPARE(dpop->value, 0.2);
    QVERIFY(!dpop->accepts(0.0)); // a step size is > 0
    // Every run has a target ε: offered once for all.
    const ParameterChoice *epsilon = find("runs[*].privacy.epsilon");
    QVERIFY(epsilon);
    QCOMPARE(epsilon->value, 10000.0);
    QVERIFY(!find("runs[*].params.alpha")); // only Algorithm 1 has it
    QVERIFY(!find("runs[0].params.project")); // not a number
}

void TestTuneDialog::resultEqualsTheCliAtOneAndTwoThreads()
{
    QVERIFY2(QFile::exists(kCli), qPrintable(kCli + QStringLiteral(" is not built")));
    const QString file = kPresets + QStringLiteral("/teaching-dgd-vs-tracking.json");
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QProcess cli;
    cli.start(kCli, {QStringLiteral("tune"), file, QStringLiteral("--param"), QStringLiteral("params.stepsize"),
                     QStringLiteral("--range"), QStringLiteral("0.01:1"), QStringLiteral("--log"),
                     QStringLiteral("--metric"), QStringLiteral("optimality_gap"), QStringLiteral("--repetitions"),
                     QStringLiteral("2"), QStringLiteral("--budget"), QStringLiteral("28"), QStringLiteral("--out"),
                     tmp.filePath(QStringLiteral("cli")), QStringLiteral("--quiet")});
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    const QByteArray expected = readAll(tmp.filePath(QStringLiteral("cli/tuning.csv")));
    QVERIFY(expected.startsWith("run,value,optimality_gap_mean,optimality_gap_std,repetitions\n"));
    QVERIFY(expected.count('\n') > 1 + 2 * 3); // up to 7 candidates per run within 28 jobs of 2 repetitions

    for (int threads : {1, 2}) {
        ExperimentDocument document;
        LiveResults results;
        QString error;
        QVERIFY(document.loadFile(file, &error));
        TuneDialog dialog(&document, &results);
        QVERIFY(dialog.setParameter(QStringLiteral("runs[*].params.stepsize")));
        QVERIFY(configure(dialog, 1, QStringLiteral("optimality_gap"), 2, 28));
        dialog.setThreads(threads);
        QVERIFY(tuneAndWait(dialog));
        const QString dir = tmp.filePath(QStringLiteral("window-%1").arg(threads));
        QVERIFY2(dialog.saveResults(dir, &error), qPrintable(error));
        QCOMPARE(readAll(dir + QStringLiteral("/tuning.csv")), expected);
        // The best values and statistics too (best.json's run identities name the configuration).
        Json cliBest = Json::parse(readAll(tmp.filePath(QStringLiteral("cli/best.json"))).toStdString());
        Json best = Json::parse(readAll(dir + QStringLiteral("/best.json")).toStdString());
        for (auto *j : {&cliBest, &best})
            for (auto &[label, run] : (*j)["runs"].items())
                run.erase("identity");
        QCOMPARE(js(best), js(cliBest));
    }
}

void TestTuneDialog::applyBestIsOneUndoStepAndACandidateIsDrawn()
{
    StepsizeTuning tuning;
    QString error;
    QVERIFY2(tuning.open(presetJson(kPresets, QStringLiteral("teaching-dgd-vs-tracking.json")), &error), qPrintable(error));
    TuneDialog &dialog = *tuning.dialog;
    QVERIFY(configure(dialog, 1, QStringLiteral("optimality_gap"), 1, 12));
    QVERIFY(tuneAndWait(dialog));
    const auto result = dialog.result();
    QVERIFY(result);
    QCOMPARE(static_cast<int>(result->runs.size()), 2);
    const Json before = tuning.document.toJson();
    const int steps = tuning.document.undoStack()->count();
    QVERIFY2(dialog.applyBest(&error), qPrintable(error));
    QCOMPARE(tuning.document.undoStack()->count(), steps + 1);
    for (const TunedRun &run : result->runs) {
        QVERIFY(run.bestCandidate());
        QCOMPARE(tuning.document.value("/runs/" + std::to_string(run.run) + "/params/stepsize").get<double>(),
                 run.bestCandidate()->value);
    }
    tuning.document.undoStack()->undo();
    QCOMPARE(js(tuning.document.toJson()), js(before));
    QVERIFY(dialog.applyBest(&error)); // again after the undo
    tuning.document.undoStack()->undo();

    // A candidate's curves go to the live plots, its value in the run's name (the hover read-out).
    const TunedRun &dgd = result->runs[0];
    QVERIFY(dialog.showCandidate(0, dgd.best));
    QVERIFY(tuning.results.runLabel(0).contains(QStringLiteral("stepsize = ")));
    QVERIFY(tuning.results.rowCount(0, 0) > 0);
    QCOMPARE(tuning.results.rowCount(0, 1), 0); // the other run is not this candidate's
    const QVector<double> gap = tuning.results.mean(0, 0, QStringLiteral("optimality_gap"));
    QVERIFY(!gap.isEmpty());
    QCOMPARE(gap.last(), dgd.bestCandidate()->stats.mean); // one repetition: its final value
}

void TestTuneDialog::runsThatCannotCalibrateAreNotComparable()
{
    // DGD has no privacy and cannot calibrate a target ε; DPOP can.
    Json doc = presetJson(kPresets, QStringLiteral("paper003-fig1-dpop.json"));
    doc["iterations"] = 60;
    doc["runs"] = Json::array({doc["runs"][1],
                               Json{{"label", "DGD"}, {"algorithm", "dgd"}, {"params", {{"stepsize", 0.05}}}}});
    doc["runs"][0]["params"]["stepsize"] = 0.1;
    StepsizeTuning tuning;
    QString error;
    QVERIFY2(tuning.open(doc, &error), qPrintable(error));
    TuneDialog &dialog = *tuning.dialog;
    QVERIFY(configure(dialog, 0.5, QStringLiteral("distance_to_optimum"), 2, 12));
    dialog.setTargetEpsilon(5.0);
    QVERIFY(tuneAndWait(dialog));
    const auto result = dialog.result();
    QVERIFY(result->runs[0].tuned);
    QVERIFY(!result->runs[1].tuned);
    auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("tunedRuns"));
    QVERIFY(table);
    QCOMPARE(table->rowCount(), 2);
    QVERIFY(table->item(1, 5)->text().startsWith(QStringLiteral("not comparable")));
    // Apply best sets the DPOP step and the target ε, and leaves DGD alone: one step.
    const int steps = tuning.document.undoStack()->count();
    const Json dgd = tuning.document.value("/runs/1");
    QVERIFY2(dialog.applyBest(&error), qPrintable(error));
    QCOMPARE(tuning.document.undoStack()->count(), steps + 1);
    QCOMPARE(js(tuning.document.value("/runs/0/privacy/epsilon")), js(Json(5.0)));
    QCOMPARE(js(tuning.document.value("/runs/0/params/stepsize")), js(Json(result->runs[0].bestCandidate()->value)));
    QCOMPARE(js(tuning.document.value("/runs/1")), js(dgd));
}

void TestTuneDialog::badFieldsNameTheField()
{
    StepsizeTuning tuning;
    QString error;
    QVERIFY2(tuning.open(presetJson(kPresets, QStringLiteral("teaching-dgd-vs-tracking.json")), &error), qPrintable(error));
    TuneDialog &dialog = *tuning.dialog;
    dialog.setRange(1, 0.1); // inverted
    QVERIFY(!dialog.startTuning());
    QVERIFY2(dialog.error().contains(QStringLiteral("Range")), qPrintable(dialog.error()));
    dialog.setRange(0.1, 1);
    // A metric the runs do not record: known once the first candidates ran; the tuning stops
    // with one line naming the field.
    QVERIFY(dialog.setMetric(QStringLiteral("test_accuracy")));
    QVERIFY(!tuneAndWait(dialog));
    QVERIFY2(dialog.error().startsWith(QStringLiteral("Metric: runs[0] (DGD) does not record test_accuracy")),
             qPrintable(dialog.error()));
    QVERIFY(dialog.setMetric(QStringLiteral("optimality_gap")));
    dialog.setTargetEpsilon(-1.0);
    QVERIFY(!dialog.startTuning());
    QVERIFY2(dialog.error().startsWith(QStringLiteral("Target ε")), qPrintable(dialog.error()));
    QVERIFY(!dialog.runner()->isRunning());
}

QTEST_MAIN(TestTuneDialog)
#include "tst_tunedialog.moc"
