// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/objectives.h"
#include "dplab/problem/problem.h"

#include "../common/tempdir.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace dplab {
namespace {

namespace fs = std::filesystem;

std::shared_ptr<const Problem> build(const Json &spec, int agents, std::uint64_t seed = 1,
                                     const std::string &baseDir = "")
{
    auto result = makeProblem(spec, agents, "problem", baseDir, seed);
    if (!result) {
        ADD_FAILURE() << spec.dump() << ": " << result.error().toString();
        return nullptr;
    }
    return *result;
}

Json explicitQuadratic()
{
    return Json::parse(R"({"type": "quadratic", "dimension": 2, "agents": [
        {"A": [[2, 0], [0, 1]], "b": [1, 0]},
        {"A": [[1, 0], [0, 3]], "b": [0, 2]},
        {"A": [[1, 0.5], [0.5, -0.5]], "b": [-1, 1]}]})");
}

/** The problems every property test runs on: (name, spec, agents). */
struct Case {
    const char *name;
    Json spec;
    int agents;
};

std::vector<Case> cases()
{
    return {
        {"explicit quadratic", explicitQuadratic(), 3},
        {"random quadratic",
         Json::parse(R"({"type": "quadratic", "dimension": 5,
                         "random": {"seed": 3, "min_eigenvalue": 0.5, "max_eigenvalue": 20}})"),
         4},
        {"least squares",
         Json::parse(R"({"type": "least-squares",
                         "data": {"source": "synthetic", "samples": 90, "dimension": 4}})"),
         3},
        {"ridge with bias",
         Json::parse(R"({"type": "ridge", "lambda": 0.3, "bias": true,
                         "data": {"source": "synthetic", "samples": 80, "dimension": 3}})"),
         5},
        {"logistic synthetic",
         Json::parse(R"({"type": "logistic", "lambda": 0.05,
                         "data": {"source": "synthetic", "samples": 200, "dimension": 5}})"),
         4},
        {"logistic breast cancer", Json{{"type", "logistic"}}, 8},
        {"logistic by label", Json::parse(R"({"type": "logistic", "split": "by-label"})"), 6},
    };
}

/** Runs `check(problem)` on the problem of every case; a failure names the case. */
template <class Check>
void forEachCase(Check check)
{
    for (const auto &c : cases()) {
        SCOPED_TRACE(c.name);
        const auto problem = build(c.spec, c.agents);
        ASSERT_TRUE(problem);
        check(problem);
    }
}

Eigen::MatrixXd randomPoint(int n, int d, std::uint64_t seed, double scale)
{
    Rng rng(seed);
    Eigen::MatrixXd X(n, d);
    for (Eigen::Index k = 0; k < X.size(); ++k)
        X.data()[k] = scale * rng.gaussian();
    return X;
}

// --- Derivatives -----------------------------------------------------------------------------

TEST(Objectives, GradientsMatchCentralDifferences)
{
    forEachCase([](const std::shared_ptr<const Problem> &problem) {
        const int n = problem->agentCount();
        const int d = problem->dimension();
        for (std::uint64_t point = 0; point < 3; ++point) {
            const Eigen::MatrixXd X = randomPoint(n, d, 100 + point, 1.0);
            Eigen::MatrixXd G(n, d);
            problem->gradients(X, G);
            // f_i depends on row i only, so shifting column j of every row at once gives
            // ∂f_i/∂x_j for all agents from two batched evaluations.
            Eigen::MatrixXd numeric(n, d);
            const double h = 1e-5;
            for (int j = 0; j < d; ++j) {
                Eigen::MatrixXd plus = X, minus = X;
                plus.col(j).array() += h;
                minus.col(j).array() -= h;
                Eigen::VectorXd fPlus(n), fMinus(n);
                problem->values(plus, fPlus);
                problem->values(minus, fMinus);
                numeric.col(j) = (fPlus - fMinus) / (2.0 * h);
            }
            for (int i = 0; i < n; ++i)
                EXPECT_LE((numeric.row(i) - G.row(i)).norm(),
                          1e-6 * std::max(1.0, G.row(i).norm()))
                    << "agent " << i << " point " << point;
        }
    });
}

