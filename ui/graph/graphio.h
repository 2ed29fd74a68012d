// SPDX-License-Identifier: GPL-3.0-or-later
//
// Graph import/export for the editor: edge-list CSV and Graphviz DOT.
//   CSV: an optional comment "# dplab graph: directed|undirected, N nodes", an optional header
//        "from,to", then one "from,to" line per edge (j,i: j sends to i). Without the comment
//        the node count is the largest index + 1 and the kind is `directedDefault`.
//   DOT: "digraph { 0 -> 1; ... }" or "graph { 0 -- 1; ... }"; nodes are the integers 0..n−1;
//        positions are written as pos="x,y!" and read back when present. Read: node and edge
//        statements (chains "0 -> 1 -> 2"), attribute lists, default attribute statements
//        (node [...]), graph attributes (a = b) and comments; subgraphs, ports and HTML strings
//        are errors.
// Errors carry "file:line"; a file with any error gives no graph (never a partial one).
//
// Threading: pure functions.
#pragma once

#include "dplab/common/result.h"
#include "dplab/graph/graph.h"

#include <string>

namespace dplab {

std::string graphToEdgeListCsv(const Graph &graph);
Result<Graph> graphFromEdgeListCsv(const std::string &text, const std::string &name, bool directedDefault);

std::string graphToDot(const Graph &graph);
Result<Graph> graphFromDot(const std::string &text, const std::string &name);

} // namespace dplab
