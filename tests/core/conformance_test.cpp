// SPDX-License-Identifier: GPL-3.0-or-later
// The algorithm conformance suite: every algorithm in the registry — the built-in ones and the
// worked example of docs/extending.md (tests/core/extending_example.cpp, linked into this
// executable, which registers itself) — passes the same checks, so a new algorithm is tested the
// moment it is registered:
//   - every parameter is documented (label, help; a unit for counts), defaults lie in range;
//   - its experiment JSON round-trips: resolve → resolved document → resolve gives the same;
//   - the same seed gives bit-identical results with 1 and with 4 runner threads;
//   - step() allocates nothing on the heap once warmed up (allocationcounter.h);
//   - ε (max and per agent) never decreases with the iterations, with the default settings and
//     with every preset configuration that uses the algorithm;
//   - where the descriptor claims exact convergence without noise (exactWithoutNoise), it
//     reaches x* on a small strongly convex problem of the graph kind it needs.
// Problems are tiny (5–6 agents, d = 2, tens of iterations) so that the suite takes seconds.
#include "dplab/engine/experiment.h"
#include "dplab/engine/metrics.h"
#include "dplab/engine/runner.h"
#include "dplab/problem/problem.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

// After every other header: it defines malloc and friends, which system headers declare.
#include "allocationcounter.h"

