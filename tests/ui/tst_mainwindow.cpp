// SPDX-License-Identifier: GPL-3.0-or-later
//
// MainWindow: the default preset opens with its graph drawn and the inspector's verdicts; the
// title shows the file and the modified marker; every compiled-in preset opens without errors
// and runs to completion from the window at reduced iterations with data in the plots; Step
// from idle pauses after one iteration; Stop and Reset end a run.
#include "experimentdocument.h"
#include "experimentpanel.h"
#include "graphdocument.h"
#include "graphscene.h"
#include "inspectorwidget.h"
#include "liveresults.h"
#include "mainwindow.h"
#include "metricplot.h"
#include "nodeitem.h"
#include "plotpanel.h"
#include "presetlibrary.h"
#include "graphview.h"
#include "runactions.h"
#include "runcontroller.h"
#include "runstatuswidget.h"
#include "experimentfiles.h"
#include "helppanel.h"
#include "presentationscale.h"
#include "edgeitem.h"

#include "dplab/common/limits.h"

#include <limits>

#include <QAction>
#include <QApplication>
#include <QDeadlineTimer>
#include <QDragEnterEvent>
#include <QFile>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QTextBrowser>
#include <qcustomplot.h>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QPushButton>
#include <QTimer>
#include <QScrollArea>
#include <QSettings>
#include <QTreeWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include "uitest.h"
#include "windowtest.h"

#include <QTest>
#include <QUndoStack>

#include <sys/stat.h>

using namespace dplab;

namespace {

int nodeItems(GraphScene *scene)
{
    int n = 0;
    for (QGraphicsItem *item : scene->items())
        n += item->type() == NodeItem::Type ? 1 : 0;
    return n;
}

// Runs the default preset to its end in `window`.
bool runToEnd(MainWindow &window)
{
    QSignalSpy finished(window.runController(), &RunController::finished);
    window.document()->setValue("/iterations", 30, QStringLiteral("fewer"));
    window.startRun();
    if (!finished.wait(60000))
        return false;
    window.document()->undoStack()->setClean();
    return window.hasFinishedRun();
}

// How long answerNextMessageBox polls for its box. The box comes from the test's next call (a
// close, a start), within milliseconds; the bound only turns a box that never comes into a failure.
constexpr int AnswerWithinMs = 10000;
// The answer still waiting for its message box (TestMainWindow::cleanup fails a test that ends
// with one).
QPointer<QTimer> pendingAnswer;

// Answers the next modal message box with `button` once it is shown. A box that does not come
// within AnswerWithinMs, or before the test function ends, fails the test with a message saying
// so; a modal dialog of another kind shown meanwhile, which nothing would close, is rejected then,
// so the test fails instead of hanging.
void answerNextMessageBox(QMessageBox::StandardButton button, QString *text = nullptr)
{
    if (pendingAnswer) { // a failure, and this call still answers its own box
        QTest::qFail("answerNextMessageBox: the message box of the previous call was never shown", __FILE__, __LINE__);
        delete pendingAnswer;
    }
    auto *timer = new QTimer;
    pendingAnswer = timer;
    timer->setInterval(20);
    const QDeadlineTimer deadline(AnswerWithinMs);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, button, text, deadline] {
        QWidget *modal = QApplication::activeModalWidget();
        auto *box = qobject_cast<QMessageBox *>(modal);
        if (!box && !deadline.hasExpired())
            return;
        timer->stop();
        timer->deleteLater(); // later: its deletion waits for an outer event loop
        pendingAnswer.clear();
        if (!box) {
            QTest::qFail(qPrintable(QStringLiteral("answerNextMessageBox: no message box within %1 ms%2")
                                        .arg(AnswerWithinMs)
                                        .arg(modal ? QStringLiteral(" (a %1 was shown instead, now rejected)")
                                                         .arg(QString::fromLatin1(modal->metaObject()->className()))
                                                   : QString())),
                         __FILE__, __LINE__);
            if (auto *dialog = qobject_cast<QDialog *>(modal))
                dialog->reject();
            return;
        }
        if (text)
            *text = box->text();
        if (QAbstractButton *b = box->button(button))
            b->click();
        else
            box->reject();
    });
    timer->start();
}

/** The default preset with `iterations` recorded every iteration, unmodified (no save prompt). */
void openDenseRun(MainWindow &window, long long iterations)
{
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    window.document()->setValue("/iterations", iterations, QStringLiteral("long"));
    window.document()->setValue("/record_every", 1, QStringLiteral("dense"));
    window.document()->undoStack()->setClean();
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void opensDefaultPreset();
    void titleShowsModifiedMarker();
    void everyPresetOpensAndRuns_data();
    void everyPresetOpensAndRuns();
    void stepFromIdlePauses();
    void invalidExperimentDoesNotStart();
    void saveAndReopen();
    void panelFitsItsDock_data();
    void panelFitsItsDock();
    void malformedFileKeepsResults();
    void hostileFilesGiveAnErrorNotAnAbort_data();
    void hostileFilesGiveAnErrorNotAnAbort();
    void redoShortcuts();
    void openingAnotherFileClearsOldRun();
    void quittingDuringRunAsks();
    void hugeRecordingAsksFirst();
    void overMemoryLimitAsksFirst();
    void memoryPlanMatchesTheDocumentedLimit();
    void stoppedBeforeStartingIsNotStartedEverywhere();
    void minimumSizeFitsAProjector();
    void graphCanvasAcceptsDroppedFile();
    void f1ShowsRenderedHelp();
    void autosaveAndRecovery();
    void recoveryOfferDialog();
    void presentationSizeScalesTogether();
    void fitsAt1280x720();
    void resetLayoutRestoresDocks();
};