TEST(Objectives, HessiansMatchDifferencesOfTheGradient)
{
    forEachCase([](const std::shared_ptr<const Problem> &problem) {
        const int d = problem->dimension();
        const Eigen::VectorXd x = randomPoint(1, d, 7, 0.5).row(0).transpose();
        const auto H = problem->globalHessian(x);
        ASSERT_TRUE(H.has_value());
        EXPECT_LT((*H - H->transpose()).norm(), 1e-12 * H->norm());
        const double h = 1e-5;
        Eigen::MatrixXd numeric(d, d);
        for (int j = 0; j < d; ++j) {
            Eigen::VectorXd e = Eigen::VectorXd::Unit(d, j) * h;
            numeric.col(j) = (problem->globalGradient(x + e) - problem->globalGradient(x - e))
                             / (2.0 * h);
        }
        EXPECT_LE((numeric - *H).norm(), 1e-6 * std::max(1.0, H->norm()));
    });
}

TEST(Objectives, GlobalFunctionsAreAgentAverages)
{
    forEachCase([](const std::shared_ptr<const Problem> &problem) {
        const int n = problem->agentCount();
        const Eigen::VectorXd x = randomPoint(1, problem->dimension(), 9, 1.0).row(0).transpose();
        const Eigen::MatrixXd X = x.transpose().replicate(n, 1);
        Eigen::VectorXd values(n);
        Eigen::MatrixXd gradients(n, x.size());
        problem->values(X, values);
        problem->gradients(X, gradients);
        EXPECT_NEAR(problem->globalValue(x), values.mean(), 1e-12 * (1 + std::abs(values.mean())));
        EXPECT_LE((problem->globalGradient(x) - gradients.colwise().mean().transpose()).norm(),
                  1e-12 * (1 + gradients.norm()));
    });
}

// --- Batched evaluation against one agent at a time -------------------------------------------

/** A problem made of agent i alone, of the same type. */
std::unique_ptr<Problem> agentAlone(const Problem &problem, int i)
{
    if (const auto *q = dynamic_cast<const QuadraticProblem *>(&problem))
        return std::make_unique<QuadraticProblem>(std::vector<Eigen::MatrixXd>{q->A(i)},
                                                  std::vector<Eigen::VectorXd>{q->b(i)});
    if (const auto *ls = dynamic_cast<const LeastSquaresProblem *>(&problem)) {
        Dataset own{ls->samples().features(i), ls->samples().labels(i), ""};
        return std::make_unique<LeastSquaresProblem>(std::vector<Dataset>{own}, ls->lambda());
    }
    const auto &logistic = dynamic_cast<const LogisticProblem &>(problem);
    Dataset own{logistic.samples().features(i), logistic.samples().labels(i), ""};
    return std::make_unique<LogisticProblem>(std::vector<Dataset>{own}, logistic.lambda());
}

/** f_i by a plain loop over agent i's samples (the model the batched code is checked against). */
double naiveValue(const Problem &problem, int i, const Eigen::VectorXd &x)
{
    if (const auto *q = dynamic_cast<const QuadraticProblem *>(&problem))
        return 0.5 * x.dot(q->A(i) * x) - q->b(i).dot(x);
    const bool logistic = problem.id() == "logistic";
    const AgentSamples &s = logistic ? dynamic_cast<const LogisticProblem &>(problem).samples()
                                     : dynamic_cast<const LeastSquaresProblem &>(problem).samples();
    const double lambda = logistic ? dynamic_cast<const LogisticProblem &>(problem).lambda()
                                   : dynamic_cast<const LeastSquaresProblem &>(problem).lambda();
    double sum = 0.0;
    for (Eigen::Index k = s.offsets[i]; k < s.offsets[i + 1]; ++k) {
        double dot = 0.0;
        for (Eigen::Index j = 0; j < x.size(); ++j)
            dot += s.X(k, j) * x(j);
        sum += logistic ? std::log(1.0 + std::exp(-s.y(k) * dot))
                        : 0.5 * (dot - s.y(k)) * (dot - s.y(k));
    }
    return sum / static_cast<double>(s.count(i)) + 0.5 * lambda * x.squaredNorm();
}

