// SPDX-License-Identifier: GPL-3.0-or-later
//
// Graph import/export: edge-list CSV and DOT round trips (directed and undirected, with
// positions), and malformed input named by file:line.
#include "graphio.h"

#include "dplab/graph/generators.h"

#include <QTest>

using namespace dplab;

class TestGraphIo : public QObject
{
    Q_OBJECT

private slots:
    void csvRoundTrip_data();
    void csvRoundTrip();
    void dotRoundTrip_data();
    void dotRoundTrip();
    void csvWithoutHeaderUsesDefaults();
    void errorsNameFileAndLine();
};

namespace {

Graph sample(bool directed)
{
    Graph g(5, directed);
    g.addEdge(0, 1);
    g.addEdge(1, 2);
    g.addEdge(2, 0);
    g.addEdge(3, 4);
    if (directed)
        g.addEdge(1, 0);
    g.setPositions({{0, 0}, {1, 0.5}, {-2.25, 3}, {1e-3, -7}, {4, 4}});
    return g;
}

} // namespace

void TestGraphIo::csvRoundTrip_data()
{
    QTest::addColumn<bool>("directed");
    QTest::newRow("undirected") << false;
    QTest::newRow("directed") << true;
}

void TestGraphIo::csvRoundTrip()
{
    QFETCH(bool, directed);
    Graph g = sample(directed);
    auto back = graphFromEdgeListCsv(graphToEdgeListCsv(g), "g.csv", !directed);
    QVERIFY(back.ok());
    g.setPositions({}); // CSV carries topology only
    QVERIFY(*back == g);
}

void TestGraphIo::dotRoundTrip_data()
{
    QTest::addColumn<bool>("directed");
    QTest::newRow("graph") << false;
    QTest::newRow("digraph") << true;
}

void TestGraphIo::dotRoundTrip()
{
    QFETCH(bool, directed);
    const Graph g = sample(directed);
    const std::string dot = graphToDot(g);
    QVERIFY(dot.rfind(directed ? "digraph" : "graph", 0) == 0);
    auto back = graphFromDot(dot, "g.dot");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
    QVERIFY(*back == g);
}

void TestGraphIo::csvWithoutHeaderUsesDefaults()
{
    auto g = graphFromEdgeListCsv("0,1\n1,2\n\n2,0\n", "plain.csv", true);
    QVERIFY(g.ok());
    QCOMPARE(g->nodeCount(), 3);
    QVERIFY(g->isDirected());
    QCOMPARE(g->edgeCount(), std::size_t(3));
}

void TestGraphIo::errorsNameFileAndLine()
{
    auto bad = graphFromEdgeListCsv("from,to\n0,1\n1;2\n", "bad.csv", false);
    QVERIFY(!bad.ok());
    QCOMPARE(QString::fromStdString(bad.error().where), QStringLiteral("bad.csv:3"));
    auto loop = graphFromEdgeListCsv("0,0\n", "loop.csv", false);
    QVERIFY(!loop.ok());
    QCOMPARE(QString::fromStdString(loop.error().where), QStringLiteral("loop.csv:1"));
    auto mixed = graphFromDot("digraph {\n 0 -> 1;\n 1 -- 2;\n}\n", "mixed.dot");
    QVERIFY(!mixed.ok());
    QCOMPARE(QString::fromStdString(mixed.error().where), QStringLiteral("mixed.dot:3"));
    QVERIFY(!graphFromDot("hello", "x.dot").ok());
}

QTEST_MAIN(TestGraphIo)
#include "tst_graphio.moc"
