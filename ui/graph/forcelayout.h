// SPDX-License-Identifier: GPL-3.0-or-later
//
// Force-directed layout (Fruchterman–Reingold: springs along edges, repulsion between all
// pairs, a cooling temperature) for the graph editor. Deterministic: it starts from the given
// positions (nodes on top of each other are spread on a small circle first), never from random
// numbers. The result is scaled to the radius of the start layout so the picture keeps its size.
//
// Threading: pure function. Cost: O(iterations · n²).
#pragma once

#include "dplab/graph/graph.h"

#include <vector>

namespace dplab {

std::vector<NodePosition> forceDirectedLayout(const Graph &graph, std::vector<NodePosition> start,
                                              int iterations = 300);

} // namespace dplab