TEST(Objectives, BatchedEqualsOneAgentAtATime)
{
    forEachCase([](const std::shared_ptr<const Problem> &problem) {
        const int n = problem->agentCount();
        const int d = problem->dimension();
        const Eigen::MatrixXd X = randomPoint(n, d, 21, 0.7);
        Eigen::VectorXd values(n);
        Eigen::MatrixXd gradients(n, d);
        problem->values(X, values);
        problem->gradients(X, gradients);
        for (int i = 0; i < n; ++i) {
            const auto alone = agentAlone(*problem, i);
            Eigen::VectorXd value(1);
            Eigen::MatrixXd gradient(1, d);
            alone->values(X.row(i), value);
            alone->gradients(X.row(i), gradient);
            EXPECT_NEAR(values(i), value(0), 1e-13 * (1 + std::abs(value(0)))) << "agent " << i;
            EXPECT_LE((gradients.row(i) - gradient).norm(), 1e-13 * (1 + gradient.norm()));
            const double naive = naiveValue(*problem, i, X.row(i).transpose());
            EXPECT_NEAR(values(i), naive, 1e-12 * (1 + std::abs(naive))) << "agent " << i;
        }
    });
}

TEST(Objectives, LogisticIsStableForHugeMargins)
{
    Dataset data;
    data.X = Eigen::MatrixXd::Ones(2, 1);
    data.y = Eigen::Vector2d(1.0, -1.0);
    LogisticProblem problem({data}, 0.0);
    Eigen::VectorXd value(1);
    Eigen::MatrixXd gradient(1, 1);
    Eigen::MatrixXd X(1, 1);
    X(0, 0) = 1000.0; // margins +1000 and −1000: loss ≈ (0 + 1000)/2, gradient (0 + 1)/2
    problem.values(X, value);
    problem.gradients(X, gradient);
    EXPECT_DOUBLE_EQ(value(0), 500.0);
    EXPECT_DOUBLE_EQ(gradient(0, 0), 0.5);
    X(0, 0) = -1000.0;
    problem.values(X, value);
    problem.gradients(X, gradient);
    EXPECT_DOUBLE_EQ(value(0), 500.0);
    EXPECT_DOUBLE_EQ(gradient(0, 0), -0.5);
}

// --- Closed forms ----------------------------------------------------------------------------

TEST(Objectives, QuadraticClosedFormByHand)
{
    // A_1 + A_2 = diag(3, 4), b_1 + b_2 = (1, 2): x* = (1/3, 1/2), F* = −½ b̄ᵀx* = −1/3.
    auto spec = explicitQuadratic();
    spec["agents"].erase(2);
    auto problem = build(spec, 2);
    ASSERT_TRUE(problem);
    auto x = problem->closedFormOptimum();
    ASSERT_TRUE(x.has_value());
    EXPECT_NEAR((*x)(0), 1.0 / 3.0, 1e-15);
    EXPECT_NEAR((*x)(1), 0.5, 1e-15);
    auto reference = solveReference(*problem);
    ASSERT_TRUE(reference.ok());
    EXPECT_EQ(reference->method, "closed form");
    EXPECT_NEAR(reference->value, -1.0 / 3.0, 1e-15);
    EXPECT_LE(reference->gradientNorm, 1e-15);
}

