// SPDX-License-Identifier: GPL-3.0-or-later
// The teaching presets show what they promise, through the CLI a user would run.
#include "clitest.h"

#include <nlohmann/json.hpp>

namespace dplab::test {
namespace {

using Json = nlohmann::json;

TEST(TeachingPresets, PushPullConvergesNoiseFreeAndStallsWithNoise)
{
    TempDir dir;
    const auto r = runCli("run " + quote(preset("teaching-push-pull-quadratic.json")) + " --out " + quote(dir.path().string()) + " --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Json s = Json::parse(readText(dir / "summary.json"));
    EXPECT_LT(finalMean(s, "Push-Pull (noise-free)", "distance_to_optimum"), 1e-10);
    EXPECT_GT(finalMean(s, "Push-Pull + DP noise", "distance_to_optimum"), 1e-3);
}

TEST(TeachingPresets, GradientTrackingRemovesTheDgdBias)
{
    TempDir dir;
    const auto r = runCli("run " + quote(preset("teaching-gradient-tracking-logistic.json")) + " --out " + quote(dir.path().string()) + " --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Json s = Json::parse(readText(dir / "summary.json"));
    EXPECT_EQ(s["reference"]["method"], "newton");
    EXPECT_LT(finalMean(s, "Gradient tracking", "distance_to_optimum"), 1e-8);
    EXPECT_GT(finalMean(s, "DGD", "distance_to_optimum"), 1e-3);
    EXPECT_GT(finalMean(s, "Gradient tracking", "test_accuracy"), 0.9);
}

} // namespace
} // namespace dplab::test
