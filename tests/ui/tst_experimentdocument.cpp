// SPDX-License-Identifier: GPL-3.0-or-later
//
// ExperimentDocument: loading presets and files, value edits as undo steps and the modified
// state, run list edits, algorithm changes keeping shared parameters, save → open round trip,
// and lenient opening of a file whose graph does not validate.
#include "experimentdocument.h"
#include "graphdocument.h"
#include "presetlibrary.h"

#include "dplab/common/files.h"
#include "dplab/engine/runlabel.h"
#include "dplab/algo/algorithm.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include "uitest.h"
#include "windowtest.h"

#include <QTest>
#include <QUndoStack>

using namespace dplab;

namespace {

Json defaultPreset()
{
    Json doc;
    QString error;
    if (!PresetLibrary::read(PresetLibrary::defaultPreset(), &doc, &error))
        qFatal("cannot read the default preset: %s", qPrintable(error));
    return doc;
}

} // namespace

class TestExperimentDocument : public QObject
{
    Q_OBJECT

private slots:
    void loadsDefaultPreset();
    void setValueUndoAndModified();
    void consecutiveEditsMerge();
    void runListEdits();
    void renameValidates();
    void algorithmChangeKeepsSharedParams();
    void saveOpenRoundTrip();
    void everyPresetRoundTrips_data();
    void everyPresetRoundTrips();
    void opensInvalidGraphWithWarning();
    void rejectsMalformedJson();
    void defaultLabelFollowsAlgorithm();
    void automaticLabelsValidateForEveryAlgorithm();
};

void TestExperimentDocument::loadsDefaultPreset()
{
    ExperimentDocument doc;
    QSignalSpy loaded(&doc, &ExperimentDocument::loaded);
    QString error, warning;
    QVERIFY2(doc.loadJson(defaultPreset(), PresetLibrary::baseDir(), QString(), &error, &warning), qPrintable(error));
    QVERIFY2(warning.isEmpty(), qPrintable(warning));
    QCOMPARE(loaded.count(), 1);
    QVERIFY(!doc.isModified());
    QCOMPARE(doc.graphDocument()->graph().nodeCount(), 6);
    QVERIFY(doc.graphDocument()->graph().isDirected());
    QCOMPARE(doc.runCount(), 2);
    auto e = doc.validate();
    QVERIFY2(e.ok(), e.ok() ? "" : e.error().toString().c_str());
    QCOMPARE(e->runs.size(), std::size_t(2));
    // The saved form is the resolved experiment: parameters have their defaults filled in.
    QVERIFY(doc.run(0).at("params").contains("stepsize"));
}

void TestExperimentDocument::setValueUndoAndModified()
{
    ExperimentDocument doc;
    QString error;
    QVERIFY(doc.loadJson(defaultPreset(), PresetLibrary::baseDir(), QString(), &error));
    QSignalSpy modified(&doc, &ExperimentDocument::modifiedChanged);
    QSignalSpy changed(&doc, &ExperimentDocument::valueChanged);
    doc.setValue("/iterations", 42, QStringLiteral("Change iterations"));
    QCOMPARE(doc.value("/iterations").get<int>(), 42);
    QVERIFY(doc.isModified());
    QCOMPARE(modified.count(), 1);
    QCOMPARE(changed.last().first().toString(), QStringLiteral("/iterations"));
    QCOMPARE(doc.validate()->iterations, 42);
    doc.undoStack()->undo();
    QCOMPARE(doc.value("/iterations").get<int>(), 1000);
    QVERIFY(!doc.isModified());
    // Setting the same value pushes nothing.
    doc.setValue("/iterations", 1000, QStringLiteral("same"));
    QCOMPARE(doc.undoStack()->count(), 1); // the undone command is still on the stack
    QVERIFY(!doc.isModified());
    // Removing a key (null) and undoing restores it.
    doc.setValue("/runs/1/privacy", Json(), QStringLiteral("remove privacy"));
    QVERIFY(doc.value("/runs/1/privacy").is_null());
    doc.undoStack()->undo();
    QVERIFY(doc.value("/runs/1/privacy").is_object());
}

