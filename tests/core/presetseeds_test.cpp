// SPDX-License-Identifier: GPL-3.0-or-later
//
// Seed-following presets (docs/architecture.md §4): a start that a paper defines from the data
// (x_i(0) = a_i) is written as the init {"type": "targets"}, so `--seed` keeps the setting. The
// check runs every preset at its own seed and at another and compares each run's setting: what
// its initial points are relative to the data (zero, each agent's target, the optimum, none of
// these) and its resolved specification.
#include "dplab/algo/algorithm.h"
#include "dplab/engine/experiment.h"
#include "dplab/problem/paper003problems.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dplab {
namespace {

namespace fs = std::filesystem;

const std::string kPresets = std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets";

Json readPreset(const fs::path &path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return Json::parse(text.str());
}

bool sameMatrix(const Eigen::MatrixXd &a, const Eigen::MatrixXd &b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() && (a - b).cwiseAbs().maxCoeff() <= 1e-12;
}

/** What a run's start is relative to the data, and its resolved specification: the setting that
 *  must not depend on the seed. Starts are looked at only where the file gives them as data
 *  (explicit x, or targets); zeros and random starts are seed-relative by construction, and
 *  leaving their (large) data unloaded keeps the check fast. */
std::vector<std::string> settings(Experiment &e)
{
    bool dataStarts = false;
    for (const auto &run : e.runs)
        dataStarts = dataStarts || run.init.contains("x") || run.init.value("type", "") == "targets";
    if (dataStarts) {
        if (auto s = buildExperiment(e); !s)
            return {"does not build: " + s.error().message};
    }
    std::vector<std::string> out;
    for (int r = 0; r < static_cast<int>(e.runs.size()); ++r) {
        std::string s = e.resolved["runs"][static_cast<std::size_t>(r)].dump() + " start:";
        if (dataStarts) {
            const auto *rendezvous = dynamic_cast<const RendezvousProblem *>(e.problem.get());
            const auto optimum = e.problem->closedFormOptimum();
            const RunContext ctx = makeRunContext(e, r, 0);
            if (ctx.x0.isZero(0))
                s += " zero";
            if (rendezvous && sameMatrix(ctx.x0, rendezvous->points()))
                s += " targets";
            if (optimum && sameMatrix(ctx.x0, Eigen::MatrixXd(Eigen::VectorXd::Ones(ctx.x0.rows()) * optimum->transpose())))
                s += " optimum";
        } else {
            s += " " + e.runs[static_cast<std::size_t>(r)].init.value("type", std::string("zeros"));
        }
        out.push_back(s);
    }
    return out;
}

Result<Experiment> atSeed(Json doc, std::uint64_t seed)
{
    doc["seed"] = seed;
    doc.erase("sweep"); // the base document's runs carry the setting; sweeps vary other values
    return resolveExperiment(doc, kPresets);
}

/** Empty when the settings agree at the preset's seed and at seed + 1; else what differs. */
std::string compareSeeds(const Json &doc)
{
    const std::uint64_t seed = doc.value("seed", std::uint64_t{0});
    auto a = atSeed(doc, seed);
    auto b = atSeed(doc, seed + 1);
    if (!a || !b)
        return "does not load: " + (a ? b.error().message : a.error().message);
    const auto sa = settings(*a), sb = settings(*b);
    std::string diff;
    for (std::size_t r = 0; r < std::max(sa.size(), sb.size()); ++r) {
        const std::string x = r < sa.size() ? sa[r] : "", y = r < sb.size() ? sb[r] : "";
        if (x != y)
            diff += "runs[" + std::to_string(r) + "]: seed " + std::to_string(seed) + " gives «"
                    + x.substr(x.rfind(" start:") == std::string::npos ? 0 : x.rfind(" start:")) + "», seed "
                    + std::to_string(seed + 1) + " «"
                    + y.substr(y.rfind(" start:") == std::string::npos ? 0 : y.rfind(" start:")) + "»; ";
    }
    return diff;
}

TEST(InitTargets, StartsEveryAgentAtItsOwnTargetAtAnySeed)
{
    Json doc = readPreset(fs::path(kPresets) / "paper003-fig1-dpop.json");
    for (std::uint64_t seed : {1u, 2023u, 77u}) {
        auto e = atSeed(doc, seed);
        ASSERT_TRUE(e.ok()) << e.error().message;
        ASSERT_TRUE(buildExperiment(*e).ok());
        const auto &points = dynamic_cast<const RendezvousProblem &>(*e->problem).points();
        for (int r = 0; r < static_cast<int>(e->runs.size()); ++r) {
            EXPECT_EQ(e->runs[static_cast<std::size_t>(r)].init, Json({{"type", "targets"}}));
            EXPECT_TRUE(sameMatrix(makeRunContext(*e, r, 3).x0, points)) << "seed " << seed << " run " << r;
        }
    }
}

TEST(InitTargets, AProblemWithoutTargetsIsRefusedNamingTheField)
{
    Json doc = readPreset(fs::path(kPresets) / "teaching-noise-accumulation.json");
    doc["runs"][1]["init"] = {{"type", "targets"}};
    auto e = parseExperiment(doc, kPresets);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().where, "runs[1].init.type");
    EXPECT_NE(e.error().message.find("per-agent targets"), std::string::npos) << e.error().message;