void TestMainWindow::initTestCase()
{
    useFreshTestSettings(QStringLiteral("tst_mainwindow"));
    QVERIFY2(QDir::homePath().startsWith(QDir::tempPath()), qPrintable(QDir::homePath())); // a home of its own
    QVERIFY2(ExperimentFiles::recoveryPath().startsWith(QDir::homePath() + QLatin1Char('/')),
             qPrintable(ExperimentFiles::recoveryPath()));
    QVERIFY2(QSettings().fileName().startsWith(QDir::homePath() + QLatin1Char('/')), qPrintable(QSettings().fileName()));
    QVERIFY(!PresetLibrary::presets().isEmpty());
}

void TestMainWindow::cleanup()
{
    if (pendingAnswer) {
        delete pendingAnswer;
        QFAIL("answerNextMessageBox: the test ended before the message box it announced was shown");
    }
}

void TestMainWindow::opensDefaultPreset()
{
    MainWindow window;
    QVERIFY(openShown(window, MainWindow::defaultPreset(), QSize(1400, 900)));
    QCOMPARE(nodeItems(window.graphScene()), 6);
    QVERIFY(window.windowTitle().contains(QStringLiteral("Push-Pull")));
    QVERIFY(!window.isWindowModified());
    QTRY_VERIFY(window.inspector()->text().contains(QStringLiteral("strongly connected")));
    QVERIFY(window.inspector()->text().contains(QStringLiteral("left Perron vector")));
    QCOMPARE(window.experimentPanel()->runList()->topLevelItemCount(), 2);
    QVERIFY(window.experimentPanel()->validationMessage().contains(QStringLiteral("Ready")));
}

void TestMainWindow::titleShowsModifiedMarker()
{
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    QVERIFY(!window.isWindowModified());
    window.document()->graphDocument()->addNode({0, 0});
    QVERIFY(window.isWindowModified());
    QVERIFY(window.windowTitle().contains(QStringLiteral("[*]")));
    window.document()->undoStack()->undo();
    QVERIFY(!window.isWindowModified());
}

void TestMainWindow::everyPresetOpensAndRuns_data()
{
    addPresetRows();
}

void TestMainWindow::everyPresetOpensAndRuns()
{
    QFETCH(QString, preset);
    MainWindow window;
    QVERIFY(window.openPreset(preset));
    ExperimentDocument *doc = window.document();
    // Large data sets (Fashion-MNIST) reduced first: every validation builds the problem.
    const Json problem = doc->value("/problem");
    if (problem.contains("data") && problem.at("data").contains("max_samples"))
        doc->setValue("/problem/data/max_samples", std::min(problem.at("data").at("max_samples").get<long long>(), 1000LL),
                      QStringLiteral("fewer"));
    if (problem.contains("reference_iterations"))
        doc->setValue("/problem/reference_iterations", std::min(problem.at("reference_iterations").get<int>(), 5),
                      QStringLiteral("fewer"));
    const auto valid = doc->validate();
    QVERIFY2(valid.ok(), valid.ok() ? "" : valid.error().toString().c_str());
    // Reduced: at most 20 iterations and 2 repetitions (and the first two sweep values).
    const long long iterations = doc->value("/iterations").get<long long>();
    doc->setValue("/iterations", std::min<long long>(iterations, 20), QStringLiteral("fewer"));
    doc->setValue("/repetitions", std::min(doc->value("/repetitions").get<int>(), 2), QStringLiteral("fewer"));
    doc->setValue("/record_every", 1, QStringLiteral("every"));
    const Json sweep = doc->value("/sweep");
    if (sweep.is_object() && sweep.at("values").size() > 2) {
        Json values = Json::array({sweep.at("values")[0], sweep.at("values")[1]});
        doc->setValue("/sweep/values", values, QStringLiteral("fewer"));
    }
    QSignalSpy finished(window.runController(), &RunController::finished);
    QSignalSpy failed(window.runController(), &RunController::failed);
    window.startRun();
    QVERIFY2(window.lastRunError().isEmpty(), qPrintable(window.lastRunError()));
    QVERIFY(finished.wait(120000));
    QCOMPARE(failed.count(), 0);
    const auto result = finished.first().first().value<std::shared_ptr<const ExperimentResult>>();
    QVERIFY(!result->cancelled);
    for (int r = 0; r < window.liveResults()->runCount(); ++r) {
        QVERIFY(window.liveResults()->rowCount(0, r) > 0);
        QVERIFY(window.plotPanel()->plot(PlotPanel::Consensus)->pointCount(r) > 0);
    }
    QVERIFY(window.runStatusText().startsWith(QStringLiteral("finished")));
    doc->undoStack()->setClean(); // no save prompt when the window goes
}

void TestMainWindow::stepFromIdlePauses()
{
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    window.stepRun();
    QCOMPARE(window.runController()->state(), RunController::State::Paused);
    QTRY_COMPARE_WITH_TIMEOUT(window.liveResults()->rowCount(0, 0), 2, 30000);
    QCOMPARE(window.liveResults()->latestIteration(), qint64(1));
    window.stepRun();
    QTRY_COMPARE_WITH_TIMEOUT(window.liveResults()->latestIteration(), qint64(2), 30000);
    QSignalSpy finished(window.runController(), &RunController::finished);
    window.stopRun();
    QVERIFY(finished.wait(5000));
    QVERIFY(window.runStatusText().contains(QStringLiteral("stopped")));
    window.resetRun();
    QCOMPARE(window.liveResults()->runCount(), 0);
}

