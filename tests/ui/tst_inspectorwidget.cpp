// SPDX-License-Identifier: GPL-3.0-or-later
//
// InspectorWidget: the verdicts follow every edit — connectivity with the offending nodes,
// stochasticity/symmetry/PSD, σ₂ and the spectral gap against hand-computed values, Perron
// vectors that are fixed points — for the weights of the selected run.
#include "experimentdocument.h"
#include "graphdocument.h"
#include "inspectorwidget.h"
#include "presetlibrary.h"
#include "presettest.h"

#include "dplab/engine/experiment.h"

#include <QSignalSpy>
#include "uitest.h"

#include <QRegularExpression>
#include <QDialog>
#include <QLabel>
#include <QPointer>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

#include <cmath>

using namespace dplab;

namespace {

Json ringExperiment(int n)
{
    std::string undirected;
    for (const auto &d : algorithmRegistry())
        if (d.graphKind != GraphKind::Directed && d.weights == WeightNeeds::Doubly && !d.needsOnline) {
            undirected = d.id;
            break;
        }
    Json edges = Json::array();
    for (int i = 0; i < n; ++i)
        edges.push_back({i, (i + 1) % n});
    return Json{{"format", "dplab-experiment"},
                {"version", 1},
                {"graph", {{"directed", false}, {"nodes", n}, {"edges", edges}, {"weights", {{"scheme", "metropolis"}}}}},
                {"problem", {{"type", "quadratic"}, {"dimension", 2}}},
                {"runs", Json::array({Json{{"label", "a"}, {"algorithm", undirected}}})}};
}

} // namespace

class TestInspectorWidget : public QObject
{
    Q_OBJECT

private slots:
    void ringOfFourMetropolis();
    void followsEdits();
    void everyUnreachableNodeIsFlagged();
    void editMatrixEntries();
    void matrixDialogEditsLive();
    void directedPushPullPerronVectors();
    void badWeightsNamed();
    void ring4FamilyTakesTheGeneratorsTargets();
    void roundOffShowsAsZero();
};

void TestInspectorWidget::roundOffShowsAsZero()
{
    // A complete graph printed σ₂ = 1.147e-16 and ρ(W − 11ᵀ/n) of the same size: round-off.
    Json e = ringExperiment(6);
    Json edges = Json::array();
    for (int i = 0; i < 6; ++i)
        for (int j = i + 1; j < 6; ++j)
            edges.push_back({i, j});
    e["graph"]["edges"] = edges;
    e["graph"]["weights"] = Json{{"scheme", "uniform"}};
    ExperimentDocument doc;
    QString error;
    QVERIFY2(doc.loadJson(e, QString(), QString(), &error), qPrintable(error));
    InspectorWidget inspector(&doc);
    inspector.refresh();
    const MatrixReport &w = inspector.inspection().matrices.at(0);
    QVERIFY(w.error.isEmpty());
    QVERIFY(std::abs(w.facts.sigma2) < 1e-12); // the number itself is round-off ...
    const QString text = inspector.text();
    // ... and shows as 0.
    static const QRegularExpression zero(QStringLiteral("σ₂ \\(2nd singular value\\)\\s+0\\s"));
    QVERIFY2(zero.match(text).hasMatch(), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("e-1")), qPrintable(text));
}

