// SPDX-License-Identifier: GPL-3.0-or-later
// Paper 000's scaled image experiment (resources/presets/paper000-fig3-fashion-mnist.json) validates
// and runs through the CLI at reduced size. Its full-size outcome is recorded in
// docs/paper000-results.md; the Fig. 2 presets are checked at reduced size in
// tests/core/paper000_test.cpp.
#include "clitest.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace dplab::test {
namespace {

using Json = nlohmann::json;

bool fashionMnistInstalled(const Json &preset)
{
    for (const char *object : {"data", "test_data"})
        for (const char *key : {"images", "labels"})
            if (!std::filesystem::is_regular_file(preset["problem"][object][key].get<std::string>()))
                return false;
    return true;
}

// PINS A DISAGREEMENT WITH PAPER 000 (Table I / Fig. 3): at the paper's noise scale ν = 0.01 on
// this 7850-parameter linear model, noisy Push-Pull learns (> 0.3 after 30 iterations), while the
// paper reports chance accuracy for it. docs/paper000-results.md §5 and §10 record why (the noise
// is negligible for this model) and the ν-scaled variant preset that shows the paper's ordering.
TEST(Paper000Presets, Fig3FashionMnistRunsAtReducedSizeAndNoisyPushPullLearnsUnlikeThePaper)
{
    const Json doc = Json::parse(readText(preset("paper000-fig3-fashion-mnist.json")));
    if (!fashionMnistInstalled(doc))
        GTEST_SKIP() << "Fashion-MNIST (Debian package dataset-fashion-mnist) is not installed";
    const auto valid = runCli("validate --deep " + quote(preset("paper000-fig3-fashion-mnist.json"))); // --deep: the data decide the dimension
    ASSERT_EQ(valid.exitCode, 0) << valid.err;
    EXPECT_NE(valid.out.find("dimension 7850"), std::string::npos) << valid.out; // 785 features × 10 classes

    // The same experiment on fewer images, one repetition and 30 iterations.
    Json small = doc;
    small["problem"]["data"]["max_samples"] = 2000;
    small["problem"]["test_data"]["max_samples"] = 1000;
    small["problem"]["reference_iterations"] = 5;
    small["repetitions"] = 1;
    small["record_every"] = 10;
    TempDir dir;
    writeText(dir / "fig3.json", small.dump(2));
    const auto r = runCli("run " + quote((dir / "fig3.json").string()) + " --out " + quote((dir / "out").string())
                          + " --iterations 30 --threads 1 --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Json s = Json::parse(readText(dir / "out" / "summary.json"));
    const Json &runs = s["runs"];
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0]["algorithm"], "ldp-gt");
    EXPECT_EQ(runs[1]["algorithm"], "push-pull");
    for (const auto &run : runs) {
        EXPECT_EQ(run["status"], "ok");
        for (const char *metric : {"train_accuracy", "test_accuracy"}) {
            const double a = run["final"][metric]["mean"].get<double>();
            // 30 iterations of 40 images already lift ten-class accuracy well above chance (0.1) —
            // for noisy Push-Pull too, CONTRARY TO THE PAPER (it reports ≈ 10 %; see above).
            EXPECT_GT(a, 0.3) << run["label"] << " " << metric;
            EXPECT_LE(a, 1.0);
        }
    }
    const double epsilon = runs[0]["final"]["epsilon"]["mean"].get<double>();
    EXPECT_TRUE(std::isfinite(epsilon) && epsilon > 0) << epsilon; // Theorem 3 accountant is on
}

} // namespace
} // namespace dplab::test
