// SPDX-License-Identifier: GPL-3.0-or-later
//
// PlotPanel: Export All Plots names every file it writes (it asked for one file name and
// silently wrote four).
#include "liveresults.h"
#include "metricplot.h"
#include "plotpanel.h"
#include "presetlibrary.h"

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
    Json doc;
    QString error;
    QVERIFY(PresetLibrary::read(PresetLibrary::defaultPreset(), &doc, &error));
    auto parsed = parseExperiment(doc, PresetLibrary::baseDir().toStdString());
    QVERIFY(parsed.ok());
    LiveResults live;
    live.reset(parsed.value());
    RunBatch batch;
    batch.names = {QStringLiteral("consensus_error")};
    for (int k = 0; k <= 10; ++k) {
        batch.iterations << k;
        batch.values << 1.0 / (1 + k);
    }
    live.addBatches({batch});
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
