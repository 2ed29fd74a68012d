// SPDX-License-Identifier: GPL-3.0-or-later
//
// PresetLibrary: presets grouped for the menu — papers by number, teaching demonstrations
// (teaching-*.json and paperNNN-teaching-*.json, which sat under its paper) under Teaching.
#include "presetlibrary.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace dplab;

class TestPresetLibrary : public QObject
{
    Q_OBJECT

private slots:
    void teachingPresetsUnderTeaching();
    void onlyExperimentFilesArePresets();
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
        // The submenu names the group: its items do not repeat it (issue 24).
        if (teaching)
            QVERIFY2(!p.title.startsWith(QLatin1String("Teaching:")), qPrintable(p.title));
    }
    QVERIFY(sawGossip);
    QCOMPARE(PresetLibrary::groups(presets).last(), QStringLiteral("Teaching"));
}

void TestPresetLibrary::onlyExperimentFilesArePresets()
{
    // Presets ▸ Other listed manifest.json and summary.json left by `dplab-cli run --out` into
    // the presets folder.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QFile::copy(PresetLibrary::defaultPreset(), dir.filePath(QStringLiteral("my-experiment.json"))));
    // A results folder's files: the resolved experiment.json is an experiment but no preset.
    QVERIFY(QFile::copy(PresetLibrary::defaultPreset(), dir.filePath(QStringLiteral("experiment.json"))));
    auto write = [&](const QString &name, const QByteArray &text) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    };
    write(QStringLiteral("manifest.json"), R"({"format": "dplab-results", "dplab_version": "0.1.0"})");
    write(QStringLiteral("summary.json"), R"({"name": "x", "runs": []})");
    write(QStringLiteral("broken.json"), "{");
    write(QStringLiteral("notes.txt"), "not json");
    const QVector<PresetInfo> list = PresetLibrary::presets(dir.path());
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.front().fileName, QStringLiteral("my-experiment.json"));
    QCOMPARE(list.front().group, QStringLiteral("Other"));
    QCOMPARE(list.front().resourcePath, QDir(dir.path()).filePath(QStringLiteral("my-experiment.json")));
    // The compiled-in presets follow the same rule, and every committed one is there.
    const QVector<PresetInfo> bundled = PresetLibrary::presets();
    const QStringList committed = QDir(QStringLiteral(DPLAB_TEST_SOURCE_DIR "/resources/presets"))
                                      .entryList({QStringLiteral("*.json")}, QDir::Files);
    for (const PresetInfo &p : bundled) {
        QVERIFY2(p.fileName != QLatin1String("manifest.json") && p.fileName != QLatin1String("summary.json")
                     && p.fileName != QLatin1String("experiment.json"),
                 qPrintable(p.fileName));
    }
    int committedPresets = 0;
    for (const QString &name : committed)
        committedPresets += name != QLatin1String("manifest.json") && name != QLatin1String("summary.json")
                            && name != QLatin1String("experiment.json");
    QCOMPARE(int(bundled.size()), committedPresets);
}

QTEST_MAIN(TestPresetLibrary)
#include "tst_presetlibrary.moc"
