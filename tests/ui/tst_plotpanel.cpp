// SPDX-License-Identifier: GPL-3.0-or-later
//
// PlotPanel: Export All Plots names every file it writes (it asked for one file name and
// silently wrote four).
#include "liveresults.h"
#include "metricplot.h"
#include "plotpanel.h"
#include "presettest.h"

#include "dplab/engine/experiment.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace dplab;

class TestPlotPanel : public QObject
{
    Q_OBJECT

private slots:
    void exportAllPlotsListsItsFiles();
};

void TestPlotPanel::exportAllPlotsListsItsFiles()
{
    const auto experiment = defaultPresetExperiment();
    QVERIFY(experiment);
    LiveResults live;
    live.reset(*experiment);
    live.addBatches({metricBatch(QStringLiteral("consensus_error"), 0, 11, [](int k) { return 1.0 / (1 + k); })});
    QString error;
    PlotPanel panel(&live);
    panel.resize(900, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lecture.png"));
    const QStringList expected = panel.exportFileNames(path);
    QCOMPARE(expected.size(), int(PlotPanel::PlotCount));
    QStringList written;
    QVERIFY2(panel.exportPlotsTo(path, 96, &error, &written), qPrintable(error));
    QCOMPARE(written, expected);
    for (int p = 0; p < PlotPanel::PlotCount; ++p) {
        QVERIFY(QFileInfo::exists(written[p]));
        QVERIFY(QFileInfo(written[p]).fileName().contains(panel.plot(p)->metric()));
    }
}

QTEST_MAIN(TestPlotPanel)
#include "tst_plotpanel.moc"