TEST(Objectives, ClosedFormsZeroTheGradient)
{
    forEachCase([](const std::shared_ptr<const Problem> &problem) {
        if (problem->id() == "logistic")
            return;
        const auto x = problem->closedFormOptimum();
        ASSERT_TRUE(x.has_value());
        const Eigen::VectorXd zero = Eigen::VectorXd::Zero(problem->dimension());
        const double scale = problem->globalGradient(zero).norm()
                             + problem->globalHessian(zero)->norm() * x->norm();
        EXPECT_LE(problem->globalGradient(*x).norm(), 1e-10 * std::max(1.0, scale));
    });
}

TEST(Objectives, HomogeneousRandomQuadraticSharesTheMinimiser)
{
    auto problem = build(Json::parse(R"({"type": "quadratic", "dimension": 4,
                                         "random": {"heterogeneity": 0}})"),
                         5);
    ASSERT_TRUE(problem);
    const auto x = problem->closedFormOptimum();
    ASSERT_TRUE(x.has_value());
    Eigen::MatrixXd G(5, 4);
    problem->gradients(x->transpose().replicate(5, 1), G);
    EXPECT_LT(G.norm(), 1e-10 * (1 + x->norm()));
    // Eigenvalues of every A_i span the default [1, 10].
    const auto facts = problem->describe();
    EXPECT_NEAR(facts["strong_convexity"].get<double>(), 1.0, 1e-10);
    EXPECT_NEAR(facts["smoothness"].get<double>(), 10.0, 1e-10);
}

// --- Factory ---------------------------------------------------------------------------------

Error buildError(const Json &spec, int agents, const std::string &baseDir = "")
{
    auto result = makeProblem(spec, agents, "problem", baseDir, 1);
    if (result) {
        ADD_FAILURE() << "expected an error for " << spec.dump();
        return {};
    }
    return result.error();
}

TEST(Factory, QuadraticErrorsNameTheField)
{
    EXPECT_EQ(buildError(explicitQuadratic(), 4).where, "problem.agents");
    auto wrongShape = explicitQuadratic();
    wrongShape["agents"][2]["A"] = Json::parse("[[1, 0, 0], [0, 1, 0]]");
    auto error = buildError(wrongShape, 3);
    EXPECT_EQ(error.where, "problem.agents[2].A");
    EXPECT_NE(error.message.find("must be 2×2"), std::string::npos) << error.message;
    auto asymmetric = explicitQuadratic();
    asymmetric["agents"][1]["A"] = Json::parse("[[1, 2], [0, 1]]");
    EXPECT_EQ(buildError(asymmetric, 3).where, "problem.agents[1].A");
    auto shortB = explicitQuadratic();
    shortB["agents"][0]["b"] = Json::parse("[1]");
    EXPECT_EQ(buildError(shortB, 3).where, "problem.agents[0].b");
    auto extra = explicitQuadratic();
    extra["agents"][0]["c"] = 1;
    EXPECT_EQ(buildError(extra, 3).where, "problem.agents[0].c");
    auto indefinite = explicitQuadratic();
    for (auto &agent : indefinite["agents"])
        agent["A"] = Json::parse("[[1, 0], [0, -1]]");
    EXPECT_EQ(buildError(indefinite, 3).where, "problem.agents");
    auto both = explicitQuadratic();
    both["random"] = Json::object();
    EXPECT_EQ(buildError(both, 3).where, "problem.random");
    auto noDimension = explicitQuadratic();
    noDimension.erase("dimension");
    EXPECT_EQ(buildError(noDimension, 3).where, "problem.dimension");
    EXPECT_EQ(buildError(Json::parse(R"({"type": "quadratic", "dimension": 2,
                                        "random": {"min_eigenvalue": 5, "max_eigenvalue": 2}})"),
                         2)
                  .where,
              "problem.random.max_eigenvalue");
}

