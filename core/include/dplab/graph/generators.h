// SPDX-License-Identifier: GPL-3.0-or-later
//
// Graph generators. Each has a Descriptor (id, parameters with defaults and ranges) and is
// called with a resolved JSON parameter object. Random generators draw only from
// Rng::stream(seed, 0, 0, -1, RngPurpose::Graph) with the generator's own "seed" parameter, so
// a (type, params) pair always gives the same graph. Generated graphs carry circular positions.
//
// Generators (id: parameters; "nodes" is 1..1000 unless noted, "seed" defaults to 1):
//   ring                       nodes                      undirected cycle
//   directed-ring              nodes                      i -> i+1 (mod n)
//   path, star, complete       nodes                      undirected (star: centre 0)
//   grid, torus                nodes, rows, cols          rows × cols lattice (torus: wrapped);
//                              rows = cols = 0: most square factorisation of nodes; one of them
//                              0: nodes / the other (must divide); both > 0: nodes must equal
//                              rows × cols (error at "nodes" otherwise)
//   erdos-renyi                nodes, p, directed, seed   redrawn until (strongly) connected,
//                              at most 100 draws, then an error at "p"
//   watts-strogatz             nodes, k (even, < nodes), beta, seed   redrawn until connected
//   exponential                nodes, directed (default true)   i -> i + 2^k mod n (BlueFog)
//   random-strongly-connected  nodes, p, seed             random Hamiltonian cycle + arcs w.p. p
//   ring4-family               nodes (fixed 4), parametrisation ("targets" | "r-d"), rho_wo,
//                              rho_w, r, d                paper 003's undirected 4-ring; pair it
//                              with the "ring4-family" weight scheme and the same parameters
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