namespace dplab {
namespace {

// --- Small experiments, built from the descriptor alone -------------------------------------

Json undirectedGraph()
{
    return {{"directed", false},
            {"nodes", 5},
            {"edges", Json::array({{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 2}})}};
}

Json directedGraph()
{
    return {{"directed", true},
            {"nodes", 6},
            {"edges", Json::array({{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}, {3, 1}, {4, 2}})}};
}

/** f_i(x) = ½ xᵀA_i x − b_iᵀx, d = 2, A_i symmetric positive definite (eigenvalues in [0.5, 3]). */
Json quadraticProblem(int agents)
{
    Json list = Json::array();
    for (int i = 0; i < agents; ++i) {
        const double a = 1.0 + 0.4 * (i % 3), c = 2.0 - 0.3 * (i % 4), off = 0.2 * ((i % 2) ? 1 : -1);
        list.push_back({{"A", {{a, off}, {off, c}}}, {"b", {std::cos(1.3 * i), std::sin(0.7 * i + 1.0)}}});
    }
    return {{"type", "quadratic"}, {"dimension", 2}, {"agents", list}};
}

/** A few hundred synthetic examples dealt out as streams (online learners). */
Json onlineProblem()
{
    return {{"type", "online-multiclass"},
            {"radius", 5.0},
            {"epochs", 1},
            {"reference_iterations", 20},
            {"data", {{"source", "synthetic"}, {"samples", 600}, {"dimension", 4}, {"classes", 3}}}};
}

/** One run of `algorithm` with its defaults (plus `params`/`privacy` overrides) on a small
 *  problem of the graph kind, weights and problem kind it needs. */
Json smallExperiment(const AlgorithmDescriptor &algorithm, long long iterations, int repetitions,
                     const Json &params = Json::object(), const Json &privacy = Json::object())
{
    const bool directed = algorithm.graphKind == GraphKind::Directed;
    Json graph = directed ? directedGraph() : undirectedGraph();
    graph["weights"] = algorithm.weights == WeightNeeds::RowColumn
                           ? Json{{"row", {{"scheme", "uniform"}}}, {"column", {{"scheme", "uniform"}}}}
                           : Json{{"scheme", "lazy-metropolis"}};
    Json run = {{"label", algorithm.id},
                {"algorithm", algorithm.id},
                {"init", {{"type", "random"}, {"scale", 1.0}}}};
    if (!params.empty())
        run["params"] = params;
    if (!privacy.empty())
        run["privacy"] = privacy;
    return {{"format", "dplab-experiment"},
            {"version", 1},
            {"name", "conformance: " + algorithm.id},
            {"seed", 11},
            {"iterations", iterations},
            {"repetitions", repetitions},
            {"record_every", 1},
            {"graph", graph},
            {"problem", algorithm.needsOnline ? onlineProblem() : quadraticProblem(directed ? 6 : 5)},
            {"runs", Json::array({run})}};
}

std::vector<std::string> registeredIds()
{
    std::vector<std::string> ids;
    for (const AlgorithmDescriptor &d : algorithmRegistry())
        ids.push_back(d.id);
    return ids;
}

bool sameBits(const std::vector<std::vector<double>> &a, const std::vector<std::vector<double>> &b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (a[k].size() != b[k].size()
            || (!a[k].empty() && std::memcmp(a[k].data(), b[k].data(), a[k].size() * sizeof(double)) != 0))
            return false;
    return true;
}

/** ε after each of `iterations` steps (per agent), stepping the algorithm of run `run` directly. */
std::vector<Eigen::VectorXd> epsilonTrajectory(const Experiment &e, int run, int iterations, std::string *why)
{
    std::vector<Eigen::VectorXd> out;
    const RunContext ctx = makeRunContext(e, run, 0);
    std::unique_ptr<Algorithm> algorithm = e.runs[run].algorithm->create();
    if (Status s = algorithm->reset(ctx); !s) {
        *why = s.error().toString();
        return out;
    }
    const PrivacyAccountant *accountant = algorithm->accountant();
    if (!accountant)
        return out;
    out.push_back(accountant->epsilon());
    for (int t = 0; t < iterations; ++t) {
        algorithm->step();
        if (algorithm->accountant() != accountant) {
            *why = "accountant() changed during the run";
            return out;
        }
        out.push_back(accountant->epsilon());
    }
    return out;
}

void expectNonDecreasing(const std::vector<Eigen::VectorXd> &eps, const std::string &what)
{
    for (std::size_t t = 1; t < eps.size(); ++t) {
        ASSERT_EQ(eps[t].size(), eps[t - 1].size()) << what << ": agents changed at t = " << t;
        for (Eigen::Index i = 0; i < eps[t].size(); ++i) {
            ASSERT_FALSE(std::isnan(eps[t][i])) << what << ": ε of agent " << i << " is NaN at t = " << t;
            ASSERT_GE(eps[t][i], 0.0) << what << ": ε of agent " << i << " is negative at t = " << t;
            ASSERT_GE(eps[t][i], eps[t - 1][i])
                << what << ": ε of agent " << i << " fell from " << eps[t - 1][i] << " to " << eps[t][i]
                << " at t = " << t;
        }
    }
}

class Conformance : public ::testing::TestWithParam<std::string>
{
protected:
    const AlgorithmDescriptor &descriptor() const
    {
        const AlgorithmDescriptor *d = findAlgorithm(GetParam());
        EXPECT_NE(d, nullptr);
        return *d;
    }
};

TEST_P(Conformance, EveryParameterIsDocumented)
{
    const AlgorithmDescriptor &d = descriptor();
    EXPECT_FALSE(d.name.empty()) << d.id;
    EXPECT_GE(d.explanation.size(), 40u) << d.id << ": explanation too short to explain anything";
    EXPECT_TRUE(d.create) << d.id;
    std::vector<std::string> keys;
    auto check = [&](const ParamSpec &p, const std::string &where) {
        SCOPED_TRACE(d.id + " " + where + "." + p.key);
        EXPECT_FALSE(p.key.empty());
        EXPECT_FALSE(p.label.empty()) << "no label";
        EXPECT_GE(p.help.size(), 15u) << "help must say what it does, got \"" << p.help << "\"";
        EXPECT_EQ(std::find(keys.begin(), keys.end(), where + "." + p.key), keys.end()) << "key twice";
        keys.push_back(where + "." + p.key);
        if (p.type == dplab::ParamType::Integer)
            EXPECT_FALSE(p.unit.empty()) << "an integer counts something: name its unit";
        if (p.type == dplab::ParamType::Choice) {
            EXPECT_FALSE(p.choices.empty());
            EXPECT_NE(std::find(p.choices.begin(), p.choices.end(), p.defaultValue.get<std::string>()),
                      p.choices.end())
                << "default is not one of the choices";
        }
        if ((p.type == dplab::ParamType::Real || p.type == dplab::ParamType::Integer) && p.defaultValue.is_number()) {
            const double v = p.defaultValue.get<double>();
            EXPECT_TRUE(v >= p.min && v <= p.max && !(p.minExclusive && v == p.min))
                << "default " << v << " outside [" << p.min << ", " << p.max << "]";
        }
    };
    for (const ParamSpec &p : d.params)
        check(p, "params");
    for (const ParamSpec &p : d.privacyParams)
        check(p, "privacy");
    // The defaults resolve against the descriptor's own specs.
    EXPECT_TRUE(resolveParams(d.params, Json::object(), "params").ok()) << d.id;
    EXPECT_TRUE(resolveParams(d.privacyParams, Json::object(), "privacy").ok()) << d.id;
}

TEST_P(Conformance, ExperimentJsonRoundTrips)
{
    const AlgorithmDescriptor &d = descriptor();
    auto first = resolveExperiment(smallExperiment(d, 30, 2), "");
    ASSERT_TRUE(first.ok()) << first.error().toString();
    auto second = resolveExperiment(first->resolved, "");
    ASSERT_TRUE(second.ok()) << second.error().toString();
    EXPECT_EQ(first->resolved, second->resolved);
    ASSERT_EQ(first->runs.size(), second->runs.size());
    EXPECT_EQ(first->runs[0].algorithm, second->runs[0].algorithm);
    EXPECT_EQ(first->runs[0].params, second->runs[0].params);
    EXPECT_EQ(first->runs[0].privacy, second->runs[0].privacy);
    // Every parameter of the descriptor is in the resolved run, defaults filled in.
    for (const ParamSpec &p : d.params)
        EXPECT_TRUE(first->runs[0].params.contains(p.key)) << "params." << p.key;
    for (const ParamSpec &p : d.privacyParams)
        EXPECT_TRUE(first->runs[0].privacy.contains(p.key)) << "privacy." << p.key;
}

TEST_P(Conformance, SameSeedSameResultsAtOneAndFourThreads)
{
    const AlgorithmDescriptor &d = descriptor();
    auto e = parseExperiment(smallExperiment(d, 40, 4), "");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    RunnerOptions one, four;
    one.threads = 1;
    four.threads = 4;
    auto a = Runner(one).run(*e);
    auto b = Runner(four).run(*e);
    ASSERT_TRUE(a.ok()) << a.error().toString();
    ASSERT_TRUE(b.ok()) << b.error().toString();
    const RunResult &ra = a->points.at(0).runs.at(0), &rb = b->points.at(0).runs.at(0);
    ASSERT_EQ(ra.repetitions.size(), 4u);
    ASSERT_EQ(ra.metricNames, rb.metricNames);
    for (std::size_t r = 0; r < ra.repetitions.size(); ++r) {
        const RepetitionResult &x = ra.repetitions[r], &y = rb.repetitions[r];
        EXPECT_EQ(x.status, y.status) << "repetition " << r;
        EXPECT_EQ(x.iterations, y.iterations) << "repetition " << r;
        EXPECT_TRUE(sameBits(x.values, y.values)) << "repetition " << r << ": metrics differ";
        EXPECT_TRUE(sameBits(x.epsilonAgents, y.epsilonAgents)) << "repetition " << r << ": ε differs";
    }
}

TEST_P(Conformance, StepAllocatesNothing)
{
#if !DPLAB_COUNT_ALLOCATIONS
    GTEST_SKIP() << "allocation counting is off under sanitizers";
#endif
    const AlgorithmDescriptor &d = descriptor();
    auto e = parseExperiment(smallExperiment(d, 60, 1), "");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    const RunContext ctx = makeRunContext(*e, 0, 0);
    std::unique_ptr<Algorithm> algorithm = d.create();
    ASSERT_TRUE(algorithm->reset(ctx).ok());
    MetricTracker tracker(*e->problem, nullptr,
                          applicableMetrics(*e->problem, false, algorithm->accountant() != nullptr, {}));
    auto iterate = [&](int steps) {
        for (int s = 0; s < steps; ++s) {
            if (tracker.needsObserve())
                tracker.observe(algorithm->decisions(), algorithm->iteration());
            algorithm->step();
        }
    };
    iterate(20); // scratch buffers reach their size
    gAllocations = 0;
    gCounting = true;
    iterate(30);
    gCounting = false;
    EXPECT_EQ(gAllocations.load(), 0) << d.id << ": heap allocations in 30 steps";
}

TEST_P(Conformance, EpsilonNeverDecreases)
{
    const AlgorithmDescriptor &d = descriptor();
    std::string why;
    int checked = 0;
    { // the descriptor's defaults
        auto e = parseExperiment(smallExperiment(d, 40, 1), "");
        ASSERT_TRUE(e.ok()) << e.error().toString();
        const auto eps = epsilonTrajectory(*e, 0, 40, &why);
        ASSERT_TRUE(why.empty()) << why;
        expectNonDecreasing(eps, d.id + " (defaults)");
        checked += !eps.empty();
    }
    // Every preset configuration of it (their privacy settings exercise the accountants), cut to
    // a few iterations and one pass over the data. Presets reading large data files (idx) are
    // left to their own tests.
    namespace fs = std::filesystem;
    const std::string folder = resourceDir() + "/presets";
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(folder))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path &file : files) {
        std::ifstream in(file);
        Json doc = Json::parse(in);
        if (doc["problem"].dump().find("\"idx\"") != std::string::npos)
            continue;
        Json runs = Json::array();
        for (const Json &run : doc["runs"])
            if (run.value("algorithm", "") == d.id)
                runs.push_back(run);
        if (runs.empty())
            continue;
        doc["runs"] = runs;
        doc.erase("sweep");
        doc["iterations"] = 30;
        doc["repetitions"] = 1;
        Json &problem = doc["problem"]; // the privacy settings matter here, not a long stream
        if (problem.contains("epochs"))
            problem["epochs"] = 1;
        if (problem.contains("reference_iterations"))
            problem["reference_iterations"] = 0;
        auto e = parseExperiment(doc, folder);
        ASSERT_TRUE(e.ok()) << file.filename() << ": " << e.error().toString();
        for (int r = 0; r < static_cast<int>(e->runs.size()); ++r) {
            const auto eps = epsilonTrajectory(*e, r, 30, &why);
            ASSERT_TRUE(why.empty()) << file.filename() << ": " << why;
            expectNonDecreasing(eps, file.filename().string() + " run " + std::to_string(r));
            checked += !eps.empty();
        }
    }
    RecordProperty("accountants_checked", checked);
}