void TestExperimentDocument::consecutiveEditsMerge()
{
    ExperimentDocument doc;
    QString error;
    QVERIFY(doc.loadJson(defaultPreset(), PresetLibrary::baseDir(), QString(), &error));
    doc.setValue("/runs/0/params/stepsize", 0.01, QStringLiteral("step"));
    doc.setValue("/runs/0/params/stepsize", 0.02, QStringLiteral("step"));
    doc.setValue("/runs/0/params/stepsize", 0.03, QStringLiteral("step"));
    QCOMPARE(doc.undoStack()->count(), 1);
    doc.setValue("/runs/1/params/stepsize", 0.04, QStringLiteral("other"));
    QCOMPARE(doc.undoStack()->count(), 2);
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(doc.value("/runs/0/params/stepsize").dump(), doc.run(1).at("params").at("stepsize").dump());
}

void TestExperimentDocument::runListEdits()
{
    ExperimentDocument doc;
    QString error;
    QVERIFY(doc.loadJson(defaultPreset(), PresetLibrary::baseDir(), QString(), &error));
    const int added = doc.addRun();
    QCOMPARE(added, 2);
    QCOMPARE(doc.runCount(), 3);
    // On a directed graph the new run uses an algorithm for directed graphs.
    const AlgorithmDescriptor *a = findAlgorithm(doc.run(2).at("algorithm").get<std::string>());
    QVERIFY(a);
    QVERIFY(a->graphKind != GraphKind::Undirected);
    QVERIFY2(doc.validate().ok(), doc.validate().ok() ? "" : doc.validate().error().toString().c_str());

    const int copy = doc.duplicateRun(0);
    QCOMPARE(copy, 1);
    QCOMPARE(doc.runCount(), 4);
    QCOMPARE(js(doc.run(1).at("params")), js(doc.run(0).at("params")));
    QVERIFY(doc.run(1).at("label") != doc.run(0).at("label"));
    QVERIFY(doc.validate().ok());

    doc.removeRun(1);
    QCOMPARE(doc.runCount(), 3);
    doc.undoStack()->undo();
    QCOMPARE(doc.runCount(), 4);
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(doc.runCount(), 2);
    QVERIFY(!doc.isModified());
}

void TestExperimentDocument::renameValidates()
{
    ExperimentDocument doc;
    QString error;
    QVERIFY(doc.loadJson(defaultPreset(), PresetLibrary::baseDir(), QString(), &error));
    const Json other = doc.run(1).at("label");
    // Commas, quotes and non-Latin text are fine (the CSV writers quote them); control characters are not.
    QVERIFY2(doc.renameRun(0, QStringLiteral("a, \"b\" 日本"), &error), qPrintable(error));
    QVERIFY(doc.validate().ok());
    QVERIFY(!doc.renameRun(0, QStringLiteral("a\tb"), &error));
    QVERIFY2(error.contains(QStringLiteral("control")), qPrintable(error));
    QVERIFY(!doc.renameRun(0, QStringLiteral("  "), &error));
    QVERIFY(!doc.renameRun(0, QString::fromStdString(other.get<std::string>()), &error));
    QVERIFY(doc.renameRun(0, QStringLiteral("  Baseline "), &error));
    QCOMPARE(doc.run(0).at("label").get<std::string>(), std::string("Baseline"));
    QVERIFY(doc.validate().ok());
}

void TestExperimentDocument::algorithmChangeKeepsSharedParams()
{
    const auto &registry = algorithmRegistry();
    // Two algorithms with a common parameter key.
    for (const auto &from : registry)
        for (const auto &to : registry) {
            if (&from == &to)
                continue;
            std::string shared;
            for (const auto &p : from.params)
                for (const auto &q : to.params)
                    if (p.key == q.key && p.type == q.type && (p.type == ParamType::Real || p.type == ParamType::Schedule))
                        shared = p.key;
            if (shared.empty())
                continue;
            Json doc = defaultPreset();
            doc["runs"] = Json::array({Json{{"label", "r"}, {"algorithm", from.id}}});
            if (from.graphKind == GraphKind::Undirected)
                doc["graph"] = Json{{"generator", {{"type", "ring"}, {"nodes", 6}}}};
            ExperimentDocument d;
            QString error;
            QVERIFY2(d.loadJson(doc, PresetLibrary::baseDir(), QString(), &error), qPrintable(error));
            d.setValue("/runs/0/params/" + shared, 0.0123, QStringLiteral("edit"));
            d.setRunAlgorithm(0, to.id);
            QCOMPARE(d.run(0).at("algorithm").get<std::string>(), to.id);
            QCOMPARE(js(d.run(0).at("params").at(shared)), js(Json(0.0123)));
            // Every key of the new descriptor is present, nothing else.
            QCOMPARE(d.run(0).at("params").size(), to.params.size());
            d.undoStack()->undo();
            QCOMPARE(d.run(0).at("algorithm").get<std::string>(), from.id);
            return;
        }
    QSKIP("no two registered algorithms share a real parameter");
}

