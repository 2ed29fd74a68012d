// SPDX-License-Identifier: GPL-3.0-or-later
// docs/algorithms.md's table against the registry: every registered algorithm has a row (id,
// graph kind, a page that exists), and the table names no algorithm the registry lacks. This
// executable links only core, so its registry holds exactly the built-in algorithms.
#include "dplab/algo/algorithm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace dplab {
namespace {

struct Row {
    std::string graph;
    std::string page;
};

std::string docsDir()
{
    return std::string(DPLAB_TEST_SOURCE_DIR) + "/docs";
}

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/** The rows of the table whose header is "| id | algorithm | graph | page |", by id. */
std::map<std::string, Row> tableRows(const std::string &markdown)
{
    std::map<std::string, Row> rows;
    std::istringstream in(markdown);
    std::string line;
    bool inTable = false;
    const std::regex row(R"(^\|\s*`([^`]+)`\s*\|[^|]*\|\s*([^|]*?)\s*\|\s*\[[^\]]*\]\(([^)]*)\)\s*\|\s*$)");
    while (std::getline(in, line)) {
        if (line.rfind("| id | algorithm | graph | page |", 0) == 0) {
            inTable = true;
            continue;
        }
        if (!inTable)
            continue;
        if (line.rfind("|---", 0) == 0)
            continue;
        if (line.empty() || line[0] != '|')
            break;
        std::smatch m;
        EXPECT_TRUE(std::regex_match(line, m, row)) << "malformed row: " << line;
        if (m.size() == 4) {
            EXPECT_EQ(rows.count(m[1]), 0u) << "id twice: " << m[1];
            rows[m[1]] = {m[2], m[3]};
        }
    }
    return rows;
}

/** GitHub's anchor of a heading: lower case, spaces to '-', punctuation dropped. */
std::string anchorOf(const std::string &heading)
{
    std::string out;
    for (char c : heading) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else if (c == ' ' || c == '-')
            out += '-';
    }
    return out;
}

bool hasAnchor(const std::string &markdown, const std::string &anchor)
{
    std::istringstream in(markdown);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("#", 0) == 0 && anchorOf(line.substr(line.find_first_not_of('#') + 1)) == anchor)
            return true;
    return false;
}

TEST(AlgorithmsDoc, TableListsEveryRegisteredAlgorithmAndNothingElse)
{
    const std::string markdown = readFile(docsDir() + "/algorithms.md");
    ASSERT_FALSE(markdown.empty());
    const std::map<std::string, Row> rows = tableRows(markdown);
    ASSERT_FALSE(rows.empty()) << "no \"| id | algorithm | graph | page |\" table in docs/algorithms.md";
    for (const AlgorithmDescriptor &d : algorithmRegistry()) {
        SCOPED_TRACE(d.id);
        const auto it = rows.find(d.id);
        if (it == rows.end()) {
            ADD_FAILURE() << "registered but missing from docs/algorithms.md's table";
            continue;
        }
        EXPECT_EQ(it->second.graph, graphKindName(d.graphKind));
        const std::string &page = it->second.page;
        if (page.rfind("#", 0) == 0) {
            EXPECT_TRUE(hasAnchor(markdown, page.substr(1))) << "no heading for " << page;
        } else {
            const std::string file = page.substr(0, page.find('#'));
            EXPECT_TRUE(std::filesystem::is_regular_file(docsDir() + "/" + file)) << "no page docs/" << file;
        }
    }
    for (const auto &[id, row] : rows)
        EXPECT_NE(findAlgorithm(id), nullptr) << "docs/algorithms.md lists `" << id << "`, which is not registered";
}

} // namespace
} // namespace dplab