/** Distance to x* after `iterations` iterations over the distance at the start, one repetition. */
double distanceRatio(const AlgorithmDescriptor &d, long long iterations, const Json &params,
                     const Json &privacy)
{
    Json doc = smallExperiment(d, iterations, 1, params, privacy);
    doc.erase("record_every"); // the default cadence records the first and the last iteration
    auto e = parseExperiment(doc, "");
    EXPECT_TRUE(e.ok()) << e.error().toString();
    if (!e.ok())
        return NAN;
    auto result = Runner().run(*e);
    EXPECT_TRUE(result.ok()) << result.error().toString();
    if (!result.ok())
        return NAN;
    const RunResult &run = result->points.at(0).runs.at(0);
    const auto column = std::find(run.metricNames.begin(), run.metricNames.end(), metric::DistanceToOptimum)
                        - run.metricNames.begin();
    EXPECT_LT(static_cast<std::size_t>(column), run.metricNames.size()) << "no reference optimum";
    const RepetitionResult &rep = run.repetitions.at(0);
    EXPECT_EQ(rep.status, RunStatus::Ok);
    if (static_cast<std::size_t>(column) >= run.metricNames.size() || rep.values.size() < 2)
        return NAN;
    return rep.values.back()[column] / rep.values.front()[column];
}

