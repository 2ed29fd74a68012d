// SPDX-License-Identifier: GPL-3.0-or-later
// Run identity: the key of a run's result is a function of its resolved specification, seed and
// repetition — not of key order, formatting, labels or the other runs.
#include "dplab/engine/experiment.h"
#include "dplab/engine/runidentity.h"

#include <gtest/gtest.h>

#include <string>

namespace dplab {
namespace {

const char *const kText = R"({
  "format": "dplab-experiment", "version": 1, "name": "identity", "seed": 7,
  "iterations": 50, "repetitions": 3,
  "graph": { "generator": { "type": "ring", "nodes": 4 }, "weights": { "scheme": "metropolis" } },
  "problem": { "type": "quadratic", "dimension": 2,
               "agents": [ {"A": [[2,0],[0,1]], "b": [1,0]}, {"A": [[1,0],[0,2]], "b": [0,1]},
                           {"A": [[3,1],[1,2]], "b": [1,1]}, {"A": [[1,0],[0,1]], "b": [-1,0]} ] },
  "runs": [ { "label": "a", "algorithm": "dgd", "params": { "stepsize": 0.1 } },
            { "label": "b", "algorithm": "gradient-tracking", "params": { "stepsize": 0.05 } } ]
})";

Experiment resolve(const Json &doc)
{
    auto e = resolveExperiment(doc, ".");
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().toString());
    return std::move(e.value());
}

std::string key(const Json &doc, int run = 0, int repetition = 0)
{
    return runIdentity(resolve(doc), run, repetition);
}

TEST(RunIdentity, IdenticalSpecificationsGiveIdenticalKeys)
{
    const Json doc = Json::parse(kText);
    EXPECT_EQ(key(doc), key(doc));
    EXPECT_EQ(key(doc).rfind("fnv1a128:", 0), 0u);
    EXPECT_EQ(key(doc).size(), std::string("fnv1a128:").size() + 32);
    // Resolving fills the defaults: writing one out explicitly changes nothing.
    const Experiment e = resolve(doc);
    Json explicitDoc = doc;
    explicitDoc["runs"][0]["params"] = e.resolved["runs"][0]["params"];
    EXPECT_EQ(key(explicitDoc), key(doc));
}

TEST(RunIdentity, KeyOrderFormattingAndNumberSpellingDoNotMatter)
{
    const Json doc = Json::parse(kText);
    // The same document with its keys in another order and other white space, and 2 written 2.0.
    const std::string reordered = R"({"runs":[{"params":{"stepsize":1e-1},"algorithm":"dgd","label":"a"},
        {"params":{"stepsize":0.05},"label":"b","algorithm":"gradient-tracking"}],
      "problem":{"agents":[{"b":[1,0],"A":[[2.0,0],[0,1]]},{"b":[0,1],"A":[[1,0],[0,2]]},
                           {"b":[1,1],"A":[[3,1],[1,2]]},{"b":[-1,0],"A":[[1,0],[0,1]]}],
                 "dimension":2,"type":"quadratic"},
      "graph":{"weights":{"scheme":"metropolis"},"generator":{"nodes":4,"type":"ring"}},
      "repetitions":3,"iterations":50,"seed":7,"name":"identity","version":1,"format":"dplab-experiment"})";
    EXPECT_EQ(key(Json::parse(reordered)), key(doc));
    EXPECT_EQ(canonicalJson(Json::parse("{\"b\": 1.0, \"a\": [2, 0.5]}")), "{\"a\":[2,0.5],\"b\":1}");
}

TEST(RunIdentity, WhatDoesNotReachTheNumbersIsLeftOut)
{
    const Json doc = Json::parse(kText);
    Json other = doc;
    other["name"] = "another name";
    other["runs"][0]["label"] = "renamed";
    other["repetitions"] = 9;                      // repetition 0 is the same job
    other["runs"][1]["params"]["stepsize"] = 0.07; // another run
    EXPECT_EQ(key(other), key(doc));
    // The whole run's result does depend on how many repetitions it has.
    EXPECT_NE(key(other, 0, -1), key(doc, 0, -1));
}

TEST(RunIdentity, AnyParameterSeedOrRepetitionChangesTheKey)
{
    const Json doc = Json::parse(kText);
    const std::string base = key(doc);
    auto changed = [&](const std::string &what, auto edit) {
        Json d = doc;
        edit(d);
        EXPECT_NE(key(d), base) << what;
    };
    changed("stepsize", [](Json &d) { d["runs"][0]["params"]["stepsize"] = 0.1000000001; });
    changed("seed", [](Json &d) { d["seed"] = 8; });
    changed("iterations", [](Json &d) { d["iterations"] = 51; });
    changed("algorithm", [](Json &d) { d["runs"][0]["algorithm"] = "gradient-tracking"; });
    changed("graph", [](Json &d) { d["graph"]["generator"]["type"] = "complete"; });
    changed("weights", [](Json &d) { d["graph"]["weights"]["scheme"] = "max-degree"; });
    changed("problem", [](Json &d) { d["problem"]["agents"][3]["b"][0] = -2; });
    changed("init", [](Json &d) { d["runs"][0]["init"] = {{"type", "random"}}; });
    changed("common random numbers", [](Json &d) { d["common_random_numbers"] = false; });
    EXPECT_NE(key(doc, 0, 1), base);
    EXPECT_NE(key(doc, 1, 0), base);
    // Without common random numbers the run index keys the noise: two identical runs differ.
    Json twins = doc;
    twins["runs"][1] = twins["runs"][0];
    twins["runs"][1]["label"] = "a twin";
    EXPECT_EQ(key(twins, 0), key(twins, 1));
    twins["common_random_numbers"] = false;
    EXPECT_NE(key(twins, 0), key(twins, 1));
}

TEST(RunIdentity, SweepPointsHaveTheKeyOfTheirOwnDocument)
{
    Json doc = Json::parse(kText);
    doc["sweep"] = {{"parameter", "runs[*].params.stepsize"}, {"values", {0.1, 0.2}}};
    const Experiment swept = resolve(doc);
    Json plain = Json::parse(kText);
    auto k0 = runIdentityAt(swept, 0, 0, 0);
    ASSERT_TRUE(k0.ok()) << k0.error().toString();
    EXPECT_EQ(*k0, key(plain)); // stepsize 0.1 is the file's own value
    plain["runs"][0]["params"]["stepsize"] = 0.2;
    auto k1 = runIdentityAt(swept, 1, 0, 0);
    ASSERT_TRUE(k1.ok());
    EXPECT_EQ(*k1, key(plain));
    EXPECT_FALSE(runIdentityAt(swept, 2, 0, 0).ok());
}

TEST(RunIdentity, RunKeyIsTheIdentityAndTheSpecificationItHashes)
{
    const Experiment e = resolve(Json::parse(kText));
    for (int run = 0; run < 2; ++run) {
        const RunKey k = runKey(e, run);
        EXPECT_EQ(k.specification, runSpecification(e, run));
        EXPECT_EQ(k.identity, runIdentity(e, run, -1));
        // The key hashes the specification with the number of repetitions, written out here.
        const Json whole = {{"specification", runSpecification(e, run)}, {"repetitions", e.repetitions}};
        EXPECT_EQ(k.identity, canonicalHash(whole));
        const Json one = {{"specification", runSpecification(e, run)}, {"repetition", 2}};
        EXPECT_EQ(runIdentity(e, run, 2), canonicalHash(one));
    }
    EXPECT_NE(runKey(e, 0).identity, runKey(e, 1).identity);
}

} // namespace
} // namespace dplab
