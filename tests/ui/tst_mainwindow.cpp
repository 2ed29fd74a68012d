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
#include "runcontroller.h"

#include <QLabel>
#include <QScrollArea>
#include <QSettings>
#include <QTreeWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include "uitest.h"

#include <QTest>
#include <QUndoStack>

using namespace dplab;

namespace {

int nodeItems(GraphScene *scene)
{
    int n = 0;
    for (QGraphicsItem *item : scene->items())
        n += item->type() == NodeItem::Type ? 1 : 0;
    return n;
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void opensDefaultPreset();
    void titleShowsModifiedMarker();
    void everyPresetOpensAndRuns_data();
    void everyPresetOpensAndRuns();
    void stepFromIdlePauses();
    void invalidExperimentDoesNotStart();
    void saveAndReopen();
    void panelFitsItsDock_data();
    void panelFitsItsDock();
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DPLabTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
    QSettings().clear();
    QVERIFY(!PresetLibrary::presets().isEmpty());
}

void TestMainWindow::opensDefaultPreset()
{
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
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
    QTest::addColumn<QString>("preset");
    for (const PresetInfo &p : PresetLibrary::presets())
        QTest::newRow(qPrintable(p.fileName)) << p.resourcePath;
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
    QTest::addColumn<QString>("preset");
    for (const PresetInfo &p : PresetLibrary::presets())
        QTest::newRow(qPrintable(p.fileName)) << p.resourcePath;
}

void TestMainWindow::panelFitsItsDock()
{
    // A screenshot showed the experiment panel clipped on the right: its content must never
    // need more width than the dock gives it.
    QFETCH(QString, preset);
    MainWindow window;
    QVERIFY(window.openPreset(preset));
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
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

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