TEST(Factory, UnknownTypesAndKeysAreErrors)
{
    EXPECT_EQ(buildError(Json{{"type", "quadratik"}}, 2).where, "problem.type");
    EXPECT_EQ(buildError(Json::object(), 2).where, "problem.type");
    EXPECT_EQ(buildError(Json::array(), 2).where, "problem");
    EXPECT_EQ(buildError(Json{{"type", "logistic"}, {"lamda", 1}}, 2).where, "problem.lamda");
    EXPECT_EQ(buildError(Json{{"type", "logistic"}, {"lambda", -1}}, 2).where, "problem.lambda");
    EXPECT_EQ(buildError(Json{{"type", "ridge"}, {"lambda", 0}}, 2).where, "problem.lambda");
    EXPECT_EQ(buildError(Json{{"type", "least-squares"}, {"lambda", 0.1}}, 2).where,
              "problem.lambda");
    // Keys of another source are unknown.
    EXPECT_EQ(buildError(Json::parse(R"({"type": "logistic",
                                        "data": {"source": "synthetic", "path": "x.csv"}})"),
                         2)
                  .where,
              "problem.data.path");
    EXPECT_EQ(buildError(Json::parse(R"({"type": "logistic", "data": {"source": "excel"}})"), 2)
                  .where,
              "problem.data.source");
    EXPECT_EQ(buildError(Json::parse(R"({"type": "logistic", "data": {"source": "csv"}})"), 2)
                  .where,
              "problem.data.path");
    EXPECT_EQ(buildError(Json::parse(R"({"type": "logistic",
                                        "data": {"source": "bundled", "name": "iris"}})"),
                         2)
                  .where,
              "problem.data.name");
}

TEST(Factory, DataThatCannotServeTheProblemIsAnError)
{
    // Fewer samples than agents.
    EXPECT_EQ(buildError(Json::parse(R"({"type": "ridge",
                                        "data": {"source": "synthetic", "samples": 5}})"),
                         10)
                  .where,
              "problem.data");
    // Least squares with fewer samples than features has no unique minimiser.
    EXPECT_EQ(buildError(Json::parse(R"({"type": "least-squares",
                          "data": {"source": "synthetic", "samples": 6, "dimension": 10}})"),
                         2)
                  .where,
              "problem.data");
    // ... while ridge is fine.
    EXPECT_TRUE(build(Json::parse(R"({"type": "ridge",
                          "data": {"source": "synthetic", "samples": 6, "dimension": 10}})"),
                      2));
}

class FactoryFiles : public ::testing::Test
{
protected:
    std::string write(const std::string &name, const std::string &text) const
    {
        std::ofstream((mTemp.path() / name).string()) << text;
        return (mTemp.path() / name).string();
    }
    test::TempDir mTemp;
};

TEST_F(FactoryFiles, RelativePathsResolveAgainstTheBaseDir)
{
    // Labels 0/1 in the first column, named "y": 1 becomes +1, 0 becomes −1.
    std::string csv = "y,a,b\n";
    for (int k = 0; k < 20; ++k)
        csv += std::to_string(k % 2) + "," + std::to_string(k) + "," + std::to_string(k % 3) + "\n";
    write("d.csv", csv);
    auto problem = build(Json::parse(R"({"type": "logistic", "test_fraction": 0, "bias": false,
                           "data": {"source": "csv", "path": "d.csv", "label_name": "y"}})"),
                         2, 1, mTemp.path().string());
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->dimension(), 2);
    const auto facts = problem->describe();
    EXPECT_EQ(facts["samples"].get<int>(), 20);
    EXPECT_EQ(facts["positive_samples"].get<int>(), 10);
    EXPECT_EQ(facts["samples_per_agent"], Json::parse("[10, 10]"));
    EXPECT_EQ(facts["file"].get<std::string>(), (mTemp.path() / "d.csv").string());

    auto missing = buildError(
        Json::parse(R"({"type": "ridge", "data": {"source": "csv", "path": "nope.csv"}})"), 2,
        mTemp.path().string());
    EXPECT_EQ(missing.code, ErrorCode::NotFound);
    EXPECT_EQ(missing.where, "problem.data.path");
    EXPECT_NE(missing.message.find("nope.csv"), std::string::npos) << missing.message;

    const auto bad = write("bad.csv", "a,b\n1,2\n3,oops\n");
    EXPECT_EQ(buildError(Json::parse(R"({"type": "ridge",
                                        "data": {"source": "csv", "path": "bad.csv"}})"),
                         1, mTemp.path().string())
                  .where,
              bad + ":3");
    write("three.csv", "1,0\n2,1\n3,2\n");
    EXPECT_EQ(buildError(Json::parse(R"({"type": "logistic",
                                        "data": {"source": "csv", "path": "three.csv"}})"),
                         1, mTemp.path().string())
                  .where,
              "problem.data");
}