constexpr long long kNoiseFreeIterations = 3000;
constexpr double kExact = 1e-6; // a neighbourhood of x* (DGD's) is orders of magnitude wider

TEST_P(Conformance, ConvergesWithoutNoiseWhereClaimed)
{
    const AlgorithmDescriptor &d = descriptor();
    if (!d.exactWithoutNoise)
        GTEST_SKIP() << d.id << " claims no exact noise-free convergence";
    EXPECT_FALSE(d.exactWithoutNoise->citation.empty()) << "a claim says where it comes from";
    ASSERT_FALSE(d.needsOnline) << "the claim is about a static problem";
    const double ratio = distanceRatio(d, kNoiseFreeIterations, d.exactWithoutNoise->params,
                                       d.exactWithoutNoise->privacy);
    EXPECT_LT(ratio, kExact) << d.id << ": the distance to x* fell only by " << ratio << " in "
                             << kNoiseFreeIterations << " noise-free iterations ("
                             << d.exactWithoutNoise->citation << ")";
}

TEST(ConformanceCheck, DgdWithAConstantStepDoesNotPassForExact)
{
    // The control: DGD stops in an O(α) neighbourhood of x*, so the check of a claim must fail
    // for it on the same problems (one per graph kind: DGD is undirected only).
    const AlgorithmDescriptor *dgd = findAlgorithm("dgd");
    ASSERT_NE(dgd, nullptr);
    EXPECT_FALSE(dgd->exactWithoutNoise);
    const double ratio = distanceRatio(*dgd, kNoiseFreeIterations, Json::object(), Json::object());
    EXPECT_GT(ratio, 1e3 * kExact);
}

INSTANTIATE_TEST_SUITE_P(Registry, Conformance, ::testing::ValuesIn(registeredIds()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                             std::string name = info.param;
                             for (char &c : name)
                                 if (c == '-')
                                     c = '_';
                             return name;
                         });

