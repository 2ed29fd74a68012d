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
    void malformedDotIsAnError_data();
    void malformedDotIsAnError();
    void dotReadsCommonSyntax();
    void csvNodeOutOfRangeNamesItsLine();
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

void TestGraphIo::malformedDotIsAnError_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("says");
    // The file of issue 29: an edge without its head, then a stray brace. The old line-by-line
    // reader found "1" and imported a two-node graph.
    QTest::newRow("edge without head") << QStringLiteral("digraph {\n0 -> 1\n1 -> \n}}\n")
                                       << QStringLiteral("x.dot:4") << QStringLiteral("expected a node id");
    QTest::newRow("text after the graph") << QStringLiteral("digraph {\n 0 -> 1;\n}\n}\n")
                                          << QStringLiteral("x.dot:4") << QStringLiteral("after the graph");
    QTest::newRow("missing closing brace") << QStringLiteral("graph {\n 0 -- 1;\n 1 -- 2;\n")
                                           << QStringLiteral("x.dot:4") << QStringLiteral("missing");
    QTest::newRow("missing opening brace") << QStringLiteral("graph g\n 0 -- 1;\n}\n")
                                           << QStringLiteral("x.dot:2") << QStringLiteral("\"{\"");
    QTest::newRow("named node") << QStringLiteral("digraph {\n 0 -> 1;\n a -> 2;\n}\n")
                                << QStringLiteral("x.dot:3") << QStringLiteral("integers");
    QTest::newRow("negative node") << QStringLiteral("digraph {\n\n 0 -> -1;\n}\n")
                                   << QStringLiteral("x.dot:3") << QStringLiteral("integers");
    QTest::newRow("wrong edge operator") << QStringLiteral("graph {\n 0 -- 1;\n 1 -> 2;\n}\n")
                                         << QStringLiteral("x.dot:3") << QStringLiteral("undirected");
    QTest::newRow("self-loop in a chain") << QStringLiteral("digraph {\n 0 -> 1 -> 1;\n}\n")
                                          << QStringLiteral("x.dot:2") << QStringLiteral("self-loop");
    QTest::newRow("unclosed attribute list") << QStringLiteral("digraph {\n 0 [pos=\"1,2!\"\n 0 -> 1;\n")
                                             << QStringLiteral("x.dot:3") << QStringLiteral("\"->\"");
    QTest::newRow("bad position") << QStringLiteral("digraph {\n 0 [pos=\"1,x\"];\n 0 -> 1;\n}\n")
                                  << QStringLiteral("x.dot:2") << QStringLiteral("pos");
    QTest::newRow("unclosed string") << QStringLiteral("digraph {\n 0 -> 1;\n 1 [label=\"oops];\n}\n")
                                     << QStringLiteral("x.dot:3") << QStringLiteral("never closed");
    QTest::newRow("unclosed comment") << QStringLiteral("digraph {\n 0 -> 1;\n /* note\n}\n")
                                      << QStringLiteral("x.dot:3") << QStringLiteral("never closed");
    QTest::newRow("subgraph") << QStringLiteral("digraph {\n 0 -> 1;\n subgraph s { 1 -> 2 }\n}\n")
                              << QStringLiteral("x.dot:3") << QStringLiteral("not supported");
    QTest::newRow("stray character") << QStringLiteral("digraph {\n 0 -> 1;\n 1 -> 2 <\n}\n")
                                     << QStringLiteral("x.dot:3") << QStringLiteral("\"<\"");
    QTest::newRow("not a graph") << QStringLiteral("\n\nhello\n") << QStringLiteral("x.dot:3")
                                 << QStringLiteral("\"digraph\"");
}

void TestGraphIo::malformedDotIsAnError()
{
    QFETCH(QString, text);
    QFETCH(QString, where);
    QFETCH(QString, says);
    auto g = graphFromDot(text.toStdString(), "x.dot");
    QVERIFY2(!g.ok(), "a malformed file was read as a graph");
    QCOMPARE(QString::fromStdString(g.error().where), where);
    QVERIFY2(QString::fromStdString(g.error().message).contains(says), g.error().toString().c_str());
}

void TestGraphIo::dotReadsCommonSyntax()
{
    // Comments, a strict named graph, default attributes, graph attributes, quoted ids, edge
    // chains, several statements on a line and attribute lists on edges.
    const std::string text = "// written by hand\n"
                             "strict digraph \"net\" {\n"
                             "  rankdir = LR; node [shape=circle, color=\"red\"]\n"
                             "  /* a chain\n     over two lines */\n"
                             "  0 -> 1 -> \"2\" [weight=3]; 2 -> 0\n"
                             "  # a preprocessor line\n"
                             "  3 [label=\"a \\\"b\\\"\"]; 3 -> 0;\n"
                             "}\n";
    auto g = graphFromDot(text, "net.dot");
    QVERIFY2(g.ok(), g.ok() ? "" : g.error().toString().c_str());
    QVERIFY(g->isDirected());
    QCOMPARE(g->nodeCount(), 4);
    QCOMPARE(g->edgeCount(), std::size_t(4));
    QVERIFY(g->hasEdge(0, 1) && g->hasEdge(1, 2) && g->hasEdge(2, 0) && g->hasEdge(3, 0));
}

void TestGraphIo::csvNodeOutOfRangeNamesItsLine()
{
    auto g = graphFromEdgeListCsv("# dplab graph: directed, 3 nodes\nfrom,to\n0,1\n1,7\n2,0\n", "n.csv", true);
    QVERIFY(!g.ok());
    QCOMPARE(QString::fromStdString(g.error().where), QStringLiteral("n.csv:4"));
}

QTEST_MAIN(TestGraphIo)
#include "tst_graphio.moc"
