// SPDX-License-Identifier: GPL-3.0-or-later
//
// Graph generators. Each has a Descriptor (id, parameters with defaults and ranges) and is
// called with a resolved JSON parameter object. Random generators draw only from
// Rng::stream(seed, 0, 0, -1, RngPurpose::Graph) with the generator's own "seed" parameter, so
// a (type, params) pair always gives the same graph. Generated graphs carry circular positions.
//
// Threading: pure functions.
#pragma once

#include "dplab/common/params.h"
#include "dplab/graph/graph.h"

#include <vector>

namespace dplab {

/** All generators, in the order the GUI lists them. Every one has an integer "nodes" param
 *  (except where the structure fixes n, e.g. "ring4-family" has nodes = 4). */
const std::vector<Descriptor> &generatorDescriptors();
const Descriptor *findGenerator(const std::string &id);

/** Builds the graph. `spec` is the experiment's `graph.generator` object (with "type");
 *  errors name `path` (e.g. "graph.generator.p: must be in [0, 1]"). */
Result<Graph> generateGraph(const Json &spec, const std::string &path);

/** Circular layout on the unit circle (node 0 at the top, counter-clockwise). */
std::vector<NodePosition> circularLayout(int n);

} // namespace dplab