void TestExperimentDocument::saveOpenRoundTrip()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("experiment.json"));
    ExperimentDocument doc;
    QString error;
    Json preset = defaultPreset();
    preset["problem"] = Json{{"type", "quadratic"}, {"dimension", 2}}; // random A_i, b_i for any n
    QVERIFY(doc.loadJson(preset, PresetLibrary::baseDir(), QString(), &error));
    doc.setValue("/iterations", 77, QStringLiteral("it"));
    doc.graphDocument()->addNode({0.1, 0.2});
    doc.graphDocument()->addEdge(6, 0);
    doc.graphDocument()->addEdge(0, 6);
    QVERIFY(doc.isModified());
    QSignalSpy fileName(&doc, &ExperimentDocument::fileNameChanged);
    QVERIFY2(doc.save(path, &error), qPrintable(error));
    QVERIFY(!doc.isModified());
    QCOMPARE(fileName.count(), 1);
    QCOMPARE(doc.displayName(), QStringLiteral("experiment.json"));

    ExperimentDocument reopened;
    QString warning;
    QVERIFY2(reopened.loadFile(path, &error, &warning), qPrintable(error));
    QVERIFY2(warning.isEmpty(), qPrintable(warning));
    QCOMPARE(js(reopened.toJson()), js(doc.toJson()));
    QVERIFY(reopened.graphDocument()->graph() == doc.graphDocument()->graph());
    // And saving again gives the same bytes.
    const QString again = dir.filePath(QStringLiteral("again.json"));
    QVERIFY(reopened.save(again, &error));
    QCOMPARE(*readFile(again.toStdString()), *readFile(path.toStdString()));
}

void TestExperimentDocument::everyPresetRoundTrips_data()
{
    addPresetRows();
}

void TestExperimentDocument::everyPresetRoundTrips()
{
    // Open → save → open of every preset gives the same document and the same resolved
    // experiment (layout positions included), and saving again the same bytes.
    QFETCH(QString, preset);
    QTemporaryDir dir;
    Json json;
    QString error;
    QVERIFY2(PresetLibrary::read(preset, &json, &error), qPrintable(error));
    ExperimentDocument doc;
    QVERIFY2(doc.loadJson(json, PresetLibrary::baseDir(), QString(), &error), qPrintable(error));
    auto first = doc.validate();
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().toString().c_str());
    // Saved next to the presets' data folder so relative data paths still resolve.
    const QString path = dir.filePath(QStringLiteral("saved.json"));
    QVERIFY2(doc.save(path, &error), qPrintable(error));
    ExperimentDocument reopened;
    QString warning;
    QVERIFY2(reopened.loadFile(path, &error, &warning), qPrintable(error));
    QVERIFY2(warning.isEmpty(), qPrintable(warning));
    QCOMPARE(js(reopened.toJson()), js(doc.toJson()));
    QVERIFY(reopened.graphDocument()->graph() == doc.graphDocument()->graph());
    QCOMPARE(reopened.graphDocument()->graph().positions().size(), doc.graphDocument()->graph().positions().size());
    auto second = reopened.validate();
    QVERIFY2(second.ok(), second.ok() ? "" : second.error().toString().c_str());
    QCOMPARE(js(second->resolved), js(first->resolved));
    const QString again = dir.filePath(QStringLiteral("again.json"));
    QVERIFY(reopened.save(again, &error));
    QCOMPARE(*readFile(again.toStdString()), *readFile(path.toStdString()));
}