TEST_F(FactoryFiles, LibsvmLabelsOneTwoBecomeMinusPlusOne)
{
    std::string svm;
    for (int k = 0; k < 12; ++k)
        svm += std::to_string(1 + k % 2) + " 1:" + std::to_string(k) + " 3:1\n";
    const auto path = write("d.svm", svm);
    auto problem = build(Json{{"type", "logistic"},
                              {"test_fraction", 0.25},
                              {"data",
                               {{"source", "libsvm"}, {"path", path}, {"standardize", true}}}},
                         3);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->dimension(), 4); // 3 features + bias
    const auto &logistic = dynamic_cast<const LogisticProblem &>(*problem);
    EXPECT_EQ(logistic.samples().X.rows(), 9);
    EXPECT_EQ(logistic.testSet().samples(), 3);
    EXPECT_TRUE((logistic.samples().y.array().abs() == 1.0).all());
    // Standardised on the training split: zero means, and the bias column is 1.
    const Eigen::RowVectorXd mean = logistic.samples().X.colwise().mean();
    EXPECT_LT(mean.head(3).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_EQ(mean(3), 1.0);
    EXPECT_EQ(problem->describe()["label_map"], Json::parse(R"({"1": -1, "2": 1})"));
}

TEST(Factory, SeedsAreDeterministicAndTheProblemSeedWins)
{
    const Json spec = Json::parse(R"({"type": "logistic",
                                      "data": {"source": "synthetic", "samples": 50}})");
    const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(11, -1, 1);
    auto a = build(spec, 3, 7);
    auto b = build(spec, 3, 7);
    auto c = build(spec, 3, 8);
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(a->globalValue(x), b->globalValue(x));
    EXPECT_NE(a->globalValue(x), c->globalValue(x));
    auto own = spec;
    own["seed"] = 5;
    auto d = build(own, 3, 7);
    auto e = build(own, 3, 8);
    ASSERT_TRUE(d && e);
    EXPECT_EQ(d->globalValue(x), e->globalValue(x));
    EXPECT_EQ(d->describe()["seed"].get<std::uint64_t>(), 5u);
    // The random quadratic's own seed wins over both.
    const Json quadratic = Json::parse(R"({"type": "quadratic", "dimension": 3, "seed": 1,
                                           "random": {"seed": 3}})");
    auto q1 = build(quadratic, 2, 7);
    auto quadraticThree = quadratic;
    quadraticThree["seed"] = 3;
    quadraticThree["random"].erase("seed");
    auto q2 = build(quadraticThree, 2, 8);
    ASSERT_TRUE(q1 && q2);
    EXPECT_EQ(q1->globalValue(x.head(3)), q2->globalValue(x.head(3)));
}

