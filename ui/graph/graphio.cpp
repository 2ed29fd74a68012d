// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphio.h"

#include "dplab/common/formatnumber.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <optional>
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
    return formatNumber(v, 10);
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
    std::vector<int> edgeLines;
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
        edgeLines.push_back(lineNo);
        maxIndex = std::max({maxIndex, a, b});
    }
    if (nodes < 0)
        nodes = maxIndex + 1;
    for (std::size_t k = 0; k < edges.size(); ++k)
        if (std::max(edges[k].from, edges[k].to) >= nodes)
            return Error::parse(name + ":" + std::to_string(edgeLines[k]),
                                "edge uses node " + std::to_string(std::max(edges[k].from, edges[k].to))
                                    + " but the graph has " + std::to_string(nodes) + " nodes");
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

namespace {

// A tokenizer and recursive-descent reader for the DOT subset the editor writes and common
// tools produce: [strict] (graph|digraph) [id] { statements } with node statements
// (`3 [pos="x,y!"]`), edge chains (`0 -> 1 -> 2 [attrs]`), default attribute statements
// (`node [shape=circle]`), graph attributes (`rankdir=LR`) and comments (//, /* */, # lines).
// Anything else is an error naming its line: a half-written file never yields part of a graph.
struct DotToken {
    enum Kind { End, Id, Quoted, LBrace, RBrace, LBracket, RBracket, Equals, Semicolon, Comma, Arrow, Dash, Other };
    Kind kind = End;
    std::string text;
    int line = 1;
};

std::string describe(const DotToken &t)
{
    return t.kind == DotToken::End ? std::string("the end of the file") : "\"" + t.text + "\"";
}

class DotReader
{
public:
    DotReader(const std::string &text, const std::string &name)
        : mText(text)
        , mName(name)
    {
    }

    Result<Graph> read();

private:
    Result<DotToken> lex();
    Status advance()
    {
        auto t = lex();
        if (!t)
            return t.error();
        mToken = std::move(*t);
        return {};
    }
    Error error(const DotToken &at, const std::string &message) const
    {
        return Error::parse(mName + ":" + std::to_string(at.line), message);
    }
    Status expect(DotToken::Kind kind, const std::string &what)
    {
        if (mToken.kind != kind)
            return error(mToken, "expected " + what + ", got " + describe(mToken));
        return advance();
    }
    Result<int> nodeId();
    /** Reads "[a=b, c=d] [..]..." when present; returns pos when one was given. */
    Status attributes(std::optional<NodePosition> *pos);
    Status statement();