void TestMainWindow::invalidExperimentDoesNotStart()
{
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    // Cut node 5 off: the digraph is no longer strongly connected.
    window.document()->graphDocument()->deleteElements({}, {Edge{4, 5}, Edge{5, 0}});
    window.startRun();
    QVERIFY(!window.runController()->isActive());
    QVERIFY2(window.lastRunError().contains(QStringLiteral("graph")), qPrintable(window.lastRunError()));
    window.document()->undoStack()->setClean();
}

void TestMainWindow::saveAndReopen()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    window.document()->setValue("/name", std::string("Mine"), QStringLiteral("rename"));
    QString error;
    QVERIFY(window.document()->save(path, &error));
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("mine.json")));
    QVERIFY(!window.isWindowModified());
    MainWindow other;
    QVERIFY(other.loadFile(path, &error));
    QCOMPARE(js(other.document()->toJson()), js(window.document()->toJson()));
}

void TestMainWindow::panelFitsItsDock_data()
{
    addPresetRows();
}

void TestMainWindow::panelFitsItsDock()
{
    // A screenshot showed the experiment panel clipped on the right: its content must never
    // need more width than the dock gives it.
    QFETCH(QString, preset);
    MainWindow window;
    QVERIFY(openShown(window, preset, QSize(1400, 900)));
    auto *area = window.experimentPanel()->findChild<QScrollArea *>();
    QVERIFY(area);
    for (int run = 0; run < window.document()->runCount(); ++run) {
        window.experimentPanel()->setCurrentRun(run);
        const int needed = area->widget()->minimumSizeHint().width();
        // Name the widest visible widget, which is almost always the culprit.
        QString widest;
        int widestWidth = 0;
        for (QWidget *w : area->widget()->findChildren<QWidget *>()) {
            if (w->isVisibleTo(area) && w->minimumSizeHint().width() > widestWidth && !w->findChild<QWidget *>()) {
                widestWidth = w->minimumSizeHint().width();
                widest = QString::fromLatin1(w->metaObject()->className()) + QLatin1Char(' ') + w->objectName();
                if (auto *label = qobject_cast<QLabel *>(w))
                    widest += QStringLiteral(" \"%1\"").arg(label->text().left(60));
            }
        }
        QVERIFY2(needed <= area->viewport()->width(),
                 qPrintable(QStringLiteral("run %1 needs %2 px, the dock gives %3; widest: %4 (%5 px)")
                                .arg(run)
                                .arg(needed)
                                .arg(area->viewport()->width())
                                .arg(widest)
                                .arg(widestWidth)));
    }
}

