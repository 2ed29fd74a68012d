// SPDX-License-Identifier: GPL-3.0-or-later
//
// The graph a generator spec gives, for tests of graphs and weights: a failure is a test failure
// (with the error) and an empty graph. Included by path ("../common/generatedgraph.h").
#pragma once

#include "dplab/graph/generators.h"

#include <gtest/gtest.h>

namespace dplab::test {

inline Graph generate(const Json &spec)
{
    auto g = generateGraph(spec, "graph.generator");
    EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().toString());
    return g.ok() ? *g : Graph();
}

} // namespace dplab::test