    doc["runs"][1]["init"] = {{"type", "targets"}, {"scale", 2}};
    e = parseExperiment(doc, kPresets);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().where, "runs[1].init.scale");

    doc["runs"][1]["init"] = {{"type", "target"}};
    e = parseExperiment(doc, kPresets);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().where, "runs[1].init.type");
}

// The check can fail: starts copied as numbers from the seed's data (the preset as it was
// before the init type) lose "start at a_i" at another seed, and the check says so.
TEST(PresetSettings, StartsCopiedFromOneSeedsDataAreCaught)
{
    Json doc = readPreset(fs::path(kPresets) / "paper003-fig1-dpop.json");
    auto e = atSeed(doc, doc["seed"].get<std::uint64_t>());
    ASSERT_TRUE(e.ok()) << e.error().message;
    ASSERT_TRUE(buildExperiment(*e).ok());
    const auto &points = dynamic_cast<const RendezvousProblem &>(*e->problem).points();
    Json x = Json::array();
    for (int i = 0; i < points.rows(); ++i)
        x.push_back({points(i, 0), points(i, 1)});
    for (auto &run : doc["runs"])
        run["init"] = {{"x", x}};
    const std::string diff = compareSeeds(doc);
    EXPECT_NE(diff.find("targets"), std::string::npos) << diff;
    EXPECT_EQ(compareSeeds(readPreset(fs::path(kPresets) / "paper003-fig1-dpop.json")), "");
}

TEST(PresetSettings, FollowTheSeed)
{
    int checked = 0;
    for (const auto &entry : fs::directory_iterator(kPresets)) {
        if (entry.path().extension() != ".json")
            continue;
        const Json doc = readPreset(entry.path());
        const std::string diff = compareSeeds(doc);
        EXPECT_EQ(diff, "") << entry.path().filename().string();
        ++checked;
    }
    EXPECT_GE(checked, 20);
}

// README "Algorithms" and docs/errors.md name the algorithms that refuse a compressor; the
// registry decides, and this keeps the documents true.
TEST(DocumentedMessages, ACompressorIsRefusedByExactlyTheAlgorithmsTheReadmeNames)
{
    std::set<std::string> refuse;
    for (const auto &a : algorithmRegistry())
        if (!a.acceptsCompressor)
            refuse.insert(a.id);
    EXPECT_EQ(refuse, (std::set<std::string>{"dpop", "diadsp", "gossip", "pd-ftgl", "pd-ocg", "pd-ogd"}));

    Json doc = readPreset(fs::path(kPresets) / "paper003-fig1-dpop.json");
    doc["runs"][1]["compressor"] = {{"type", "top-k"}, {"k", 1}};
    auto e = parseExperiment(doc, kPresets);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().where, "runs[1].compressor");
    EXPECT_EQ(e.error().message, "dpop does not take a compressor");
}

} // namespace
} // namespace dplab
