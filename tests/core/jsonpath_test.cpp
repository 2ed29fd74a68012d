// SPDX-License-Identifier: GPL-3.0-or-later
// JSON paths (dplab/engine/jsonpath.h): one syntax for a sweep's parameter, the presentation's
// hidden_params / locked and tune --param. Every form one of the three former parsers accepted
// is here: the forms of the syntax still work in all three places, the others are errors naming
// the field in all three.
#include "dplab/engine/experiment.h"
#include "dplab/engine/jsonpath.h"
#include "dplab/engine/presentation.h"
#include "dplab/engine/tuning.h"

#include <gtest/gtest.h>

#include <limits>

namespace dplab {
namespace {

using Segments = std::vector<std::string>;

Json twoRuns()
{
    return Json::parse(R"({
      "format": "dplab-experiment", "version": 1, "seed": 3, "iterations": 10,
      "graph": { "generator": { "type": "ring", "nodes": 4 }, "weights": { "scheme": "metropolis" } },
      "problem": { "type": "quadratic", "dimension": 2,
                   "agents": [ {"A": [[1,0],[0,1]], "b": [1,0]}, {"A": [[1,0],[0,1]], "b": [0,1]},
                               {"A": [[1,0],[0,1]], "b": [1,1]}, {"A": [[1,0],[0,1]], "b": [-1,0]} ] },
      "runs": [ { "label": "a", "algorithm": "dgd", "params": { "stepsize": 0.1 } },
                { "label": "b", "algorithm": "dgd", "params": { "stepsize": 0.2 } } ]
    })");
}

// The forms every parser accepted, and still does.
const std::vector<std::pair<std::string, Segments>> kValid = {
    {"iterations", {"iterations"}},
    {"graph.generator.nodes", {"graph", "generator", "nodes"}},
    {"runs[1].params.stepsize", {"runs", "[1]", "params", "stepsize"}},
    {"runs[*].params.stepsize", {"runs", "[*]", "params", "stepsize"}},
    {"runs[0].params", {"runs", "[0]", "params"}},
    {"runs[10]", {"runs", "[10]"}},
    {"m[0][2].x", {"m", "[0]", "[2]", "x"}},
    {"runs[0].params.stepsize.a", {"runs", "[0]", "params", "stepsize", "a"}},
};

// Forms outside the syntax, with the parsers that accepted them before (E: sweeps and
// setJsonPath, P: presentation paths, T: tune --param).
const std::vector<std::string> kInvalid = {
    "",                      // none
    "runs..params",          // E (as runs.params)
    ".iterations",           // E
    "iterations.",           // E, P
    "runs[0]params",         // E, P, T (T then cut the key's first letter)
    "runs[0]..params",       // E, T
    "[0].params",            // E, P (then refused: not a known top level)
    "runs[].params",         // none (E: "bad index")
    "runs[ 1].params",       // E, T
    "runs[+1].params",       // E, T
    "runs[1x].params",       // E (as runs[1])
    "runs[-1].params",       // none
    "runs[0.params",         // none
    "runs]0].params",        // E, P, T (as a key "runs]0]")
};

TEST(JsonPath, SplitsTheFormsOfTheSyntax)
{
    for (const auto &[path, segments] : kValid) {
        auto split = splitJsonPath(path, "field");
        ASSERT_TRUE(split.ok()) << path << ": " << split.error().toString();
        EXPECT_EQ(*split, segments) << path;
    }
    EXPECT_EQ(jsonPathIndex("[12]"), 12u);
    EXPECT_EQ(jsonPathIndex("[*]"), std::numeric_limits<std::size_t>::max());
    EXPECT_EQ(jsonPathIndex("[99999999999999999999999]"), std::numeric_limits<std::size_t>::max());
}

TEST(JsonPath, RefusesEveryOtherFormNamingTheField)
{
    for (const std::string &path : kInvalid) {
        auto split = splitJsonPath(path, "sweep.parameter");
        ASSERT_FALSE(split.ok()) << path;
        EXPECT_EQ(split.error().where, "sweep.parameter") << path;
        EXPECT_NE(split.error().message.find("\"" + path + "\" is not a JSON path"), std::string::npos)
            << split.error().toString();
    }
}

TEST(JsonPath, SweepsSetTheSyntaxAndRefuseTheRest)
{
    Json doc = twoRuns();
    ASSERT_TRUE(setJsonPath(doc, "runs[*].params.stepsize", 0.3).ok());
    EXPECT_EQ(doc["runs"][0]["params"]["stepsize"], 0.3);
    EXPECT_EQ(doc["runs"][1]["params"]["stepsize"], 0.3);
    ASSERT_TRUE(setJsonPath(doc, "runs[1].params.stepsize", 0.4).ok());
    EXPECT_EQ(doc["runs"][1]["params"]["stepsize"], 0.4);
    ASSERT_TRUE(setJsonPath(doc, "runs[0].privacy.noise_theta", 0.5).ok()); // creates the object
    EXPECT_EQ(doc["runs"][0]["privacy"]["noise_theta"], 0.5);
    ASSERT_TRUE(setJsonPath(doc, "runs[0].privacy.noise_theta", 0.7).ok()); // into the object
    EXPECT_EQ(doc["runs"][0]["privacy"]["noise_theta"], 0.7);
    EXPECT_FALSE(setJsonPath(doc, "runs[99999999999999999999999].params.stepsize", 1).ok());
    EXPECT_FALSE(setJsonPath(doc, "runs[7].params.stepsize", 1).ok()); // no such run
    doc["name"] = "two runs";
    EXPECT_FALSE(setJsonPath(doc, "name.x", 1).ok()); // into a string
    for (const std::string &path : kInvalid) {
        Json copy = twoRuns();
        const Status s = setJsonPath(copy, path, 1);
        ASSERT_FALSE(s.ok()) << path;
        EXPECT_EQ(s.error().where, "sweep.parameter");
        EXPECT_EQ(copy, twoRuns()) << path; // nothing set
    }
    // Through the experiment file: the sweep's error names sweep.parameter.
    Json swept = twoRuns();
    swept["sweep"] = {{"parameter", "runs..params.stepsize"}, {"values", {0.1, 0.2}}};
    auto e = resolveExperiment(swept, ".");
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().where, "sweep.parameter") << e.error().toString();
}