void TestInspectorWidget::ringOfFourMetropolis()
{
    ExperimentDocument doc;
    QString error;
    QVERIFY2(doc.loadJson(ringExperiment(4), QString(), QString(), &error), qPrintable(error));
    InspectorWidget inspector(&doc);
    inspector.refresh();
    const Inspection &in = inspector.inspection();
    QCOMPARE(in.nodes, 4);
    QCOMPARE(in.edges, 4);
    QVERIFY(in.connectivity.connected);
    QCOMPARE(in.matrices.size(), 1);
    const MatrixReport &w = in.matrices[0];
    QVERIFY(w.error.isEmpty());
    QVERIFY(w.facts.rowStochastic && w.facts.columnStochastic && w.facts.symmetric);
    // Ring of 4, every degree 2: w_ij = 1/3 on edges and the diagonal. W is the circulant
    // (1/3)(I + P + Pᵀ) with eigenvalues (1 + 2cos(2πk/4))/3 = 1, 1/3, −1/3, 1/3.
    QVERIFY(std::abs(w.facts.sigma2 - 1.0 / 3.0) < 1e-12);
    QVERIFY(std::abs(w.facts.spectralGap - 2.0 / 3.0) < 1e-12);
    QVERIFY(std::abs(w.facts.consensusRate - 1.0 / 3.0) < 1e-12);
    QVERIFY(!w.facts.psd); // eigenvalue −1/3
    QVERIFY(inspector.text().contains(QStringLiteral("connected")));

    // Lazy Metropolis (I + W)/2 is PSD: eigenvalues 1, 2/3, 1/3, 2/3.
    doc.setValue("/graph/weights", Json{{"scheme", "lazy-metropolis"}}, QStringLiteral("lazy"));
    inspector.refresh();
    const MatrixReport &lazy = inspector.inspection().matrices[0];
    QVERIFY(lazy.facts.psd);
    QVERIFY(std::abs(lazy.facts.sigma2 - 2.0 / 3.0) < 1e-12);
}

void TestInspectorWidget::followsEdits()
{
    ExperimentDocument doc;
    QString error;
    QVERIFY(doc.loadJson(ringExperiment(5), QString(), QString(), &error));
    InspectorWidget inspector(&doc);
    QSignalSpy inspected(&inspector, &InspectorWidget::inspected);
    // Cutting two edges of a ring splits it: the far piece is reported.
    doc.graphDocument()->deleteElements({}, {Edge{1, 2}, Edge{3, 4}});
    QVERIFY(inspected.wait(2000));
    QVERIFY(!inspector.inspection().connectivity.connected);
    QCOMPARE(inspector.inspection().connectivity.offending, (std::vector<int>{2, 3}));
    QVERIFY(inspector.text().contains(QStringLiteral("offending")));
    doc.undoStack()->undo();
    QVERIFY(inspected.wait(2000));
    QVERIFY(inspector.inspection().connectivity.connected);
    QCOMPARE(inspector.inspection().edges, 5);
    // Adding a node updates the counts (isolated: not connected).
    doc.graphDocument()->addNode({0, 0});
    QVERIFY(inspected.wait(2000));
    QCOMPARE(inspector.inspection().nodes, 6);
    QCOMPARE(inspector.inspection().connectivity.offending, (std::vector<int>{5}));
}

void TestInspectorWidget::everyUnreachableNodeIsFlagged()
{
    ExperimentDocument doc;
    QVERIFY(loadDefaultPreset(doc));
    InspectorWidget inspector(&doc);
    QSignalSpy inspected(&inspector, &InspectorWidget::inspected);
    // The preset's directed graph without 0 -> 1, 3 -> 1 and 5 -> 0: node 1 cannot be reached
    // from 0, and nothing reaches 0 any more. Node 5 (and 2, 3, 4) used to go unflagged.
    doc.graphDocument()->deleteElements({}, {Edge{0, 1}, Edge{3, 1}, Edge{5, 0}});
    QVERIFY(inspected.wait(2000));
    const Connectivity &c = inspector.inspection().connectivity;
    QVERIFY(!c.connected);
    QCOMPARE(c.offending, (std::vector<int>{1, 2, 3, 4, 5}));
    QVERIFY(inspector.text().contains(QStringLiteral("cannot be reached from node 0")));
    QVERIFY(inspector.text().contains(QStringLiteral("cannot reach node 0")));
}

