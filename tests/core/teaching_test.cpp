// SPDX-License-Identifier: GPL-3.0-or-later
// Teaching: message recording, the eavesdropper (gradient inversion), theory overlays, the
// presentation key and the ε frontier.
#include "dplab/algo/paper003theory.h"
#include "dplab/common/files.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/metrics.h"
#include "dplab/engine/runner.h"
#include "dplab/engine/writers.h"
#include "dplab/graph/analysis.h"
#include "dplab/teaching/attackdemo.h"
#include "dplab/engine/eavesdropper.h"
#include "dplab/teaching/frontier.h"
#include "dplab/engine/presentation.h"
#include "dplab/teaching/theory.h"

#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

namespace dplab {
namespace {

std::string presetPath(const std::string &name)
{
    return std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets/" + name;
}

Json presetJson(const std::string &name)
{
    auto doc = readJsonFile(presetPath(name));
    EXPECT_TRUE(doc.ok()) << name;
    return doc.value();
}

/** The experiment `doc` is refused, the error at `where`. */
void expectRefusedAt(const Json &doc, const std::string &where)
{
    const auto e = parseExperiment(doc, ".");
    ASSERT_FALSE(e.ok()) << where;
    EXPECT_EQ(e.error().where, where);
}

Experiment parse(const Json &doc)
{
    auto e = parseExperiment(doc, std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets");
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().toString());
    return std::move(e.value());
}

ExperimentResult run(const Experiment &e, RunnerOptions options = {})
{
    auto r = Runner(options).run(e);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().toString());
    return std::move(r.value());
}

RunnerOptions threads(int k)
{
    RunnerOptions o;
    o.threads = k;
    return o;
}

int column(const RunResult &run, const std::string &name)
{
    const auto it = std::find(run.metricNames.begin(), run.metricNames.end(), name);
    return it == run.metricNames.end() ? -1 : static_cast<int>(it - run.metricNames.begin());
}

const RunResult &runByLabel(const ExperimentResult &result, const std::string &label)
{
    for (const auto &r : result.points.front().runs)
        if (r.label == label)
            return r;
    ADD_FAILURE() << "no run " << label;
    return result.points.front().runs.front();
}

/** A one-sample-per-agent problem: logistic or least squares, for n agents on a graph. */
Json oneSampleExperiment(const std::string &algorithm, bool directed, const std::string &problem, double noise)
{
    Json doc{{"format", "dplab-experiment"}, {"version", 1}, {"seed", 9}, {"iterations", 150}, {"record_every", 1}};
    if (directed)
        doc["graph"] = Json::parse(R"({"directed": true, "nodes": 5, "edges": [[0,1],[1,2],[2,3],[3,4],[4,0],[0,2],[3,1]]})");
    else
        doc["graph"] = Json::parse(R"({"generator": {"type": "ring", "nodes": 5}})");
    doc["problem"] = Json{{"type", problem},
                          {"data", {{"source", "synthetic"}, {"samples", 5}, {"dimension", 3}}},
                          {"bias", true}};
    if (problem == "logistic") {
        doc["problem"]["test_fraction"] = 0;
        doc["problem"]["lambda"] = 0.1;
    } else {
        doc["problem"]["lambda"] = 0.1;
    }
    doc["eavesdropper"] = Json{{"agent", 1}};
    Json privacy = Json::object();
    if (algorithm == "dgd")
        privacy = Json{{"noise_x", noise}};
    else if (algorithm == "gradient-tracking")
        privacy = Json{{"noise_x", noise}, {"noise_y", noise}};
    else
        privacy = Json{{"noise_theta", noise}, {"noise_y", noise}};
    Json step = algorithm == "ldp-gt" ? Json{{"type", "polynomial"}, {"a", 0.5}, {"t0", 1}, {"p", 0.61}} : Json(0.1);
    doc["runs"] = Json::array({Json{{"label", algorithm}, {"algorithm", algorithm}, {"params", {{"stepsize", step}}},
                                    {"privacy", privacy}, {"init", {{"type", "random"}, {"scale", 0.5}}}}});
    return doc;
}

// --- Message recording --------------------------------------------------------------------

TEST(TeachingMessages, RecordedOnRequestWithoutChangingTheRun)
{
    const Experiment e = parse(presetJson("teaching-noise-accumulation.json"));
    Json small = e.resolved;
    small["iterations"] = 40;
    small["repetitions"] = 2;
    const Experiment s = parse(small);
    const ExperimentResult plain = run(s);
    RunnerOptions options;
    options.trace = true;
    options.messages.enabled = true;
    options.messages.first = 5;
    options.messages.last = 20;
    const ExperimentResult recorded = run(s, options);
    for (std::size_t r = 0; r < s.runs.size(); ++r) {
        const RunResult &a = plain.points[0].runs[r];
        const RunResult &b = recorded.points[0].runs[r];
        for (std::size_t rep = 0; rep < a.repetitions.size(); ++rep)
            EXPECT_EQ(a.repetitions[rep].values, b.repetitions[rep].values) << "recording changed run " << r;
        EXPECT_TRUE(a.repetitions[0].messages.empty());
        EXPECT_TRUE(b.repetitions[1].messages.empty()) << "only repetition 0 by default";
        const auto &records = b.repetitions[0].messages;
        ASSERT_EQ(records.size(), 16u);
        EXPECT_EQ(records.front().iteration, 5);
        EXPECT_EQ(records.back().iteration, 20);
        for (const MessageRecord &record : records) {
            // Every agent sends θ and its tracker (and LDP-GT its z) once per iteration.
            for (int i = 0; i < 6; ++i) {
                const Message *theta = findMessage(record, i, "theta");
                ASSERT_NE(theta, nullptr);
                // Identity compressor: what is sent is exactly clean + noise.
                EXPECT_EQ(theta->sent, theta->clean + theta->noise);
                EXPECT_GT(theta->noise.norm(), 0.0);
                EXPECT_EQ(theta->bits, 64u);
            }
        }
    }
}

TEST(TeachingMessages, CleanDecisionMessagesAreTheTrace)
{
    Json doc = oneSampleExperiment("dgd", false, "logistic", 0.0);
    doc["record_every"] = 1;
    doc["iterations"] = 12;
    const Experiment e = parse(doc);
    RunnerOptions options;
    options.trace = true;
    options.messages.enabled = true;
    const ExperimentResult r = run(e, options);
    const RepetitionResult &rep = r.points[0].runs[0].repetitions[0];
    ASSERT_EQ(rep.messages.size(), 12u);
    for (const MessageRecord &record : rep.messages)
        for (int i = 0; i < 5; ++i) {
            const Message *m = findMessage(record, i, "x");
            ASSERT_NE(m, nullptr);
            // Messages of step k carry x(k): the trace's decisions recorded at iteration k.
            EXPECT_EQ(m->clean, rep.trace[static_cast<std::size_t>(record.iteration)].row(i).transpose());
            EXPECT_EQ(m->sent, m->clean);
        }
}

// --- Gradient inversion -------------------------------------------------------------------

TEST(TeachingAttack, LogisticInversionIsExactIncludingTheTwoRootCase)
{
    const Eigen::VectorXd b = (Eigen::VectorXd(3) << 1.5, -2.0, 0.5).finished();
    for (const Eigen::VectorXd &x : {Eigen::VectorXd(Eigen::VectorXd::Zero(3)),
                                     Eigen::VectorXd((Eigen::VectorXd(3) << -0.4, 0.3, 0.1).finished()),
                                     Eigen::VectorXd((Eigen::VectorXd(3) << 0.4, -0.3, 0.2).finished())}) {
        const double z = b.dot(x);
        const Eigen::VectorXd r = -(1.0 / (1.0 + std::exp(z))) * b; // −σ(−bᵀx) b
        const auto candidates = invertLogisticGradient(r, x);
        ASSERT_FALSE(candidates.empty());
        double best = 1e300;
        for (const auto &c : candidates)
            best = std::min(best, (c - b).norm() / b.norm());
        EXPECT_LE(best, 1e-12) << "x = " << x.transpose();
        EXPECT_LE(candidates.size(), z > 0 ? 2u : 1u); // bᵀx > 0 ⇔ uᵀx > 0: maybe two roots
    }
}

TEST(TeachingAttack, LinearInversionIsExactUpToTheSign)
{
    const Eigen::VectorXd a = (Eigen::VectorXd(3) << 0.3, -1.2, 1.0).finished();
    const double y = 0.7;
    const Eigen::VectorXd x1 = (Eigen::VectorXd(3) << 0.5, 0.1, -0.2).finished();
    const Eigen::VectorXd x2 = Eigen::VectorXd::Zero(3);
    auto grad = [&](const Eigen::VectorXd &x) { return Eigen::VectorXd((a.dot(x) - y) * a); };
    const auto z = invertLinearGradients(grad(x1), x1, grad(x2), x2);
    ASSERT_TRUE(z.has_value());
    Eigen::VectorXd truth(4);
    truth << a, y;
    EXPECT_LE(std::min((*z - truth).norm(), (*z + truth).norm()) / truth.norm(), 1e-12);
    EXPECT_FALSE(invertLinearGradients(grad(x1), x1, grad(x1), x1).has_value());
}

struct AttackCase {
    std::string algorithm;
    bool directed;
    std::string problem;
};

class TeachingAttackRuns : public ::testing::TestWithParam<AttackCase>
{
};

TEST_P(TeachingAttackRuns, ExactWithoutNoiseAndFailsWithNoise)
{
    const AttackCase c = GetParam();
    const Experiment clean = parse(oneSampleExperiment(c.algorithm, c.directed, c.problem, 0.0));
    const Experiment noisy = parse(oneSampleExperiment(c.algorithm, c.directed, c.problem, 0.5));
    const RunResult cleanRun = run(clean).points[0].runs[0];
    const RunResult noisyRun = run(noisy).points[0].runs[0];
    const int m = column(cleanRun, metric::AttackError);
    ASSERT_GE(m, 0) << "attack_error missing";
    EXPECT_EQ(cleanRun.metricNames.back(), metric::AttackError);
    EXPECT_NE(cleanRun.attack.find("data point"), std::string::npos) << cleanRun.attack;
    int defined = 0;
    double worst = 0, noisyMedian = 0;
    std::vector<double> noisyValues;
    for (std::size_t k = 0; k < cleanRun.repetitions[0].values.size(); ++k) {
        const double v = cleanRun.repetitions[0].values[k][m];
        if (std::isnan(v))
            continue;
        ++defined;
        worst = std::max(worst, v);
        const double w = noisyRun.repetitions[0].values[k][m];
        if (!std::isnan(w))
            noisyValues.push_back(w);
    }
    EXPECT_GE(defined, 140);
    EXPECT_LE(worst, 1e-9) << c.algorithm << " " << c.problem;
    ASSERT_FALSE(noisyValues.empty());
    std::sort(noisyValues.begin(), noisyValues.end());
    noisyMedian = noisyValues[noisyValues.size() / 2];
    EXPECT_GT(noisyMedian, 0.1) << c.algorithm << " " << c.problem;
    // The final reconstruction equals the truth without noise.
    const RepetitionResult &rep = cleanRun.repetitions[0];
    ASSERT_GT(rep.attackTruth.size(), 0);
    EXPECT_LE(std::min((rep.attackEstimate - rep.attackTruth).norm(), (rep.attackEstimate + rep.attackTruth).norm())
                  / rep.attackTruth.norm(),
              1e-9);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, TeachingAttackRuns,
                         ::testing::Values(AttackCase{"dgd", false, "logistic"},
                                           AttackCase{"gradient-tracking", false, "logistic"},
                                           AttackCase{"push-pull", true, "logistic"},
                                           AttackCase{"ldp-gt", true, "logistic"},
                                           AttackCase{"dgd", false, "ridge"},
                                           AttackCase{"ldp-gt", true, "ridge"}),
                         [](const auto &info) {
                             std::string name = info.param.algorithm + "_" + info.param.problem;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

TEST(TeachingAttack, EavesdropperPresetLeaksWithoutNoiseOnly)
{
    const Experiment e = parse(presetJson("teaching-eavesdropper.json"));
    const ExperimentResult r = run(e);
    for (const std::string label : {"LDP-GT without noise", "Push-Pull without noise"}) {
        const RunResult &clean = runByLabel(r, label);
        const int m = column(clean, metric::AttackError);
        ASSERT_GE(m, 0);
        const double last = clean.repetitions[0].values.back()[m];
        EXPECT_LE(last, 1e-9) << label;
    }
    for (const std::string label : {"LDP-GT + DP noise", "Push-Pull + DP noise"}) {
        const RunResult &noisy = runByLabel(r, label);
        const double last = noisy.repetitions[0].values.back()[column(noisy, metric::AttackError)];
        EXPECT_GT(last, 0.5) << label;
    }
}

TEST(TeachingAttack, UnsupportedAlgorithmIsAWarningNotAnError)
{
    Json doc = presetJson("teaching-consensus-gossip.json");
    doc.erase("sweep");
    doc["eavesdropper"] = Json{{"agent", 0}};
    const ExperimentResult r = run(parse(doc));
    const RunResult &gossip = r.points[0].runs[0];
    EXPECT_EQ(column(gossip, metric::AttackError), -1);
    ASSERT_FALSE(gossip.warnings.empty());
    EXPECT_NE(gossip.warnings.back().find("eavesdropper: gossip has no modelled attack"), std::string::npos)
        << gossip.warnings.back();
}

TEST(TeachingAttack, AgentOutOfRangeNamesThePath)
{
    Json doc = presetJson("teaching-eavesdropper.json");
    doc["eavesdropper"]["agent"] = 6;
    expectRefusedAt(doc, "eavesdropper.agent");
    doc["eavesdropper"] = Json{{"agnet", 1}};
    expectRefusedAt(doc, "eavesdropper.agnet");
}

TEST(TeachingAttack, ComparisonDocumentPairsNoiseOnAndOff)
{
    const Experiment e = parse(presetJson("teaching-noise-accumulation.json"));
    std::vector<std::string> skipped;
    auto doc = attackComparisonDocument(e, 2, &skipped);
    ASSERT_TRUE(doc.ok()) << doc.error().toString();
    EXPECT_TRUE(skipped.empty());
    const Experiment demo = parse(*doc);
    ASSERT_EQ(demo.runs.size(), 4u);
    EXPECT_EQ(demo.runs[0].label, "Push-Pull + DP noise (noise on)");
    EXPECT_EQ(demo.runs[1].label, "Push-Pull + DP noise (noise off)");
    EXPECT_EQ(demo.runs[1].privacy["noise_theta"], 0.0);
    EXPECT_EQ(demo.runs[1].privacy["noise_y"], 0.0);
    EXPECT_EQ(demo.runs[1].privacy["noise_y_decay"], 0.55);
    EXPECT_EQ(demo.runs[0].privacy["noise_y"], 0.5);
    ASSERT_TRUE(demo.eavesdropper.has_value());
    EXPECT_EQ(demo.eavesdropper->agent, 2);
    EXPECT_FALSE(attackComparisonDocument(parse(presetJson("teaching-privacy-frontier.json")), 0).ok());
}

// --- Theory overlays ----------------------------------------------------------------------

TEST(TeachingTheory, PlainGossipCurveIsRhoSquaredPerStepAndBoundsTheRun)
{
    Json doc = presetJson("teaching-consensus-gossip.json");
    doc.erase("sweep");
    const Experiment e = parse(doc);
    const ExperimentResult r = run(e);
    const RunResult &rr = r.points[0].runs[0];
    const RepetitionResult &rep = rr.repetitions[0];
    const auto curves = theoryCurves(e.runs[0], rr.metricNames, rep.iterations, rep.values);
    ASSERT_EQ(curves.size(), 1u);
    const TheoryCurve &c = curves[0];
    EXPECT_EQ(c.metric, metric::ConsensusError);
    EXPECT_TRUE(c.linear);
    const double rho = consensusRate(e.runs[0].W);
    EXPECT_NEAR(c.exponent, 2 * std::log(rho), 1e-12);
    const int m = column(rr, metric::ConsensusError);
    ASSERT_EQ(c.iterations.front(), 0);
    EXPECT_EQ(c.values.front(), rep.values.front()[m]);
    // Symmetric W: the bound holds at every iteration.
    for (std::size_t k = 0; k < c.values.size(); ++k)
        EXPECT_LE(rep.values[k][m], c.values[k] * (1 + 1e-9) + 1e-300) << "k = " << k;
    EXPECT_NE(c.citation.find("gossip"), std::string::npos);
}

TEST(TeachingTheory, LdpGtRateFollowsTheStepExponent)
{
    const Experiment e = parse(presetJson("teaching-noise-accumulation.json"));
    const auto rates = theoryRates(e.runs[1]);
    ASSERT_EQ(rates.size(), 1u);
    EXPECT_EQ(rates[0].metric, metric::OptimalityGap);
    EXPECT_NEAR(rates[0].exponent, -(1 - 0.61), 1e-12);
    EXPECT_NE(rates[0].citation.find("paper 000, Theorem 2"), std::string::npos);
    EXPECT_TRUE(theoryRates(e.runs[0]).empty()) << "push-pull states no rate with DP noise";
    // Anchored at the first recorded point with t ≥ 1.
    const std::vector<std::string> names = {metric::OptimalityGap};
    const auto curves = theoryCurves(e.runs[1], names, {0, 10, 20, 40}, {{5.0}, {2.0}, {1.5}, {1.0}});
    ASSERT_EQ(curves.size(), 1u);
    EXPECT_EQ(curves[0].iterations, (std::vector<long long>{10, 20, 40}));
    EXPECT_DOUBLE_EQ(curves[0].values[0], 2.0);
    EXPECT_NEAR(curves[0].values[2], 2.0 * std::pow(4.0, -0.39), 1e-12);
}

TEST(TeachingTheory, Paper003ThetaIsALevelOnlyWhereTheoremThreeApplies)
{
    Json doc = presetJson("teaching-steady-state-bound.json");
    const Experiment e = parse(doc);
    ASSERT_EQ(e.runs.size(), 2u);
    EXPECT_TRUE(theoryRates(e.runs[0]).empty()) << "a level needs the problem";

    // Inside Theorem 3: √(θ/n) with θ from (31) at the ring's targets ρ_w = ρ(W_o) = 0.5,
    // σ² = 2 r b² = 2 · 2 · 0.3² and the rendezvous problem's μ = L = 2.
    const auto inside = theoryRates(e.runs[0], e.problem.get());
    ASSERT_EQ(inside.size(), 1u);
    const TheoryCurve &level = inside[0];
    EXPECT_TRUE(level.level);
    EXPECT_EQ(level.metric, metric::DistanceToOptimum);
    EXPECT_TRUE(level.why.empty()) << level.why;
    const Json facts = e.problem->describe();
    Paper003Constants c;
    c.n = 4;
    c.mu = facts.at("strong_convexity").get<double>();
    c.L = facts.at("smoothness").get<double>();
    EXPECT_EQ(c.mu, 2.0);
    EXPECT_EQ(c.L, 2.0);
    c.rhoW = 0.5;
    c.rhoWo = 0.5;
    c.sigmaEta2 = c.sigmaXi2 = 2 * 2 * 0.09;
    const double theta = paper003SteadyState(c, 0.0063).theta;
    EXPECT_NEAR(level.value, std::sqrt(theta / 4), 1e-8 * level.value);
    EXPECT_NE(level.label.find("√(θ/n)"), std::string::npos);
    EXPECT_NE(level.citation.find("paper 003, Theorem 3"), std::string::npos);

    // α = 0.05: ρ(A) = 3.58, no finite steady state, and the reason says so.
    const auto outside = theoryRates(e.runs[1], e.problem.get());
    ASSERT_EQ(outside.size(), 1u);
    EXPECT_NE(outside[0].why.find("ρ(A) = 3.57"), std::string::npos) << outside[0].why;
    const std::vector<std::string> names = {metric::DistanceToOptimum};
    const auto none = theoryCurves(e.runs[1], names, {0, 100}, {{1.0}, {0.5}}, e.problem.get());
    ASSERT_EQ(none.size(), 1u);
    EXPECT_TRUE(none[0].iterations.empty());

    // Outside the theorem's assumptions: each says why.
    for (const auto &[path, value, reason] :
         std::vector<std::tuple<std::string, Json, std::string>>{
             {"privacy", Json{{"beta", Json{{"type", "polynomial"}, {"a", 1}, {"t0", 1}, {"p", 0.5}}}}, "constant"},
             {"privacy", Json{{"clip", true}, {"gradient_bound", 100.0}}, "clipping"},
             {"privacy", Json{{"epsilon", 5.0}, {"gradient_bound", 100.0}}, "target ε"},
             {"compressor", Json{{"type", "top-k"}, {"k", 2}}, "uncompressed"}}) {
        Json variant = doc;
        if (path == "compressor")
            variant["runs"][0]["compressor"] = value;
        else
            variant["runs"][0][path].update(value);
        const Experiment v = parse(variant);
        const auto rates = theoryRates(v.runs[0], v.problem.get());
        ASSERT_EQ(rates.size(), 1u);
        EXPECT_NE(rates[0].why.find(reason), std::string::npos) << rates[0].why;
    }

    // The level bounds the run: the mean over repetitions of the last quarter of recorded
    // distances lies below √(θ/n).
    doc["runs"].erase(1);
    const Experiment one = parse(doc);
    const ExperimentResult r = run(one);
    const RunResult &rr = r.points[0].runs[0];
    const int m = column(rr, metric::DistanceToOptimum);
    const auto curves = theoryCurves(one.runs[0], rr.metricNames, rr.repetitions[0].iterations,
                                     rr.repetitions[0].values, one.problem.get());
    ASSERT_EQ(curves.size(), 1u);
    ASSERT_EQ(curves[0].values.size(), rr.repetitions[0].iterations.size());
    EXPECT_EQ(curves[0].values.back(), level.value);
    double sum = 0;
    int count = 0;
    for (const RepetitionResult &rep : rr.repetitions)
        for (std::size_t k = 3 * rep.values.size() / 4; k < rep.values.size(); ++k) {
            sum += rep.values[k][m];
            ++count;
        }
    const double steady = sum / count;
    std::cerr << "steady-state distance " << steady << ", bound sqrt(theta/n) " << level.value << "\n";
    EXPECT_LT(steady, level.value);
    EXPECT_GT(steady, level.value / 100) << "the run should sit in a noise ball, not at x*";
}

// --- Presentation -------------------------------------------------------------------------

TEST(TeachingPresentation, ResolvedAndRoundTripped)
{
    const Experiment e = parse(presetJson("teaching-dgd-vs-tracking.json"));
    Json doc = e.resolved;
    doc["presentation"] = Json{{"hidden_panels", {"bits", "attack"}}};
    expectRefusedAt(doc, "presentation.hidden_panels[0]");
    doc["presentation"] = Json{{"hidden_panels", {"attack", "frontier"}},
                               {"locked", {"runs[0].params.stepsize", "runs[*].init"}},
                               {"hidden_params", {"runs[1].params"}},
                               {"notes", "# Lesson\nText"},
                               {"start", true},
                               {"live", true}};
    const Experiment p = parse(doc);
    ASSERT_TRUE(p.presentation.has_value());
    EXPECT_TRUE(p.presentation->isLocked("runs[0].params.stepsize"));
    EXPECT_FALSE(p.presentation->isLocked("runs[1].params.stepsize"));
    EXPECT_TRUE(p.presentation->isLocked("runs[1].init.scale"));
    EXPECT_TRUE(p.presentation->isParamHidden("runs[1].params.stepsize"));
    EXPECT_TRUE(p.presentation->isPanelHidden("frontier"));
    EXPECT_TRUE(p.presentation->start);
    EXPECT_TRUE(p.presentation->live);
    const Experiment again = parse(p.resolved);
    EXPECT_EQ(again.resolved, p.resolved);
    EXPECT_EQ(*again.presentation, *p.presentation);

    doc["presentation"] = Json{{"locked", {"runs[3].params.stepsize"}}};
    expectRefusedAt(doc, "presentation.locked[0]");
    doc["presentation"] = Json{{"notes", 3}};
    expectRefusedAt(doc, "presentation.notes");
    // "[*]": the path exists in at least one run (ldp-gt has an accountant, push-pull has not).
    const Experiment mixed = parse(presetJson("teaching-noise-accumulation.json"));
    EXPECT_NE(findJsonPath(mixed.resolved, "runs[*].privacy.accountant"), nullptr);
    EXPECT_EQ(findJsonPath(mixed.resolved, "runs[0].privacy.accountant"), nullptr);
    EXPECT_EQ(findJsonPath(mixed.resolved, "runs[*].privacy.acountant"), nullptr);
    doc["presentation"] = Json{{"live", "yes"}};
    expectRefusedAt(doc, "presentation.live");
    doc["presentation"] = Json{{"lecture", true}};
    expectRefusedAt(doc, "presentation.lecture");
}

// --- Frontier -----------------------------------------------------------------------------

TEST(TeachingFrontier, EpsilonListsAndLogSpacing)
{
    const auto v = logSpaced(0.1, 1000, 5);
    ASSERT_EQ(v.size(), 5u);
    EXPECT_EQ(v.front(), 0.1);
    EXPECT_EQ(v.back(), 1000);
    EXPECT_NEAR(v[2], 10, 1e-12);
    auto parsed = parseEpsilonList("0.1:1000:5", "--epsilons");
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, v);
    parsed = parseEpsilonList("1,2.5,10", "--epsilons");
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, (std::vector<double>{1, 2.5, 10}));
    EXPECT_FALSE(parseEpsilonList("1,-2", "--epsilons").ok());
    EXPECT_FALSE(parseEpsilonList("1:10", "--epsilons").ok());
    EXPECT_FALSE(parseEpsilonList("10:1:3", "--epsilons").ok());
    EXPECT_EQ(parseEpsilonList("abc", "--epsilons").error().where, "--epsilons");
}

TEST(TeachingFrontier, PointsEqualSeparateRunsAtThoseEpsilons)
{
    Json doc = presetJson("teaching-privacy-frontier.json");
    doc["iterations"] = 60;
    doc["repetitions"] = 3;
    // A run without calibration is skipped, with a message.
    doc["runs"].push_back(Json{{"label", "Plain DGD"}, {"algorithm", "dgd"}, {"params", {{"stepsize", 0.1}}}});
    const Experiment e = parse(doc);
    const std::vector<double> epsilons = {10, 1000};
    auto frontier = runFrontier(e, epsilons, threads(2));
    ASSERT_TRUE(frontier.ok()) << frontier.error().toString();
    ASSERT_EQ(frontier->skipped.size(), 1u);
    EXPECT_NE(frontier->skipped[0].find("dgd has no target-ε calibration"), std::string::npos);
    ASSERT_EQ(frontier->rows.size(), 4u);
    for (const FrontierRow &row : frontier->rows) {
        Json separate = doc;
        separate["runs"][row.run]["privacy"]["epsilon"] = row.epsilon;
        const Experiment s = parse(separate);
        const ExperimentResult r = run(s, threads(1));
        const RunResult &rr = r.points[0].runs[static_cast<std::size_t>(row.run)];
        for (std::size_t m = 0; m < frontier->metrics.size(); ++m) {
            const int col = column(rr, frontier->metrics[m]);
            ASSERT_GE(col, 0);
            const MetricStats want = finalMetricStats(rr, col);
            EXPECT_EQ(row.stats[m].count, 3);
            EXPECT_EQ(row.stats[m].mean, want.mean) << row.label << " ε " << row.epsilon << " " << frontier->metrics[m];
            EXPECT_EQ(row.stats[m].std, want.std);
        }
    }
    // Larger ε, less noise: the final distance shrinks for both algorithms.
    const int d = static_cast<int>(std::find(frontier->metrics.begin(), frontier->metrics.end(),
                                             metric::DistanceToOptimum) - frontier->metrics.begin());
    EXPECT_GT(frontier->rows[0].stats[d].mean, frontier->rows[1].stats[d].mean);
    EXPECT_GT(frontier->rows[2].stats[d].mean, frontier->rows[3].stats[d].mean);
    const std::string csv = frontierCsv(*frontier);
    EXPECT_EQ(csv.substr(0, csv.find('\n')).substr(0, 42), "run,target_epsilon,consensus_error_mean,co");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
}

TEST(TeachingFrontier, RejectsSweepsAndExperimentsWithoutCalibration)
{
    const Experiment gossip = parse(presetJson("teaching-consensus-gossip.json"));
    auto r = runFrontier(gossip, {1.0});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().where, "sweep");
    const Experiment dgd = parse(presetJson("teaching-dgd-vs-tracking.json"));
    r = runFrontier(dgd, {1.0});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().where, "runs");
}

} // namespace
} // namespace dplab
