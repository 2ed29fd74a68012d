// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphio.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <regex>
#include <sstream>

namespace dplab {

namespace {

std::string trim(const std::string &s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
        return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

bool parseIndex(const std::string &s, int &out)
{
    const std::string t = trim(s);
    if (t.empty() || !std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }) || t.size() > 6)
        return false;
    out = std::stoi(t);
    return true;
}

/** A finite number (std::stod would throw on "e" or 1e999). */
bool parseCoordinate(const std::string &s, double &out)
{
    char *end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size() && !s.empty() && std::isfinite(out);
}

std::string number(double v)
{
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.10g", v);
    return buffer;
}

} // namespace

std::string graphToEdgeListCsv(const Graph &graph)
{
    std::string out = "# dplab graph: " + std::string(graph.isDirected() ? "directed" : "undirected") + ", "
                      + std::to_string(graph.nodeCount()) + " nodes\nfrom,to\n";
    for (const Edge &e : graph.edges())
        out += std::to_string(e.from) + "," + std::to_string(e.to) + "\n";
    return out;
}

Result<Graph> graphFromEdgeListCsv(const std::string &text, const std::string &name, bool directedDefault)
{
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    int nodes = -1;
    bool directed = directedDefault;
    std::vector<Edge> edges;
    int maxIndex = -1;
    static const std::regex header(R"(#\s*dplab graph:\s*(directed|undirected)\s*,\s*(\d+)\s*nodes)");
    while (std::getline(in, line)) {
        ++lineNo;
        const std::string t = trim(line);
        const std::string where = name + ":" + std::to_string(lineNo);
        if (t.empty())
            continue;
        if (t[0] == '#') {
            std::smatch m;
            if (std::regex_search(t, m, header)) {
                directed = m[1] == "directed";
                if (!parseIndex(m[2], nodes)) // at most 999999: std::stoi would throw on more
                    return Error::parse(where, "node count " + std::string(m[2]) + " is too large");
            }
            continue;
        }
        if (t == "from,to" || t == "source,target")
            continue;
        const auto comma = t.find(',');
        int a = 0, b = 0;
        if (comma == std::string::npos || !parseIndex(t.substr(0, comma), a) || !parseIndex(t.substr(comma + 1), b))
            return Error::parse(where, "expected \"from,to\" with two node indices, got \"" + t + "\"");
        if (a == b)
            return Error::parse(where, "self-loop " + std::to_string(a) + " -> " + std::to_string(b));
        edges.push_back({a, b});
        maxIndex = std::max({maxIndex, a, b});
    }
    if (nodes < 0)
        nodes = maxIndex + 1;
    if (maxIndex >= nodes)
        return Error::parse(name, "edge uses node " + std::to_string(maxIndex) + " but the graph has "
                                      + std::to_string(nodes) + " nodes");
    if (nodes <= 0)
        return Error::parse(name, "no nodes");
    Graph g(nodes, directed);
    for (const Edge &e : edges)
        g.addEdge(e.from, e.to); // duplicates (and both directions of an undirected edge) collapse
    return g;
}

std::string graphToDot(const Graph &graph)
{
    const bool d = graph.isDirected();
    std::string out = std::string(d ? "digraph" : "graph") + " dplab {\n    node [shape=circle];\n";
    for (int i = 0; i < graph.nodeCount(); ++i) {
        out += "    " + std::to_string(i);
        if (graph.hasPositions())
            out += " [pos=\"" + number(graph.positions()[i].x) + "," + number(graph.positions()[i].y) + "!\"]";
        out += ";\n";
    }
    for (const Edge &e : graph.edges())
        out += "    " + std::to_string(e.from) + (d ? " -> " : " -- ") + std::to_string(e.to) + ";\n";
    out += "}\n";
    return out;
}

Result<Graph> graphFromDot(const std::string &text, const std::string &name)
{
    static const std::regex kind(R"(^\s*(strict\s+)?(digraph|graph)\b)");
    std::smatch m;
    if (!std::regex_search(text, m, kind))
        return Error::parse(name + ":1", "expected \"graph\" or \"digraph\"");
    const bool directed = m[2] == "digraph";
    static const std::regex edge(R"((\d+)\s*(->|--)\s*(\d+))");
    static const std::regex node(R"(^\s*(\d+)\s*(\[([^\]]*)\])?\s*;?\s*$)");
    static const std::regex pos(R"(pos\s*=\s*\"\s*([-+0-9.eE]+)\s*,\s*([-+0-9.eE]+)\s*!?\s*\")");
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    std::vector<Edge> edges;
    std::map<int, NodePosition> positions;
    int maxIndex = -1;
    while (std::getline(in, line)) {
        ++lineNo;
        const std::string where = name + ":" + std::to_string(lineNo);
        for (auto it = std::sregex_iterator(line.begin(), line.end(), edge); it != std::sregex_iterator(); ++it) {
            const std::smatch &e = *it;
            if ((e[2] == "->") != directed)
                return Error::parse(where, directed ? "\"--\" in a digraph" : "\"->\" in an undirected graph");
            int a = 0, b = 0;
            if (!parseIndex(e[1], a) || !parseIndex(e[3], b))
                return Error::parse(where, "node ids must be integers 0..n−1");
            if (a == b)
                return Error::parse(where, "self-loop " + std::to_string(a));
            edges.push_back({a, b});
            maxIndex = std::max({maxIndex, a, b});
        }
        std::smatch n;
        if (std::regex_match(line, n, node)) {
            int a = 0;
            if (parseIndex(n[1], a)) {
                maxIndex = std::max(maxIndex, a);
                const std::string attributes = n[3];
                std::smatch p;
                if (std::regex_search(attributes, p, pos)) {
                    double x = 0, y = 0;
                    if (!parseCoordinate(p[1], x) || !parseCoordinate(p[2], y))
                        return Error::parse(where, "pos must be two finite numbers");
                    positions[a] = {x, y};
                }
            }
        }
    }
    if (maxIndex < 0)
        return Error::parse(name, "no nodes");
    Graph g(maxIndex + 1, directed);
    for (const Edge &e : edges)
        g.addEdge(e.from, e.to);
    if (static_cast<int>(positions.size()) == g.nodeCount()) {
        std::vector<NodePosition> list;
        for (const auto &entry : positions)
            list.push_back(entry.second);
        g.setPositions(std::move(list));
    }
    return g;
}

} // namespace dplab