void TestInspectorWidget::editMatrixEntries()
{
    // The weight matrix was read-only. An edit makes the run's weights that explicit matrix,
    // the verdicts follow at once, and Undo restores the scheme.
    ExperimentDocument doc;
    QVERIFY(loadDefaultPreset(doc));
    QString error;
    InspectorWidget inspector(&doc);
    inspector.setCurrentRun(0);
    inspector.refresh();
    QCOMPARE(inspector.inspection().matrices.size(), 2); // R and C of push-pull
    const Json before = doc.runWeights(0);
    const Eigen::MatrixXd r0 = inspector.inspection().matrices[0].matrix;
    QVERIFY(r0.rows() == 6 && std::abs(r0(1, 0) - 1.0 / 3.0) < 1e-12); // uniform: 1 hears 0, 3 and itself

    // Agent 1 puts 0.25 instead of 1/3 on agent 0 (edge 0 -> 1): row 1 no longer sums to 1.
    QVERIFY2(inspector.setMatrixEntry(0, 1, 0, 0.25, &error), qPrintable(error));
    const MatrixReport &edited = inspector.inspection().matrices[0];
    QCOMPARE(edited.scheme, QStringLiteral("matrix"));
    QCOMPARE(edited.matrix(1, 0), 0.25);
    QVERIFY(!edited.facts.rowStochastic);
    QVERIFY2(edited.error.contains(QStringLiteral("row 1")), qPrintable(edited.error));
    QCOMPARE(inspector.inspection().matrices[1].scheme, QStringLiteral("uniform")); // C untouched
    // ... and 0.25 more on itself: row-stochastic again.
    QVERIFY(inspector.setMatrixEntry(0, 1, 1, r0(1, 1) + r0(1, 0) - 0.25, &error));
    QVERIFY(inspector.inspection().matrices[0].facts.rowStochastic);
    QVERIFY2(inspector.inspection().matrices[0].error.isEmpty(), qPrintable(inspector.inspection().matrices[0].error));
    QVERIFY(doc.validate().ok()); // the experiment runs with it
    QVERIFY(doc.runWeights(0)["row"]["scheme"] == Json("matrix"));

    // Refused: no edge 2 -> 0, negative and non-finite weights.
    QVERIFY(!inspector.setMatrixEntry(0, 0, 2, 0.1, &error));
    QVERIFY2(error.contains(QStringLiteral("no edge")), qPrintable(error));
    QVERIFY(!inspector.setMatrixEntry(0, 1, 0, -0.1, &error));
    QVERIFY(!inspector.setMatrixEntry(0, 1, 0, std::nan(""), &error));

    // One undo step per entry.
    doc.undoStack()->undo();
    inspector.refresh();
    QVERIFY(!inspector.inspection().matrices[0].facts.rowStochastic);
    doc.undoStack()->undo();
    inspector.refresh();
    QCOMPARE(js(doc.runWeights(0)), js(before));
    QCOMPARE(inspector.inspection().matrices[0].scheme, QStringLiteral("uniform"));
}

void TestInspectorWidget::matrixDialogEditsLive()
{
    ExperimentDocument doc;
    QString error;
    QVERIFY(doc.loadJson(ringExperiment(4), QString(), QString(), &error));
    InspectorWidget inspector(&doc);
    inspector.refresh();
    QPointer<QDialog> dialog = inspector.createMatrixDialog(0, 1, 0);
    QVERIFY(dialog);
    auto *table = dialog->findChild<QTableWidget *>(QStringLiteral("matrixTable"));
    auto *verdicts = dialog->findChild<QLabel *>(QStringLiteral("matrixVerdicts"));
    QVERIFY(table && verdicts);
    QCOMPARE(table->currentRow(), 1);
    QCOMPARE(table->currentColumn(), 0);
    QVERIFY(table->item(1, 0)->flags() & Qt::ItemIsEditable);       // edge 0 — 1
    QVERIFY(!(table->item(2, 0)->flags() & Qt::ItemIsEditable));    // no edge 0 — 2
    QVERIFY(verdicts->text().contains(QStringLiteral("✓")));
    // Metropolis on a 4-ring: 1/3 everywhere on the support. Typing 0.5 at (1, 0) breaks the
    // stochasticity; the verdicts say so without closing the dialog.
    table->item(1, 0)->setText(QStringLiteral("0.5"));
    QVERIFY(doc.runWeights(0)["scheme"] == Json("matrix"));
    QCOMPARE(inspector.inspection().matrices[0].matrix(1, 0), 0.5);
    QVERIFY2(verdicts->text().contains(QStringLiteral("✗")), qPrintable(verdicts->text()));
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("0.5"));
    // Text that is not a number is refused beside the table, the entry unchanged.
    table->item(1, 1)->setText(QStringLiteral("abc"));
    auto *problem = dialog->findChild<QLabel *>(QStringLiteral("matrixEditError"));
    QVERIFY(problem && problem->text().contains(QStringLiteral("not a number")));
    QVERIFY(std::abs(inspector.inspection().matrices[0].matrix(1, 1) - 1.0 / 3.0) < 1e-12);
    delete dialog;
}