TEST(JsonPath, PresentationPathsTakeTheSyntaxAndRefuseTheRest)
{
    auto e = resolveExperiment(twoRuns(), ".");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    for (const char *path : {"runs[0].params.stepsize", "runs[*].params.stepsize", "runs[1].params", "iterations"}) {
        auto p = parsePresentation(Json{{"locked", Json::array({path})}}, e->resolved);
        ASSERT_TRUE(p.ok()) << path << ": " << p.error().toString();
        EXPECT_TRUE(p->isLocked(path)) << path;
    }
    for (const std::string &path : kInvalid) {
        auto p = parsePresentation(Json{{"hidden_params", Json::array({"iterations", path})}}, e->resolved);
        ASSERT_FALSE(p.ok()) << path;
        EXPECT_EQ(p.error().where, "presentation.hidden_params[1]") << p.error().toString();
    }
    EXPECT_TRUE(jsonPathMatches("runs[*].params", "runs[3].params.stepsize"));
    EXPECT_FALSE(jsonPathMatches("runs[*].params", "runs[3]params.stepsize"));
    EXPECT_FALSE(jsonPathMatches("iterations.", "iterations"));
    EXPECT_EQ(findJsonPath(e->resolved, "runs[0]params"), nullptr);
    ASSERT_NE(findJsonPath(e->resolved, "runs[*].params.stepsize"), nullptr);
}

TEST(JsonPath, TuneParamTakesTheSyntaxAndRefusesTheRest)
{
    auto e = parseExperiment(twoRuns(), ".");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    TuneOptions o{.parameter = "", .lo = 0.01, .hi = 0.5, .logScale = true, .metric = "distance_to_optimum"};
    for (const char *path : {"params.stepsize", "params.stepsize.a", "runs[0].params.stepsize",
                             "runs[*].params.stepsize", "params.alpha,params.stepsize.a", "iterations"}) {
        o.parameter = path;
        if (std::string(path) == "iterations") {
            o.lo = 2;
            o.hi = 20;
        }
        const Status s = checkTuneOptions(*e, o);
        EXPECT_TRUE(s.ok()) << path << ": " << s.error().toString();
    }
    o.lo = 0.01;
    o.hi = 0.5;
    for (const std::string &path : kInvalid) {
        o.parameter = path;
        const Status s = checkTuneOptions(*e, o);
        ASSERT_FALSE(s.ok()) << path;
        EXPECT_EQ(s.error().where, "--param") << s.error().toString();
        EXPECT_NE(s.error().message.find("is not a JSON path"), std::string::npos) << s.error().toString();
    }
    o.parameter = "params.stepsize,params..alpha";
    const Status s = checkTuneOptions(*e, o);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("\"params..alpha\" is not a JSON path"), std::string::npos) << s.error().toString();
}

} // namespace
} // namespace dplab