    const std::string &mText;
    const std::string &mName;
    std::size_t mAt = 0;
    int mLine = 1;
    DotToken mToken;
    bool mDirected = false;
    std::vector<Edge> mEdges;
    std::map<int, NodePosition> mPositions;
    int mMaxIndex = -1;
};

Result<DotToken> DotReader::lex()
{
    const std::string &s = mText;
    for (;;) { // whitespace and comments
        while (mAt < s.size() && (s[mAt] == ' ' || s[mAt] == '\t' || s[mAt] == '\r' || s[mAt] == '\n')) {
            if (s[mAt] == '\n')
                ++mLine;
            ++mAt;
        }
        auto atLineStart = [&] {
            std::size_t k = mAt;
            while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t' || s[k - 1] == '\r'))
                --k;
            return k == 0 || s[k - 1] == '\n';
        };
        if (mAt < s.size() && s[mAt] == '#' && atLineStart()) { // C preprocessor output lines
            while (mAt < s.size() && s[mAt] != '\n')
                ++mAt;
            continue;
        }
        if (s.compare(mAt, 2, "//") == 0) {
            while (mAt < s.size() && s[mAt] != '\n')
                ++mAt;
            continue;
        }
        if (s.compare(mAt, 2, "/*") == 0) {
            const int startLine = mLine;
            const auto close = s.find("*/", mAt + 2);
            if (close == std::string::npos)
                return Error::parse(mName + ":" + std::to_string(startLine), "comment \"/*\" is never closed");
            mLine += static_cast<int>(std::count(s.begin() + mAt, s.begin() + close, '\n'));
            mAt = close + 2;
            continue;
        }
        break;
    }
    DotToken t;
    t.line = mLine;
    if (mAt >= s.size())
        return t;
    const char c = s[mAt];
    auto single = [&](DotToken::Kind kind) {
        t.kind = kind;
        t.text = std::string(1, c);
        ++mAt;
        return t;
    };
    switch (c) {
    case '{': return single(DotToken::LBrace);
    case '}': return single(DotToken::RBrace);
    case '[': return single(DotToken::LBracket);
    case ']': return single(DotToken::RBracket);
    case '=': return single(DotToken::Equals);
    case ';': return single(DotToken::Semicolon);
    case ',': return single(DotToken::Comma);
    default: break;
    }
    if (s.compare(mAt, 2, "->") == 0 || s.compare(mAt, 2, "--") == 0) {
        t.kind = s[mAt + 1] == '>' ? DotToken::Arrow : DotToken::Dash;
        t.text = s.substr(mAt, 2);
        mAt += 2;
        return t;
    }
    if (c == '"') {
        ++mAt;
        t.kind = DotToken::Quoted;
        while (mAt < s.size() && s[mAt] != '"') {
            if (s[mAt] == '\\' && mAt + 1 < s.size()) {
                if (s[mAt + 1] == '\n')
                    ++mLine;
                else if (s[mAt + 1] != '"')
                    t.text += '\\';
                t.text += s[mAt + 1] == '\n' ? std::string() : std::string(1, s[mAt + 1]);
                mAt += 2;
                continue;
            }
            if (s[mAt] == '\n')
                ++mLine;
            t.text += s[mAt++];
        }
        if (mAt >= s.size())
            return Error::parse(mName + ":" + std::to_string(t.line), "quoted string is never closed");
        ++mAt;
        return t;
    }
    auto idChar = [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_'
               || ch == '.' || (static_cast<unsigned char>(ch) >= 0x80);
    };
    if (idChar(c) || c == '-') { // identifiers and numerals (a numeral may start with '-')
        t.kind = DotToken::Id;
        t.text += s[mAt++];
        while (mAt < s.size() && idChar(s[mAt]))
            t.text += s[mAt++];
        return t;
    }
    t.kind = DotToken::Other;
    t.text = std::string(1, c);
    ++mAt;
    return t;
}

Result<int> DotReader::nodeId()
{
    const DotToken t = mToken;
    if (t.kind != DotToken::Id && t.kind != DotToken::Quoted)
        return error(t, "expected a node id, got " + describe(t));
    int index = 0;
    if (!parseIndex(t.text, index))
        return error(t, "node ids must be integers 0..999999, got " + describe(t));
    if (Status s = advance(); !s)
        return s.error();
    mMaxIndex = std::max(mMaxIndex, index);
    return index;
}

Status DotReader::attributes(std::optional<NodePosition> *pos)
{
    while (mToken.kind == DotToken::LBracket) {
        if (Status s = advance(); !s)
            return s;
        while (mToken.kind != DotToken::RBracket) {
            if (mToken.kind != DotToken::Id && mToken.kind != DotToken::Quoted)
                return error(mToken, "expected an attribute name or \"]\", got " + describe(mToken));
            const DotToken key = mToken;
            if (Status s = advance(); !s)
                return s;
            if (mToken.kind == DotToken::Equals) {
                if (Status s = advance(); !s)
                    return s;
                if (mToken.kind != DotToken::Id && mToken.kind != DotToken::Quoted)
                    return error(mToken, "expected a value for \"" + key.text + "\", got " + describe(mToken));
                const DotToken value = mToken;
                if (Status s = advance(); !s)
                    return s;
                if (key.text == "pos" && pos) {
                    static const std::regex coordinates(R"(\s*([^,\s]+)\s*,\s*([^,!\s]+)\s*!?\s*)");
                    std::smatch p;
                    double x = 0, y = 0;
                    if (!std::regex_match(value.text, p, coordinates) || !parseCoordinate(p[1], x)
                        || !parseCoordinate(p[2], y))
                        return error(value, "pos must be two finite numbers \"x,y\", got \"" + value.text + "\"");
                    *pos = NodePosition{x, y};
                }
            }
            if (mToken.kind == DotToken::Comma || mToken.kind == DotToken::Semicolon)
                if (Status s = advance(); !s)
                    return s;
            if (mToken.kind == DotToken::End)
                return error(mToken, "attribute list \"[\" is never closed");
        }
        if (Status s = advance(); !s)
            return s;
    }
    return {};
}

Status DotReader::statement()
{
    const DotToken first = mToken;
    if (first.kind == DotToken::Id && (first.text == "graph" || first.text == "node" || first.text == "edge")) {
        if (Status s = advance(); !s)
            return s;
        if (mToken.kind != DotToken::LBracket)
            return error(mToken, "expected \"[\" after \"" + first.text + "\", got " + describe(mToken));
        return attributes(nullptr);
    }
    if (first.kind == DotToken::Id && (first.text == "subgraph" || first.text == "strict" || first.text == "digraph"))
        return error(first, "\"" + first.text + "\" is not supported inside the graph");
    if (first.kind == DotToken::LBrace)
        return error(first, "subgraphs \"{ … }\" are not supported");
    if (first.kind != DotToken::Id && first.kind != DotToken::Quoted)
        return error(first, "expected a node, an edge or an attribute, got " + describe(first));
    if (Status s = advance(); !s)
        return s;
    if (mToken.kind == DotToken::Equals) { // a graph attribute: id = id
        if (Status s = advance(); !s)
            return s;
        if (mToken.kind != DotToken::Id && mToken.kind != DotToken::Quoted)
            return error(mToken, "expected a value for \"" + first.text + "\", got " + describe(mToken));
        return advance();
    }
    int from = 0;
    if (!parseIndex(first.text, from))
        return error(first, "node ids must be integers 0..999999, got " + describe(first));
    mMaxIndex = std::max(mMaxIndex, from);
    if (mToken.kind != DotToken::Arrow && mToken.kind != DotToken::Dash) { // a node statement
        std::optional<NodePosition> pos;
        if (Status s = attributes(&pos); !s)
            return s;
        if (pos)
            mPositions[from] = *pos;
        return {};
    }
    while (mToken.kind == DotToken::Arrow || mToken.kind == DotToken::Dash) {
        const DotToken op = mToken;
        if ((op.kind == DotToken::Arrow) != mDirected)
            return error(op, mDirected ? "\"--\" in a digraph" : "\"->\" in an undirected graph");
        if (Status s = advance(); !s)
            return s;
        auto to = nodeId();
        if (!to)
            return to.error();
        if (*to == from)
            return error(op, "self-loop " + std::to_string(from));
        mEdges.push_back({from, *to});
        from = *to;
    }
    return attributes(nullptr);
}

Result<Graph> DotReader::read()
{
    if (Status s = advance(); !s)
        return s.error();
    if (mToken.kind == DotToken::Id && mToken.text == "strict")
        if (Status s = advance(); !s)
            return s.error();
    if (mToken.kind != DotToken::Id || (mToken.text != "graph" && mToken.text != "digraph"))
        return error(mToken, "expected \"graph\" or \"digraph\", got " + describe(mToken));
    mDirected = mToken.text == "digraph";
    if (Status s = advance(); !s)
        return s.error();
    if (mToken.kind == DotToken::Id || mToken.kind == DotToken::Quoted) // the graph's name
        if (Status s = advance(); !s)
            return s.error();
    if (Status s = expect(DotToken::LBrace, "\"{\""); !s)
        return s.error();
    while (mToken.kind != DotToken::RBrace) {
        if (mToken.kind == DotToken::End)
            return error(mToken, "missing \"}\" at the end of the graph");
        if (mToken.kind == DotToken::Semicolon) {
            if (Status s = advance(); !s)
                return s.error();
            continue;
        }
        if (Status s = statement(); !s)
            return s.error();
    }
    if (Status s = advance(); !s)
        return s.error();
    if (mToken.kind != DotToken::End)
        return error(mToken, "unexpected " + describe(mToken) + " after the graph's closing \"}\"");
    if (mMaxIndex < 0)
        return Error::parse(mName, "no nodes");
    Graph g(mMaxIndex + 1, mDirected);
    for (const Edge &e : mEdges)
        g.addEdge(e.from, e.to);
    if (static_cast<int>(mPositions.size()) == g.nodeCount()) {
        std::vector<NodePosition> list;
        for (const auto &entry : mPositions)
            list.push_back(entry.second);
        g.setPositions(std::move(list));
    }
    return g;
}

} // namespace

Result<Graph> graphFromDot(const std::string &text, const std::string &name)
{
    return DotReader(text, name).read();
}

} // namespace dplab