// --- The worked example of docs/extending.md ---------------------------------------------------

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(ExtendingExample, IsRegisteredAndConformanceTestsIt)
{
    const std::vector<std::string> ids = registeredIds();
    EXPECT_NE(std::find(ids.begin(), ids.end(), "example-noisy-dgd"), ids.end());
    // Once read, the registry refuses late registrations (pointers into it stay valid).
    AlgorithmDescriptor late = *findAlgorithm("dgd");
    late.id = "late-registration";
    EXPECT_FALSE(registerAlgorithm(late));
    EXPECT_EQ(findAlgorithm("late-registration"), nullptr);
}

TEST(ExtendingExample, DocShowsTheFileVerbatim)
{
    const std::string doc = readFile(std::string(DPLAB_TEST_SOURCE_DIR) + "/docs/extending.md");
    const std::string code = readFile(std::string(DPLAB_TEST_SOURCE_DIR) + "/tests/core/extending_example.cpp");
    ASSERT_FALSE(code.empty());
    const std::string open = "<!-- tests/core/extending_example.cpp -->\n```cpp\n";
    const auto start = doc.find(open);
    ASSERT_NE(start, std::string::npos) << "docs/extending.md must show the example after \"" << open << "\"";
    const auto end = doc.find("\n```\n", start + open.size());
    ASSERT_NE(end, std::string::npos);
    EXPECT_EQ(doc.substr(start + open.size(), end + 1 - start - open.size()), code)
        << "docs/extending.md's code block differs from tests/core/extending_example.cpp";
}

TEST(ExtendingExample, EpsilonIsBasicCompositionOfTheMessagesSent)
{
    const AlgorithmDescriptor *d = findAlgorithm("example-noisy-dgd");
    ASSERT_NE(d, nullptr);
    const Json step = {{"type", "polynomial"}, {"a", 0.1}, {"t0", 1.0}, {"p", 0.5}};
    const Json noise = {{"type", "geometric"}, {"a", 2.0}, {"q", 0.9}};
    auto e = parseExperiment(smallExperiment(*d, 10, 1, {{"stepsize", step}, {"clip", 3.0}}, {{"noise", noise}}), "");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    std::string why;
    const auto eps = epsilonTrajectory(*e, 0, 10, &why);
    ASSERT_TRUE(why.empty()) << why;
    ASSERT_EQ(eps.size(), 11u);
    double expected = 0.0; // ε after t iterations covers the messages of iterations 0..t−1
    for (int t = 0; t <= 10; ++t) {
        for (Eigen::Index i = 0; i < eps[t].size(); ++i)
            EXPECT_NEAR(eps[t][i], expected, 1e-12 * std::max(1.0, expected)) << "t = " << t;
        const double alpha = 0.1 / std::sqrt(t + 1.0), b = 2.0 * std::pow(0.9, t);
        expected += 2.0 * alpha * 3.0 / b;
    }
}

TEST(ExtendingExample, SendsOneNoisyMessagePerAgentAndIteration)
{
    const AlgorithmDescriptor *d = findAlgorithm("example-noisy-dgd");
    ASSERT_NE(d, nullptr);
    auto e = parseExperiment(smallExperiment(*d, 5, 1, Json::object(), {{"noise", 0.5}}), "");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    const RunContext ctx = makeRunContext(*e, 0, 0);
    std::unique_ptr<Algorithm> algorithm = d->create();
    ASSERT_TRUE(algorithm->reset(ctx).ok());
    algorithm->setRecordMessages(true);
    const Eigen::MatrixXd x0 = algorithm->decisions();
    algorithm->step();
    const auto &messages = algorithm->lastMessages();
    ASSERT_EQ(messages.size(), static_cast<std::size_t>(x0.rows()));
    Eigen::MatrixXd sent(x0.rows(), x0.cols());
    for (const Message &m : messages) {
        EXPECT_EQ(m.channel, "x");
        EXPECT_TRUE((m.sent - (m.clean + m.noise)).cwiseAbs().maxCoeff() < 1e-15); // identity compressor
        EXPECT_GT(m.noise.cwiseAbs().maxCoeff(), 0.0);
        EXPECT_EQ(m.bits, static_cast<std::uint64_t>(32 * x0.cols()));
        sent.row(m.sender) = m.sent.transpose();
    }
    // x(1) = W m(0): every agent mixes the messages as sent, its own included.
    EXPECT_LT((algorithm->decisions() - ctx.W * sent).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_EQ(algorithm->bitsSent(), static_cast<std::uint64_t>(32 * x0.size()));
}

} // namespace
} // namespace dplab