TEST(Factory, BundledBreastCancerAcrossEightAgents)
{
    auto problem = build(Json{{"type", "logistic"}}, 8);
    ASSERT_TRUE(problem);
    const auto facts = problem->describe();
    EXPECT_EQ(problem->dimension(), 31);
    EXPECT_EQ(facts["test_samples"].get<int>(), 114); // round(0.2 · 569)
    EXPECT_EQ(facts["samples"].get<int>(), 455);
    EXPECT_EQ(facts["lambda"].get<double>(), 0.01);
    EXPECT_EQ(facts["source"].get<std::string>(), "breast-cancer");
    int smallest = 1000, largest = 0;
    for (const auto &count : facts["samples_per_agent"]) {
        smallest = std::min(smallest, count.get<int>());
        largest = std::max(largest, count.get<int>());
    }
    EXPECT_LE(largest - smallest, 1);
    // x = 0 predicts +1 everywhere: its accuracy is the share of malignant training samples.
    EXPECT_DOUBLE_EQ(problem->accuracy(Eigen::VectorXd::Zero(31), false).value(),
                     facts["positive_samples"].get<double>() / 455.0);
    EXPECT_TRUE(problem->accuracy(Eigen::VectorXd::Zero(31), true).has_value());
}

TEST(Factory, ByLabelSplitGivesAgentsOneLabelEach)
{
    auto problem = build(Json::parse(R"({"type": "logistic", "split": "by-label"})"), 8);
    ASSERT_TRUE(problem);
    const auto &samples = dynamic_cast<const LogisticProblem &>(*problem).samples();
    int mixed = 0;
    double previous = -1.0;
    for (int i = 0; i < 8; ++i) {
        const auto labels = samples.labels(i);
        mixed += labels.minCoeff() != labels.maxCoeff();
        EXPECT_GE(labels.minCoeff(), previous);
        previous = labels.maxCoeff();
    }
    EXPECT_LE(mixed, 1); // only the agent at the boundary between the classes
}

TEST(Factory, ResolveFillsDefaultsAndDescriptorsListTheKeys)
{
    auto resolved = resolveProblemSpec(Json{{"type", "logistic"}}, 4, "problem");
    ASSERT_TRUE(resolved.ok()) << resolved.error().toString();
    EXPECT_EQ(*resolved, Json::parse(R"({"type": "logistic", "lambda": 0.01, "split": "iid",
                                         "bias": true, "test_fraction": 0.2, "seed": -1,
                                         "data": {"source": "bundled",
                                                  "name": "breast-cancer"}})"));
    // Resolving a resolved object changes nothing, and it builds the same problem.
    auto again = resolveProblemSpec(*resolved, 4, "problem");
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *resolved);

    std::vector<std::string> ids;
    for (const auto &d : problemDescriptors()) {
        ids.push_back(d.id);
        EXPECT_FALSE(d.name.empty());
        EXPECT_FALSE(d.explanation.empty());
    }
    EXPECT_EQ(ids, (std::vector<std::string>{"quadratic", "least-squares", "ridge", "logistic",
                                             "rendezvous", "paper003-ridge", "nonconvex-logistic",
                                             "nonconvex-pl", "online-logistic", "online-multiclass",
                                             "online-softmax"}));
    auto hasKey = [](const Descriptor &d, const std::string &key) {
        for (const auto &p : d.params)
            if (p.key == key)
                return true;
        return false;
    };
    EXPECT_TRUE(hasKey(problemDescriptors()[0], "random.max_eigenvalue"));
    EXPECT_TRUE(hasKey(problemDescriptors()[3], "data.path"));
    EXPECT_TRUE(hasKey(problemDescriptors()[3], "test_fraction"));
    EXPECT_FALSE(hasKey(problemDescriptors()[1], "lambda"));
}

TEST(ResourceDir, EnvironmentOverridesTheSourceTree)
{
    const char *old = std::getenv("DPLAB_RESOURCES");
    const std::string saved = old ? old : "";
    setenv("DPLAB_RESOURCES", "/somewhere/else", 1);
    EXPECT_EQ(resourceDir(), "/somewhere/else");
    unsetenv("DPLAB_RESOURCES");
    EXPECT_TRUE(fs::exists(fs::path(resourceDir()) / "data" / "breast_cancer_standardized.csv"));
    if (old)
        setenv("DPLAB_RESOURCES", saved.c_str(), 1);
}

} // namespace
} // namespace dplab
