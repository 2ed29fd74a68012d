// SPDX-License-Identifier: GPL-3.0-or-later
//
// HelpPanel and the weights and settings forms read as the lesson notes do: formulas rendered
// without stray underscores, each weight scheme named with the matrix it sets, the scroll
// position of one experiment not carried into the next, tooltips that say what they set.
#include "experimentdocument.h"
#include "experimentsettingswidget.h"
#include "helppanel.h"
#include "presetlibrary.h"
#include "weightswidget.h"

#include <QComboBox>
#include <QScrollBar>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

using namespace dplab;

namespace {

bool loadPreset(ExperimentDocument &doc, const QString &name)
{
    Json json;
    QString error;
    if (!PresetLibrary::read(QStringLiteral(":/presets/") + name, &json, &error))
        return false;
    return doc.loadJson(json, PresetLibrary::baseDir(), QString(), &error);
}

} // namespace

class TestHelpPanel : public QObject
{
    Q_OBJECT

private slots:
    void weightSchemesSayWhichMatrix();
    void noStrayUnderscores();
    void newExperimentStartsAtTheTop();
    void comboAndFieldTooltips();
};

void TestHelpPanel::weightSchemesSayWhichMatrix()
{
    // "Uniform (row or column by role)" was listed twice without saying which is R and which C.
    ExperimentDocument doc;
    QVERIFY(loadPreset(doc, QStringLiteral("teaching-push-pull-quadratic.json")));
    HelpPanel panel(&doc);
    panel.setRun(0);
    const QString html = panel.html();
    QVERIFY2(html.contains(QStringLiteral("R (row-stochastic")), qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral("C (column-stochastic")), qPrintable(html));
    QVERIFY(html.indexOf(QStringLiteral("R (row-stochastic")) < html.indexOf(QStringLiteral("C (column-stochastic")));
}

void TestHelpPanel::noStrayUnderscores()
{
    // "(s⁺_i − s_i)" and "αγ_0" printed with their underscores.
    ExperimentDocument doc;
    QVERIFY(loadPreset(doc, QStringLiteral("paper003-fig1-dpop.json")));
    HelpPanel panel(&doc);
    for (int r = 0; r < doc.runCount(); ++r) {
        doc.setRunAlgorithm(r, "robust-dp-gt");
        panel.setRun(r);
        const QString html = panel.html();
        QVERIFY2(html.contains(QStringLiteral("s⁺<sub>i</sub>")), qPrintable(html));
        QVERIFY2(!html.contains(QStringLiteral("⁺_")) && !html.contains(QStringLiteral("γ_")), qPrintable(html));
    }
    doc.undoStack()->setClean();
}

void TestHelpPanel::newExperimentStartsAtTheTop()
{
    // The scroll position of the previous experiment was kept for a new one.
    ExperimentDocument doc;
    QVERIFY(loadPreset(doc, QStringLiteral("teaching-push-pull-quadratic.json")));
    HelpPanel panel(&doc);
    panel.resize(300, 200);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setRun(0);
    QScrollBar *bar = panel.verticalScrollBar();
    QTRY_VERIFY(bar->maximum() > 0);
    bar->setValue(bar->maximum() / 2);
    const int middle = bar->value();
    QVERIFY(middle > 0);
    // An edit of the run being read keeps the place.
    doc.setValue("/runs/0/params/stepsize", 0.04, QStringLiteral("edit"));
    QCOMPARE(bar->value(), middle);
    // Another experiment starts at the top.
    QVERIFY(loadPreset(doc, QStringLiteral("teaching-dgd-vs-tracking.json")));
    QCoreApplication::processEvents();
    QCOMPARE(bar->value(), 0);
    // So does another run.
    bar->setValue(bar->maximum() / 2);
    QVERIFY(bar->value() > 0);
    panel.setRun(1);
    QCOMPARE(bar->value(), 0);
}

void TestHelpPanel::comboAndFieldTooltips()
{
    // The Row R combo had no tooltip; both combos list the same schemes without saying which
    // matrix they set. "Record every" read "1 records every iteration".
    ExperimentDocument doc;
    QVERIFY(loadPreset(doc, QStringLiteral("teaching-push-pull-quadratic.json")));
    WeightsWidget weights(&doc);
    weights.refresh();
    QList<QComboBox *> combos = weights.findChildren<QComboBox *>();
    QVERIFY(combos.size() >= 2);
    QVERIFY2(combos[0]->toolTip().contains(QStringLiteral("Sets R")), qPrintable(combos[0]->toolTip()));
    QVERIFY2(combos[1]->toolTip().contains(QStringLiteral("Sets C")), qPrintable(combos[1]->toolTip()));
    ExperimentSettingsWidget settings(&doc);
    bool found = false;
    for (QSpinBox *box : settings.findChildren<QSpinBox *>())
        if (box->specialValueText() == QStringLiteral("auto")) {
            found = true;
            QVERIFY2(!box->toolTip().contains(QStringLiteral("1 records every iteration")), qPrintable(box->toolTip()));
            QVERIFY2(box->toolTip().contains(QStringLiteral("k = 1: every iteration")), qPrintable(box->toolTip()));
        }
    QVERIFY(found);
}

QTEST_MAIN(TestHelpPanel)
#include "tst_helppanel.moc"
