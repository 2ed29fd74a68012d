// SPDX-License-Identifier: GPL-3.0-or-later
//
// PresetLibrary: presets grouped for the menu — papers by number, teaching demonstrations
// (teaching-*.json and paperNNN-teaching-*.json, which sat under its paper) under Teaching.
#include "presetlibrary.h"

#include <QTest>

using namespace dplab;

class TestPresetLibrary : public QObject
{
    Q_OBJECT

private slots:
    void teachingPresetsUnderTeaching();
};

void TestPresetLibrary::teachingPresetsUnderTeaching()
{
    const QVector<PresetInfo> presets = PresetLibrary::presets();
    QVERIFY(!presets.isEmpty());
    bool sawGossip = false;
    for (const PresetInfo &p : presets) {
        const bool teaching = p.fileName.startsWith(QLatin1String("teaching-")) || p.fileName.contains(QLatin1String("-teaching-"));
        QVERIFY2((p.group == QLatin1String("Teaching")) == teaching, qPrintable(p.fileName + QStringLiteral(" in ") + p.group));
        sawGossip = sawGossip || p.fileName == QLatin1String("paper002-teaching-gossip.json");
    }
    QVERIFY(sawGossip);
    QCOMPARE(PresetLibrary::groups(presets).last(), QStringLiteral("Teaching"));
}

QTEST_MAIN(TestPresetLibrary)
#include "tst_presetlibrary.moc"