void TestMainWindow::malformedFileKeepsResults()
{
    // Opening a malformed file kept the current experiment but cleared its finished results.
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    QVERIFY(runToEnd(window));
    const int runs = window.liveResults()->runCount();
    QVERIFY(runs > 0);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{ \"format\": \"dplab-experiment\", ");
    file.close();
    QString error;
    QVERIFY(!window.loadFile(path, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(window.hasFinishedRun());
    QCOMPARE(window.liveResults()->runCount(), runs);
}

void TestMainWindow::hostileFilesGiveAnErrorNotAnAbort_data()
{
    // The hostile inputs of the reliability review, opened from the window: each is refused
    // with the CLI's message (the file does not load) or loads and is refused by validation,
    // naming the field; none aborts, hangs or allocates what the machine does not have.
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    QTest::newRow("nested problem") << QStringLiteral("deep-problem.json") << QStringLiteral("problem[0][0]");
    QTest::newRow("nested weights") << QStringLiteral("deep-weights.json") << QStringLiteral("weights.a.a");
    QTest::newRow("nested sweep value") << QStringLiteral("deep-sweep.json") << QStringLiteral("sweep.values[0][0]");
    QTest::newRow("number overflow") << QStringLiteral("overflow.json") << QStringLiteral("problem.mu: number outside the range");
    QTest::newRow("device") << QStringLiteral("/dev/zero") << QStringLiteral("is a device");
    QTest::newRow("fifo") << QStringLiteral("fifo.json") << QStringLiteral("FIFO");
    QTest::newRow("folder") << QStringLiteral("folder.json") << QStringLiteral("is a folder");
    QTest::newRow("huge sweep") << QStringLiteral("sweep.json") << QStringLiteral("at most 10000");
    QTest::newRow("huge explicit graph") << QStringLiteral("graph.json") << QStringLiteral("not connected");
    QTest::newRow("IDX header beyond its file") << QStringLiteral("idx.json") << QStringLiteral("the header declares");
    // A key given twice: the file is refused with the CLI's line, naming the second occurrence.
    QTest::newRow("duplicate key, top level") << QStringLiteral("dup-top.json") << QStringLiteral("dup-top.json: iterations: duplicate key");
    QTest::newRow("duplicate key in a run") << QStringLiteral("dup-run.json") << QStringLiteral("dup-run.json: runs[0].algorithm: duplicate key");
    QTest::newRow("duplicate key in the graph") << QStringLiteral("dup-graph.json") << QStringLiteral("dup-graph.json: graph.generator.nodes: duplicate key");
    // A target ε of 0 loads (it is a document) and is refused by validation, saying what to write.
    QTest::newRow("target epsilon 0") << QStringLiteral("eps0.json") << QStringLiteral("runs[0].privacy.epsilon: must be in (0, 1e+12], got 0; to leave it unset, delete \"epsilon\"");
}

void TestMainWindow::hostileFilesGiveAnErrorNotAnAbort()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const auto write = [&dir](const QString &file, const QByteArray &bytes) {
        QFile f(dir.filePath(file));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    };
    const int depth = 50000;
    const QByteArray base = R"({"graph": {"generator": {"type": "ring", "nodes": 4}}, "problem": {"type": "quadratic", "dimension": 2}, "runs": [{"algorithm": "dgd"}], "iterations": 10)";
    write(QStringLiteral("deep-problem.json"), R"({"graph": {"generator": {"type": "ring", "nodes": 4}}, "problem": )"
                                                 + QByteArray(depth, '[') + QByteArray(depth, ']') + "}");
    write(QStringLiteral("deep-weights.json"), base + R"(, "weights": )" + QByteArray("{\"a\":").repeated(depth) + "1"
                                                 + QByteArray(depth, '}') + "}");
    write(QStringLiteral("deep-sweep.json"), base + R"(, "sweep": {"parameter": "iterations", "values": [)"
                                               + QByteArray(depth, '[') + QByteArray(depth, ']') + "]}}");
    QByteArray overflow = base;
    overflow.replace(R"("dimension": 2)", R"("dimension": 2, "mu": 1e400)");
    write(QStringLiteral("overflow.json"), overflow + "}");
    write(QStringLiteral("sweep.json"), base + R"(, "sweep": {"parameter": "iterations", "values": [)"
                                          + QByteArray("5,").repeated(1000000) + "5]}}");
    write(QStringLiteral("graph.json"), R"({"graph": {"nodes": 100000, "edges": [[0,1]]}, "problem": {"type": "quadratic", "dimension": 2}, "runs": [{"algorithm": "dgd"}]})");
    // 60000 images of 28 × 28 declared in a 16-byte file.
    write(QStringLiteral("images.idx"), QByteArray::fromHex("00000803 0000ea60 0000001c 0000001c"));
    write(QStringLiteral("labels.idx"), QByteArray::fromHex("00000801 0000ea60"));
    write(QStringLiteral("idx.json"), R"({"graph": {"generator": {"type": "ring", "nodes": 4}}, "problem": {"type": "online-softmax", "data": {"source": "idx", "images": "images.idx", "labels": "labels.idx"}}, "runs": [{"algorithm": "dgd"}], "iterations": 10})");
    write(QStringLiteral("dup-top.json"), base + R"(, "iterations": 5})");
    write(QStringLiteral("dup-run.json"), R"({"graph": {"generator": {"type": "ring", "nodes": 4}}, "problem": {"type": "quadratic", "dimension": 2}, "runs": [{"algorithm": "dgd", "algorithm": "gradient-tracking"}]})");
    write(QStringLiteral("dup-graph.json"), R"({"graph": {"generator": {"type": "ring", "nodes": 4, "nodes": 6}}, "problem": {"type": "quadratic", "dimension": 2}, "runs": [{"algorithm": "dgd"}]})");
    write(QStringLiteral("eps0.json"), R"({"graph": {"generator": {"type": "ring", "nodes": 4}}, "problem": {"type": "quadratic", "dimension": 2}, "runs": [{"algorithm": "robust-dp-gt", "privacy": {"noise_s": 0.1, "noise_x": 0.1, "gradient_bound": 1, "epsilon": 0}}], "iterations": 10})");
    QVERIFY(::mkfifo(QFile::encodeName(dir.filePath(QStringLiteral("fifo.json"))).constData(), 0600) == 0);
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.json")));

    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    const QString path = name.startsWith(QLatin1Char('/')) ? name : dir.filePath(name);
    QString error;
    if (window.loadFile(path, &error)) {
        // Loaded as a document: validation names the problem and Run refuses it.
        QTRY_VERIFY2(window.experimentPanel()->validationMessage().contains(expected),
                     qPrintable(window.experimentPanel()->validationMessage()));
        window.startRun();
        QVERIFY(!window.runController()->isActive());
        QVERIFY2(window.lastRunError().contains(expected), qPrintable(window.lastRunError()));
        window.document()->undoStack()->setClean();
    } else {
        QVERIFY2(error.contains(expected), qPrintable(error));
        // The window keeps the experiment it had.
        QCOMPARE(window.experimentPanel()->runList()->topLevelItemCount(), 2);
    }
}

void TestMainWindow::redoShortcuts()
{
    // Ctrl+Shift+Z reported an ambiguous shortcut and Ctrl+Y did nothing.
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    // Each key once on the action (a key twice is an ambiguous shortcut that does nothing).
    QAction *redoAction = nullptr;
    for (QAction *a : window.findChildren<QAction *>())
        if (a->text().contains(QStringLiteral("Redo")) && a->objectName() != QLatin1String("RedoButton"))
            redoAction = a; // the stack's action (the toolbar's fixed "Redo" button triggers it)
    QVERIFY(redoAction);
    const QList<QKeySequence> keys = redoAction->shortcuts();
    for (int i = 0; i < keys.size(); ++i)
        QVERIFY2(keys.indexOf(keys[i]) == i, qPrintable(keys[i].toString()));
    QVERIFY(keys.contains(QKeySequence(Qt::CTRL | Qt::Key_Y)));
    QVERIFY(keys.contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
    QUndoStack *stack = window.document()->undoStack();
    for (const QKeySequence &redo : {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)}) {
        window.document()->setValue("/iterations", 123, QStringLiteral("edit"));
        window.document()->setValue("/seed", 77, QStringLiteral("edit seed")); // not merged with the next
        stack->undo();
        QCOMPARE(stack->canRedo(), true);
        const int index = stack->index();
        QTest::keySequence(&window, redo);
        QVERIFY2(stack->index() == index + 1, qPrintable(redo.toString()));
    }
    stack->setClean();
}

void TestMainWindow::openingAnotherFileClearsOldRun()
{
    // After opening another file the plot axes, the ε subtitle and the status bar still showed
    // the old run.
    MainWindow window;
    QVERIFY(window.openPreset(QStringLiteral(":/presets/paper003-fig1-dpop.json"))); // runs with accountants
    QVERIFY(runToEnd(window));
    MetricPlot *epsilon = window.plotPanel()->plot(PlotPanel::Epsilon);
    QVERIFY(!epsilon->subtitle().isEmpty());
    QVERIFY(window.runStatus()->iterationText() != QStringLiteral("iteration 0"));
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    QVERIFY(epsilon->subtitle().isEmpty());
    // Nothing of the old run: no run read-out at all until the next run (not "iteration 0").
    QCOMPARE(window.runStatus()->iterationText(), QString());
    QCOMPARE(window.runStatus()->epsilonText(), QString());
    QCOMPARE(window.runStatusText(), QStringLiteral("idle"));
    QVERIFY(!window.hasFinishedRun());
    QCOMPARE(epsilon->pointCount(0), 0);
}

void TestMainWindow::quittingDuringRunAsks()
{
    // Quitting during a run exited without asking.
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    window.document()->setValue("/iterations", 50000000, QStringLiteral("long"));
    window.document()->setValue("/record_every", 100000, QStringLiteral("sparse"));
    window.document()->undoStack()->setClean();
    window.show();
    window.startRun();
    QVERIFY(window.runController()->isActive());
    QString asked;
    answerNextMessageBox(QMessageBox::No, &asked);
    QVERIFY(!window.close());
    QVERIFY(asked.contains(QStringLiteral("run")));
    QVERIFY(window.runController()->isActive());
    answerNextMessageBox(QMessageBox::Yes);
    QVERIFY(window.close());
    QTRY_VERIFY_WITH_TIMEOUT(!window.runController()->isActive(), 10000);
}

void TestMainWindow::hugeRecordingAsksFirst()
{
    // 3 000 000 iterations recorded every iteration grew to 2.9 GB with no warning.
    MainWindow window;
    openDenseRun(window, 3000000);
    QString asked;
    answerNextMessageBox(QMessageBox::Cancel, &asked);
    window.startRun();
    QVERIFY(!window.runController()->isActive());
    QVERIFY2(asked.contains(QStringLiteral("GiB")) || asked.contains(QStringLiteral("MiB")), qPrintable(asked));
    // Accepting the proposed recording interval starts a run with fewer recorded points.
    answerNextMessageBox(QMessageBox::Apply);
    window.startRun();
    QVERIFY(window.runController()->isActive());
    QVERIFY(window.document()->value("/record_every").get<long long>() > 1);
    window.stopRun();
    QTRY_VERIFY_WITH_TIMEOUT(!window.runController()->isActive(), 10000);
    window.document()->undoStack()->setClean();
}

void TestMainWindow::graphCanvasAcceptsDroppedFile()
{
    // The graph canvas refused a dropped experiment file (other widgets accepted it).
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("dropped.json"));
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    QString error;
    window.document()->setValue("/name", std::string("Dropped"), QStringLiteral("rename"));
    QVERIFY(window.document()->save(path, &error));
    QVERIFY(openShown(window, MainWindow::defaultPreset(), QSize(1200, 800)));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QWidget *canvas = window.graphView()->viewport();
    const QPoint centre = canvas->rect().center();
    QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(canvas, &enter);
    QVERIFY(enter.isAccepted());
    QDragMoveEvent move(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(canvas, &move);
    QVERIFY(move.isAccepted());
    QDropEvent drop(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(canvas, &drop);
    QVERIFY(drop.isAccepted());
    QTRY_COMPARE(window.document()->value("/name").get<std::string>(), std::string("Dropped"));
}

void TestMainWindow::f1ShowsRenderedHelp()
{
    // F1 did nothing, and the algorithm explanations showed raw LaTeX (H^{k+1}).
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    window.resize(1400, 900);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QVERIFY(!window.helpDock()->isVisible() || window.helpDock()->visibleRegion().isEmpty());
    QTest::keyClick(&window, Qt::Key_F1);
    QTRY_VERIFY(window.helpDock()->isVisible() && !window.helpDock()->visibleRegion().isEmpty());
    const QString html = window.helpPanel()->html();
    QVERIFY(html.contains(QStringLiteral("Push-Pull")));
    QVERIFY2(!html.contains(QStringLiteral("^{")) && !html.contains(QStringLiteral("_{")), qPrintable(html));
    // Every algorithm's help renders its formulas.
    for (const AlgorithmDescriptor &a : algorithmRegistry()) {
        if (a.graphKind == GraphKind::Undirected || a.needsOnline)
            continue;
        window.document()->setRunAlgorithm(0, a.id);
        const QString text = window.helpPanel()->html();
        QVERIFY2(!text.contains(QStringLiteral("^{")) && !text.contains(QStringLiteral("\\frac")), a.id.c_str());
    }
    window.document()->undoStack()->setClean();
}

void TestMainWindow::autosaveAndRecovery()
{
    // Issue 16 item 8: the open experiment is autosaved and offered after a crash.
    ExperimentFiles::discardRecovery();
    auto *crashed = new MainWindow;
    QVERIFY(crashed->openPreset(MainWindow::defaultPreset()));
    crashed->document()->setValue("/name", std::string("Lost work"), QStringLiteral("rename"));
    QVERIFY(crashed->files()->autosave());
    QVERIFY(ExperimentFiles::hasRecovery());
    delete crashed; // no close: as after a crash
    QVERIFY(ExperimentFiles::hasRecovery());
    MainWindow window;
    QString error;
    QVERIFY2(window.files()->restoreRecovery(&error), qPrintable(error));
    QCOMPARE(window.document()->value("/name").get<std::string>(), std::string("Lost work"));
    QVERIFY(window.document()->isModified());
    QVERIFY(ExperimentFiles::hasRecovery());
    window.document()->undoStack()->setClean();
    window.show();
    QVERIFY(window.close());
    QVERIFY(!ExperimentFiles::hasRecovery()); // a clean exit removes it
}

void TestMainWindow::recoveryOfferDialog()
{
    // The start-up question after a crash (ExperimentFiles::offerRecovery), in main()'s order:
    // asked before anything is opened, answered as a user would. No discards the autosave and
    // the default preset opens, Yes restores it, and a damaged autosave is reported.
    auto crash = [](const std::string &name) {
        ExperimentFiles::discardRecovery();
        auto *crashed = new MainWindow;
        QVERIFY(crashed->openPreset(MainWindow::defaultPreset()));
        crashed->document()->setValue("/name", name, QStringLiteral("rename"));
        QVERIFY(crashed->files()->autosave());
        delete crashed; // no close: as after a crash
        QVERIFY(ExperimentFiles::hasRecovery());
    };

    // No: the autosave is gone (not offered again) and the window opens what it would have.
    crash("Declined work");
    {
        MainWindow window;
        QString asked;
        answerNextMessageBox(QMessageBox::No, &asked);
        QVERIFY(!window.files()->offerRecovery());
        QVERIFY2(asked.contains(QStringLiteral("“Declined work”")) && asked.contains(QStringLiteral("did not close normally")),
                 qPrintable(QStringLiteral("asked: ") + asked));
        QVERIFY(!ExperimentFiles::hasRecovery());
        QVERIFY(!window.files()->offerRecovery()); // nothing left to offer: no dialog
        QVERIFY(window.openPreset(MainWindow::defaultPreset()));
        QVERIFY(window.document()->value("/name").get<std::string>() != "Declined work");
    }

    // Yes: the unsaved experiment comes back, still unsaved and still recoverable; a clean exit
    // removes the autosave.
    crash("Recovered work");
    {
        MainWindow window;
        QString asked;
        answerNextMessageBox(QMessageBox::Yes, &asked);
        QVERIFY(window.files()->offerRecovery());
        QVERIFY2(asked.contains(QStringLiteral("“Recovered work”")), qPrintable(QStringLiteral("asked: ") + asked));
        QCOMPARE(window.document()->value("/name").get<std::string>(), std::string("Recovered work"));
        QVERIFY(window.document()->isModified());
        QVERIFY(ExperimentFiles::hasRecovery());
        window.document()->undoStack()->setClean();
        window.show();
        QVERIFY(window.close());
        QVERIFY(!ExperimentFiles::hasRecovery());
    }

    // A damaged autosave (cut in half by the crash): still offered; Yes gives a warning that says
    // it could not be restored, and the window goes on to open the default preset.
    crash("Damaged work");
    {
        QFile file(ExperimentFiles::recoveryPath());
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.resize(file.size() / 2));
        file.close();
        MainWindow window;
        QString asked;
        answerNextMessageBox(QMessageBox::Yes, &asked);
        QVERIFY(!window.files()->offerRecovery());
        QVERIFY2(asked.contains(QStringLiteral("an experiment")), qPrintable(QStringLiteral("asked: ") + asked));
        bool warned = false;
        for (QMessageBox *box : window.findChildren<QMessageBox *>())
            warned = warned || box->text().contains(QStringLiteral("Could not restore"));
        QVERIFY(warned);
        QVERIFY(window.openPreset(MainWindow::defaultPreset()));
        QVERIFY(!ExperimentFiles::hasRecovery()); // the new document replaced it
    }
}

void TestMainWindow::presentationSizeScalesTogether()
{
    // View ▸ Presentation Size scales fonts, node labels, plot ticks and line widths together.
    MainWindow window;
    QVERIFY(openShown(window, MainWindow::defaultPreset(), QSize(1400, 900)));
    const double font = QApplication::font().pointSizeF();
    MetricPlot *plot = window.plotPanel()->plot(PlotPanel::Consensus);
    plot->replot();
    const double tick = plot->xAxis->tickLabelFont().pointSizeF();
    const qreal nodes = window.graphScene()->nodeScale();
    window.setPresentationScale(1.5);
    plot->replot();
    QCOMPARE(PresentationScale::factor(), 1.5);
    QVERIFY(qAbs(QApplication::font().pointSizeF() - 1.5 * font) < 0.05);
    QVERIFY(qAbs(plot->xAxis->tickLabelFont().pointSizeF() - 1.5 * tick) < 0.1);
    QVERIFY(window.graphScene()->nodeScale() > nodes);
    QCOMPARE(QSettings().value(QStringLiteral("view/presentationScale")).toDouble(), 1.5);
    window.setPresentationScale(1.0);
    QVERIFY(qAbs(QApplication::font().pointSizeF() - font) < 0.05);
}

void TestMainWindow::overMemoryLimitAsksFirst()
{
    // Over the memory limit the window offered "Run anyway" only; the CLI has --max-memory and
    // recording less often. The window now offers both, with the limit named as the README does.
    struct RestoreLimit {
        ~RestoreLimit() { ResourceLimits::setDefaultMemoryLimit(0); }
    } restore;
    ResourceLimits::setDefaultMemoryLimit(1 << 20);
    MainWindow window;
    openDenseRun(window, 20000);
    QString asked;
    answerNextMessageBox(QMessageBox::Cancel, &asked);
    window.startRun();
    QVERIFY(!window.runController()->isActive());
    QVERIFY2(asked.contains(QStringLiteral("more than the limit of 1 MiB (min(8 GiB, ¾ of this machine's")), qPrintable(asked));
    QVERIFY2(asked.contains(QStringLiteral("record every")), qPrintable(asked));
    QVERIFY2(asked.contains(QStringLiteral("raise the limit to")) && asked.contains(QStringLiteral("--max-memory")),
             qPrintable(asked));
    QVERIFY2(!asked.contains(QStringLiteral("anyway")), qPrintable(asked));
    QVERIFY2(window.lastRunError().startsWith(QStringLiteral("Cancelled")), qPrintable(window.lastRunError()));
    // "Raise the limit" runs the document as it is, for this run only.
    answerNextMessageBox(QMessageBox::Yes);
    window.startRun();
    QVERIFY(window.runController()->isActive());
    QCOMPARE(window.document()->value("/record_every").get<long long>(), 1LL);
    QCOMPARE(ResourceLimits::defaultMemoryLimit(), std::uint64_t(1 << 20));
    window.stopRun();
    QTRY_VERIFY_WITH_TIMEOUT(!window.runController()->isActive(), 10000);
    // "Record every N" records less often, and the run then fits under the limit.
    answerNextMessageBox(QMessageBox::Apply, &asked);
    window.startRun();
    QVERIFY(window.runController()->isActive());
    const long long every = window.document()->value("/record_every").get<long long>();
    QVERIFY(every > 1);
    QVERIFY2(asked.contains(QStringLiteral("record every %1 iterations").arg(every)), qPrintable(asked));
    const auto fitted = RunActions::resolveWithoutLimit(*window.document());
    QVERIFY(fitted.ok());
    QVERIFY(fitted->resources.totalBytes() <= double(1 << 20));
    window.stopRun();
    QTRY_VERIFY_WITH_TIMEOUT(!window.runController()->isActive(), 10000);
    // 99 999 999 iterations recorded every iteration: past the machine's memory only recording
    // less often is offered (it used to say "raise the limit with --max-memory", which the window
    // did not have).
    ResourceLimits::setDefaultMemoryLimit(0);
    window.document()->setValue("/iterations", 99999999LL, QStringLiteral("longer"));
    window.document()->setValue("/record_every", 1LL, QStringLiteral("dense"));
    const auto huge = RunActions::resolveWithoutLimit(*window.document());
    QVERIFY(huge.ok());
    const bool pastMachine = huge->resources.totalBytes() > double(ResourceLimits::physicalMemory());
    answerNextMessageBox(QMessageBox::Apply, &asked);
    window.startRun();
    QVERIFY2(window.runController()->isActive(), qPrintable(window.lastRunError()));
    QVERIFY(window.document()->value("/record_every").get<long long>() > 1);
    QVERIFY2(asked.contains(QStringLiteral("record every")), qPrintable(asked));
    if (pastMachine) {
        QVERIFY2(asked.contains(QStringLiteral("this machine's memory")), qPrintable(asked));
        QVERIFY2(!asked.contains(QStringLiteral("raise the limit")), qPrintable(asked));
    }
    window.stopRun();
    QTRY_VERIFY_WITH_TIMEOUT(!window.runController()->isActive(), 10000);
    // (When nothing helps — the fixed part alone past the machine — there is no offer and Run
    // fails with a plain error: memoryPlanMatchesTheDocumentedLimit checks the plan.)
    window.document()->undoStack()->setClean();
}

void TestMainWindow::memoryPlanMatchesTheDocumentedLimit()
{
    // The dialog's numbers: the limit is min(8 GiB, ¾ of the RAM) (README), the proposed
    // interval brings the estimate under it, and the raised limit covers the estimate.
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    ExperimentDocument &doc = *window.document();
    doc.setValue("/iterations", 5000000LL, QStringLiteral("long"));
    doc.setValue("/record_every", 1LL, QStringLiteral("dense"));
    const auto e = RunActions::resolveWithoutLimit(doc);
    QVERIFY(e.ok());
    const double physical = double(ResourceLimits::physicalMemory());
    QCOMPARE(double(ResourceLimits{}.memoryLimit()), std::min(8.0 * (1ull << 30), double(ResourceLimits::physicalMemory() / 4 * 3)));
    const double limit = e->resources.totalBytes() / 3;
    const RunActions::MemoryPlan plan = RunActions::planMemory(*e, limit, physical);
    QVERIFY(plan.overLimit);
    QVERIFY(plan.recordEvery > 1);
    QVERIFY(plan.raiseTo >= plan.needed && plan.raiseTo <= physical);
    doc.setValue("/record_every", plan.recordEvery, QStringLiteral("coarser"));
    const auto coarser = RunActions::resolveWithoutLimit(doc);
    QVERIFY(coarser.ok());
    QVERIFY(coarser->resources.totalBytes() <= limit);
    QVERIFY(!RunActions::planMemory(*coarser, limit, physical).overLimit);
    // Nothing to offer past the machine when the fixed part alone is too large.
    const RunActions::MemoryPlan tiny = RunActions::planMemory(*e, 1.0, 1.0);
    QCOMPARE(tiny.recordEvery, 0LL);
    QCOMPARE(tiny.raiseTo, 0.0);
    doc.undoStack()->setClean();
}

void TestMainWindow::stoppedBeforeStartingIsNotStartedEverywhere()
{
    // After Stop, a run that never started was "waiting" in the runs list and "cancelled" in
    // the legend.
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    window.document()->setValue("/iterations", 50000000LL, QStringLiteral("long"));
    window.document()->setValue("/repetitions", 1, QStringLiteral("one"));
    window.document()->setValue("/record_every", Json(), QStringLiteral("auto"));
    window.document()->undoStack()->setClean();
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.runController()->setThreads(1); // run 2 waits for run 1
    QSignalSpy statuses(window.runActions(), &RunActions::runStatusesChanged);
    window.startRun();
    QVERIFY(window.runController()->isActive());
    QTRY_VERIFY_WITH_TIMEOUT(window.liveResults()->runState(0, 0) == LiveResults::RunState::Running, 20000);
    QCOMPARE(window.liveResults()->runState(0, 1), LiveResults::RunState::Waiting);
    window.stopRun();
    QTRY_VERIFY_WITH_TIMEOUT(!window.runController()->isActive(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!statuses.isEmpty(), 5000);
    const QStringList last = statuses.last().at(0).toStringList();
    QCOMPARE(last.size(), 2);
    QVERIFY2(last[0].startsWith(QStringLiteral("cancelled")), qPrintable(last[0]));
    QCOMPARE(last[1], QStringLiteral("not started"));
    // The legend says the same.
    MetricPlot *plot = window.plotPanel()->plot(0);
    plot->resize(1200, plot->height()); // room for the whole legend entry
    QCoreApplication::processEvents();
    window.plotPanel()->showOutcome(*window.runController()->lastResult());
    bool named = false;
    for (int g = 0; g < plot->graphCount(); ++g) {
        const QString name = plot->graph(g)->name();
        if (!name.contains(QStringLiteral("noise")) || !name.contains(QStringLiteral("DP")))
            continue;
        named = true;
        QVERIFY2(name.contains(QStringLiteral("not started")) && !name.contains(QStringLiteral("cancelled")),
                 qPrintable(name));
    }
    QVERIFY(named);
}

void TestMainWindow::minimumSizeFitsAProjector()
{
    // The window's minimum size was 917×760 (1280×720 screen: the status bar fell off the
    // bottom) and, at presentation size 150 % with a sweep, wider than 1600 px (a combo box
    // sized to the sweep value `graph.generator = {…}`), which squeezed the experiment panel.
    for (double factor : {1.0, 1.5}) {
        QSettings().remove(QStringLiteral("mainWindow"));
        MainWindow window;
        QVERIFY(window.openPreset(QStringLiteral(":/presets/paper002-teaching-gossip.json")));
        window.setPresentationScale(factor, false);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.startRun(); // the sweep value choice appears with the results
        QTRY_VERIFY_WITH_TIMEOUT(!window.runController()->isActive(), 60000);
        window.resetLayout();
        QCoreApplication::processEvents();
        const QSize need = window.minimumSizeHint();
        QVERIFY2(need.width() <= 1280 && need.height() <= 720,
                 qPrintable(QStringLiteral("factor %1: minimum %2×%3").arg(factor).arg(need.width()).arg(need.height())));
        window.setPresentationScale(1.0, false);
        window.document()->undoStack()->setClean();
    }
}

void TestMainWindow::fitsAt1280x720()
{
    // At 1280×720 the experiment panel was cut off and the inspector wrapped words.
    QSettings().remove(QStringLiteral("mainWindow"));
    MainWindow window;
    QVERIFY(openShown(window, MainWindow::defaultPreset(), QSize(1280, 720)));
    window.resetLayout();
    QCoreApplication::processEvents();
    auto *area = window.experimentPanel()->scrollArea();
    QVERIFY2(area->widget()->minimumSizeHint().width() <= area->viewport()->width(),
             qPrintable(QStringLiteral("%1 > %2").arg(area->widget()->minimumSizeHint().width()).arg(area->viewport()->width())));
    for (QTextBrowser *browser : window.findChildren<QTextBrowser *>())
        QCOMPARE(browser->wordWrapMode(), QTextOption::WordWrap);
    QVERIFY(window.graphView()->width() >= 300 && window.graphView()->height() >= 200);
    QVERIFY(window.plotPanel()->height() >= 200);
}

void TestMainWindow::resetLayoutRestoresDocks()
{
    MainWindow window;
    QVERIFY(openShown(window, MainWindow::defaultPreset(), QSize(1400, 900)));
    auto *panel = window.findChild<QDockWidget *>(QStringLiteral("ExperimentDock"));
    auto *results = window.findChild<QDockWidget *>(QStringLiteral("PlotDock"));
    QVERIFY(panel && results);
    panel->hide();
    window.resizeDocks({results}, {60}, Qt::Vertical);
    window.resetLayout();
    QCoreApplication::processEvents();
    QVERIFY(panel->isVisible());
    QVERIFY(panel->width() >= window.experimentPanel()->minimumSizeHint().width());
    QVERIFY(results->height() >= 300);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