void TestInspectorWidget::directedPushPullPerronVectors()
{
    ExperimentDocument d;
    QVERIFY(loadDefaultPreset(d));
    InspectorWidget inspector(&d);
    inspector.setCurrentRun(0);
    inspector.refresh();
    const Inspection &in = inspector.inspection();
    QVERIFY(in.directed);
    QVERIFY(in.connectivity.connected);
    QCOMPARE(in.matrices.size(), 2);
    const MatrixReport &r = in.matrices[0];
    const MatrixReport &c = in.matrices[1];
    QCOMPARE(r.name, QStringLiteral("R"));
    QVERIFY(r.facts.rowStochastic);
    QVERIFY(c.facts.columnStochastic);
    QCOMPARE(r.perron.size(), Eigen::Index(6));
    QCOMPARE(c.perron.size(), Eigen::Index(6));
    // uᵀR = uᵀ and Cω = ω, both positive and summing to 1.
    QVERIFY((r.perron.transpose() * r.matrix - r.perron.transpose()).norm() < 1e-10);
    QVERIFY((c.matrix * c.perron - c.perron).norm() < 1e-10);
    QVERIFY(std::abs(r.perron.sum() - 1) < 1e-12 && r.perron.minCoeff() > 0);
    QVERIFY(std::abs(c.perron.sum() - 1) < 1e-12 && c.perron.minCoeff() > 0);
}

void TestInspectorWidget::badWeightsNamed()
{
    ExperimentDocument doc;
    QString error;
    QVERIFY(doc.loadJson(ringExperiment(4), QString(), QString(), &error));
    doc.setValue("/graph/weights",
                 Json{{"scheme", "matrix"}, {"matrix", {{0.5, 0.5, 0, 0}, {0.5, 0.5, 0, 0}, {0, 0, 0.5, 0.5}, {0, 0.5, 0, 0.5}}}},
                 QStringLiteral("matrix"));
    InspectorWidget inspector(&doc);
    inspector.refresh();
    const MatrixReport &w = inspector.inspection().matrices[0];
    QVERIFY(!w.error.isEmpty()); // support outside the graph or not stochastic: named by core
    QVERIFY(w.error.contains(QStringLiteral("weights")));
}

void TestInspectorWidget::ring4FamilyTakesTheGeneratorsTargets()
{
    // A bare {"scheme": "ring4-family"} takes the generator's ρ(W_o), ρ_w, as the runs do: the
    // inspector and the weights form must show that W, not the scheme's defaults (0.3, 0.9).
    Json e = ringExperiment(4);
    e["graph"] = Json{{"generator", {{"type", "ring4-family"}, {"rho_wo", 0.5}, {"rho_w", 0.6}}},
                      {"weights", {{"scheme", "ring4-family"}}}};
    e["runs"][0]["algorithm"] = "robust-dp-gt";
    ExperimentDocument doc;
    QString error;
    QVERIFY2(doc.loadJson(e, QString(), QString(), &error), qPrintable(error));
    QCOMPARE(doc.runWeights(0).value("rho_w", 0.0), 0.6);
    InspectorWidget inspector(&doc);
    inspector.refresh();
    const MatrixReport &w = inspector.inspection().matrices[0];
    QVERIFY(w.error.isEmpty());
    QVERIFY2(std::abs(w.facts.consensusRate - 0.6) < 1e-12, qPrintable(QString::number(w.facts.consensusRate)));
    // The resolved run mixes with the same matrix.
    auto resolved = parseExperiment(e, ".");
    QVERIFY(resolved.ok());
    QVERIFY((resolved->runs[0].W - w.matrix).cwiseAbs().maxCoeff() < 1e-15);
}

QTEST_MAIN(TestInspectorWidget)
#include "tst_inspectorwidget.moc"