void TestExperimentDocument::opensInvalidGraphWithWarning()
{
    Json doc = defaultPreset();
    doc["problem"] = Json{{"type", "quadratic"}, {"dimension", 2}};
    doc["graph"] = Json{{"directed", true},
                        {"nodes", 4},
                        {"edges", Json::array({Json::array({0, 1}), Json::array({1, 0}), Json::array({2, 3})})}};
    ExperimentDocument d;
    QString error, warning;
    QVERIFY2(d.loadJson(doc, PresetLibrary::baseDir(), QString(), &error, &warning), qPrintable(error));
    QVERIFY(warning.contains(QStringLiteral("graph")));
    QCOMPARE(d.graphDocument()->graph().nodeCount(), 4);
    QVERIFY(!d.validate().ok());
    // Repair: connect the two pieces both ways.
    d.graphDocument()->addEdge(1, 2);
    d.graphDocument()->addEdge(2, 1);
    d.graphDocument()->addEdge(3, 2);
    QVERIFY2(d.validate().ok(), d.validate().ok() ? "" : d.validate().error().toString().c_str());
}

void TestExperimentDocument::rejectsMalformedJson()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QVERIFY(writeFileAtomic(path.toStdString(), "{\"format\": \"dplab-experiment\",\n  \"graph\": [1, }\n").ok());
    ExperimentDocument d;
    QString error;
    QVERIFY(!d.loadFile(path, &error));
    QVERIFY2(error.contains(QStringLiteral("bad.json:2")), qPrintable(error));
    QCOMPARE(d.runCount(), 0);
}

void TestExperimentDocument::defaultLabelFollowsAlgorithm()
{
    // A run added with its algorithm's name as label kept that label after its algorithm was
    // changed ("DGD" running Gradient Tracking); a label the user typed is kept.
    ExperimentDocument d;
    QString error;
    QVERIFY2(d.loadJson(defaultPreset(), PresetLibrary::baseDir(), QString(), &error), qPrintable(error));
    const int added = d.addRun();
    QVERIFY(added >= 0);
    const std::string from = d.run(added).at("algorithm").get<std::string>();
    const AlgorithmDescriptor *target = nullptr;
    for (const auto &a : algorithmRegistry())
        if (a.id != from && a.graphKind == findAlgorithm(from)->graphKind && !a.needsOnline)
            target = &a;
    QVERIFY(target);
    QCOMPARE(d.run(added).at("label").get<std::string>(), defaultRunLabel(*findAlgorithm(from)));
    d.setRunAlgorithm(added, target->id);
    QCOMPARE(d.run(added).at("label").get<std::string>(), defaultRunLabel(*target));
    // One undo step restores both.
    d.undoStack()->undo();
    QCOMPARE(d.run(added).at("label").get<std::string>(), defaultRunLabel(*findAlgorithm(from)));
    // A file written with the algorithm's full name as label still follows.
    d.setValue("/runs/" + std::to_string(added) + "/label", findAlgorithm(from)->name, QStringLiteral("edit"));
    d.setRunAlgorithm(added, target->id);
    QCOMPARE(d.run(added).at("label").get<std::string>(), defaultRunLabel(*target));
    // A typed label stays.
    const std::string typed = d.run(0).at("label").get<std::string>();
    d.setRunAlgorithm(0, target->id);
    QCOMPARE(d.run(0).at("label").get<std::string>(), typed);
}

void TestExperimentDocument::automaticLabelsValidateForEveryAlgorithm()
{
    // Switching a new run to LDP-GT named it "LDP gradient tracking (online, directed)", which
    // the validator refused; every automatic label must pass the validator's label check.
    ExperimentDocument d;
    QString error;
    QVERIFY2(d.loadJson(defaultPreset(), PresetLibrary::baseDir(), QString(), &error), qPrintable(error));
    const int added = d.addRun();
    QVERIFY(added >= 0);
    for (const AlgorithmDescriptor &a : algorithmRegistry()) {
        d.setRunAlgorithm(added, a.id);
        const std::string label = d.run(added).at("label").get<std::string>();
        QVERIFY2(label.rfind(defaultRunLabel(a), 0) == 0, label.c_str());
        QVERIFY2(runLabelProblem(label).empty(), label.c_str());
        const auto valid = d.validate();
        if (!valid.ok())
            QVERIFY2(valid.error().toString().find("label") == std::string::npos, valid.error().toString().c_str());
    }
}

QTEST_MAIN(TestExperimentDocument)
#include "tst_experimentdocument.moc"
