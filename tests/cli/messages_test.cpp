// SPDX-License-Identifier: GPL-3.0-or-later
// `dplab-cli run … --messages`: messages.csv is enough to replay an algorithm's noisy trajectory.
// For one algorithm of each paper (LDP-GT of paper 000, PGTC of paper 001, PD-OGD of paper 002,
// robust DP gradient tracking of paper 003) the test reads messages.csv and trace.csv of one run
// and rebuilds every recorded step x(t) → x(t+1) from the messages' clean, noise and sent values
// (and, where the paper's update uses the agent's own gradient, the problem's gradient), with
// the weights of the run's experiment.json. The same replay with the clean values in place of
// the sent ones misses the trace: the recorded noise is where the trajectory's noise enters.
// Also: the columns, the bits against metrics.csv, the default, shards and the memory limit.
#include "clitest.h"

#include "dplab/common/csv.h"
#include "dplab/common/files.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"
#include "dplab/common/schedule.h"

#include <nlohmann/json.hpp>

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace dplab::test {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

struct Msg {
    std::vector<int> receivers;
    Eigen::VectorXd clean, noise, sent;
    long long bits = -1;
};

/** messages.csv of repetition 0 of the (only) run: [iteration][channel][sender]. */
using Messages = std::map<long long, std::map<std::string, std::map<int, Msg>>>;

double number(const std::string &text)
{
    return text.empty() ? std::nan("") : std::stod(text);
}

Messages readMessages(const fs::path &file)
{
    auto table = parseCsv(readText(file), file.string());
    EXPECT_TRUE(table.ok());
    Messages out;
    if (!table.ok())
        return out;
    const auto &header = table->rows.front();
    EXPECT_EQ(header, (std::vector<std::string>{"run", "repetition", "iteration", "sender", "receivers", "channel",
                                                "coordinate", "clean", "noise", "sent", "bits"}));
    // Rows of one message in coordinate order; grow the vectors as they come.
    std::map<long long, std::map<std::string, std::map<int, std::vector<std::array<double, 3>>>>> values;
    for (std::size_t r = 1; r < table->rows.size(); ++r) {
        const auto &row = table->rows[r];
        if (row[1] != "0")
            continue;
        const long long k = std::stoll(row[2]);
        const int sender = std::stoi(row[3]);
        Msg &m = out[k][row[5]][sender];
        auto &v = values[k][row[5]][sender];
        EXPECT_EQ(std::stoul(row[6]), v.size()) << "coordinates in order";
        if (v.empty()) {
            std::istringstream in(row[4]);
            for (int j; in >> j;)
                m.receivers.push_back(j);
            m.bits = std::stoll(row[10]);
        } else {
            EXPECT_EQ(row[10], "") << "bits only on coordinate 0";
        }
        v.push_back({number(row[7]), number(row[8]), number(row[9])});
    }
    for (auto &[k, channels] : values)
        for (auto &[channel, senders] : channels)
            for (auto &[sender, v] : senders) {
                Msg &m = out[k][channel][sender];
                const auto d = static_cast<Eigen::Index>(v.size());
                m.clean.resize(d);
                m.noise.resize(d);
                m.sent.resize(d);
                for (Eigen::Index c = 0; c < d; ++c) {
                    m.clean[c] = v[static_cast<std::size_t>(c)][0];
                    m.noise[c] = v[static_cast<std::size_t>(c)][1];
                    m.sent[c] = v[static_cast<std::size_t>(c)][2];
                }
            }
    return out;
}

/** trace.csv of repetition 0: [iteration] → n×d. */
std::map<long long, Eigen::MatrixXd> readTrace(const fs::path &file)
{
    auto table = parseCsv(readText(file), file.string());
    EXPECT_TRUE(table.ok());
    std::map<long long, std::vector<std::vector<double>>> rows;
    const std::size_t first = 4;
    for (std::size_t r = 1; table.ok() && r < table->rows.size(); ++r) {
        const auto &row = table->rows[r];
        if (row[1] != "0")
            continue;
        std::vector<double> x;
        for (std::size_t c = first; c < row.size(); ++c)
            x.push_back(std::stod(row[c]));
        rows[std::stoll(row[2])].push_back(std::move(x));
    }
    std::map<long long, Eigen::MatrixXd> out;
    for (auto &[k, agents] : rows) {
        Eigen::MatrixXd x(static_cast<Eigen::Index>(agents.size()), static_cast<Eigen::Index>(agents.front().size()));
        for (std::size_t i = 0; i < agents.size(); ++i)
            for (std::size_t c = 0; c < agents[i].size(); ++c)
                x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = agents[i][c];
        out[k] = std::move(x);
    }
    return out;
}

/** Message rows of channel `channel` at iteration k as an n×d matrix of `what`. */
Eigen::MatrixXd rowsOf(const Messages &messages, long long k, const std::string &channel, Eigen::VectorXd Msg::*what)
{
    const auto &senders = messages.at(k).at(channel);
    Eigen::MatrixXd out(static_cast<Eigen::Index>(senders.size()), (senders.begin()->second.*what).size());
    for (const auto &[i, m] : senders)
        out.row(i) = (m.*what).transpose();
    return out;
}

/** A preset reduced to one run, `iterations` iterations, one repetition, every iteration
 *  recorded; run with --trace --messages --messages-iterations `recorded`. */
struct Replay {
    TempDir dir;
    Experiment experiment;
    RunContext context;
    Messages messages;
    std::map<long long, Eigen::MatrixXd> trace;
    int n = 0;

    Replay(const std::string &presetName, int run, int iterations, int recorded, const Json &params = Json::object())
    {
        Json doc = Json::parse(readText(preset(presetName)));
        Json r = doc["runs"][static_cast<std::size_t>(run)];
        for (auto it = params.begin(); it != params.end(); ++it)
            r["params"][it.key()] = it.value();
        doc["runs"] = Json::array({r});
        doc["iterations"] = iterations;
        doc["repetitions"] = 1;
        doc["record_every"] = 1;
        doc.erase("sweep");
        writeText(dir / "e.json", doc.dump(2));
        auto out = runCli("run " + quote((dir / "e.json").string()) + " --trace --messages --messages-iterations "
                          + std::to_string(recorded) + " --out " + quote((dir / "out").string()) + " --quiet");
        EXPECT_EQ(out.exitCode, 0) << out.err;
        auto e = parseExperiment(Json::parse(readText(dir / "out" / "experiment.json")), dir.path().string());
        EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().toString());
        if (!e.ok())
            return;
        experiment = std::move(*e);
        context = makeRunContext(experiment, 0, 0);
        messages = readMessages(dir / "out" / "messages.csv");
        trace = readTrace(dir / "out" / "trace.csv");
        n = experiment.graph.nodeCount();
        EXPECT_EQ(static_cast<int>(messages.size()), recorded);
    }

    /** Every message names the sender's out-neighbours once. */
    void expectReceiversAreTheGraph() const
    {
        for (const auto &[k, channels] : messages)
            for (const auto &[channel, senders] : channels)
                for (const auto &[i, m] : senders)
                    EXPECT_EQ(m.receivers, experiment.graph.outNeighbours(i)) << channel << " of " << i << " at " << k;
    }
};

/** |a − b| within rounding of a one-step replay (sums in another order). */
::testing::AssertionResult sameIterate(const Eigen::MatrixXd &replayed, const Eigen::MatrixXd &traced)
{
    if (replayed.rows() != traced.rows() || replayed.cols() != traced.cols())
        return ::testing::AssertionFailure() << "shapes differ";
    const double err = (replayed - traced).cwiseAbs().maxCoeff();
    const double scale = 1.0 + traced.cwiseAbs().maxCoeff();
    if (err <= 1e-11 * scale)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "max difference " << err << " (scale " << scale << ")";
}

double distance(const Eigen::MatrixXd &a, const Eigen::MatrixXd &b)
{
    return (a - b).cwiseAbs().maxCoeff();
}

/** Σ_j W_ij v_j with own (diagonal) and received (off-diagonal) terms. */
Eigen::MatrixXd mix(const Eigen::MatrixXd &w, const Eigen::MatrixXd &own, const Eigen::MatrixXd &received)
{
    Eigen::MatrixXd off = w;
    off.diagonal().setZero();
    return w.diagonal().asDiagonal() * own + off * received;
}

TEST(Messages, Paper000LdpGtReplaysFromMessages)
{
    // θ(t+1) = R_diag θ(t) + R_off (θ(t) + ϑ(t)) − κ(t) (s(t+1) − s(t)), κ_i = 1/(n [z_i(t)]_i),
    // with s and z the clean values of the "s" and "z" messages.
    Replay r("paper000-fig2-logistic.json", 0, 8, 7);
    ASSERT_FALSE(r.messages.empty());
    r.expectReceiversAreTheGraph();
    const Eigen::MatrixXd &R = r.context.R;
    int noisy = 0;
    for (long long t = 0; t + 1 < 7; ++t) {
        const Eigen::MatrixXd theta = r.trace.at(t);
        EXPECT_EQ(rowsOf(r.messages, t, "theta", &Msg::clean), theta) << "clean θ message = θ(t), t = " << t;
        const Eigen::MatrixXd sent = rowsOf(r.messages, t, "theta", &Msg::sent);
        EXPECT_EQ(sent, theta + rowsOf(r.messages, t, "theta", &Msg::noise)) << "sent = clean + noise (no compressor)";
        Eigen::VectorXd kappa(r.n);
        const Eigen::MatrixXd z = rowsOf(r.messages, t, "z", &Msg::clean);
        for (int i = 0; i < r.n; ++i)
            kappa[i] = 1.0 / (r.n * z(i, i));
        const Eigen::MatrixXd ds = rowsOf(r.messages, t + 1, "s", &Msg::clean) - rowsOf(r.messages, t, "s", &Msg::clean);
        const Eigen::MatrixXd replayed = mix(R, theta, sent) - kappa.asDiagonal() * ds;
        EXPECT_TRUE(sameIterate(replayed, r.trace.at(t + 1))) << "t = " << t;
        const Eigen::MatrixXd noiseFree = mix(R, theta, theta) - kappa.asDiagonal() * ds;
        noisy += distance(noiseFree, r.trace.at(t + 1)) > 1e-6 ? 1 : 0;
    }
    EXPECT_EQ(noisy, 6) << "the recorded noise is what moves θ off the noise-free update";
}

TEST(Messages, Paper001PgtcReplaysFromCompressedDifferences)
{
    // Reference channels (paper 001 (14)–(17)): x̂ = c + m, c ← (1 − α) c + α x̂, c(0) = 0;
    // x(k+1) = x(k) + ξ_x(k) + γ Σ_j w_ij (x̂_j − x̂_i) − η y(k), y(k) = clean_y + c_y.
    Replay r("paper001-fig2-nonconvex-logistic.json", 0, 8, 8);
    ASSERT_FALSE(r.messages.empty());
    r.expectReceiversAreTheGraph();
    const double eta = r.context.params.at("stepsize").get<double>();
    const double gamma = r.context.params.at("gamma").get<double>();
    const double ax = r.context.params.at("alpha_x").get<double>();
    const double ay = r.context.params.at("alpha_y").get<double>();
    ASSERT_FALSE(r.context.params.at("error_feedback").get<bool>());
    const Eigen::MatrixXd &W = r.context.W;
    const Eigen::Index d = r.trace.at(0).cols();
    Eigen::MatrixXd cx = Eigen::MatrixXd::Zero(r.n, d), cy = Eigen::MatrixXd::Zero(r.n, d);
    auto laplacian = [&](const Eigen::MatrixXd &v) {
        Eigen::MatrixXd off = W;
        off.diagonal().setZero();
        return Eigen::MatrixXd(off * v - off.rowwise().sum().asDiagonal() * v);
    };
    int compressed = 0;
    for (long long k = 0; k < 7; ++k) {
        const Eigen::MatrixXd x = r.trace.at(k);
        EXPECT_TRUE(sameIterate(rowsOf(r.messages, k, "x", &Msg::clean) + cx, x)) << "clean = x − c, k = " << k;
        const Eigen::MatrixXd y = rowsOf(r.messages, k, "y", &Msg::clean) + cy;
        const Eigen::MatrixXd xHat = cx + rowsOf(r.messages, k, "x", &Msg::sent);
        const Eigen::MatrixXd yHat = cy + rowsOf(r.messages, k, "y", &Msg::sent);
        cx = (1 - ax) * cx + ax * xHat;
        cy = (1 - ay) * cy + ay * yHat;
        const Eigen::MatrixXd replayed = x + rowsOf(r.messages, k, "x", &Msg::noise) + gamma * laplacian(xHat) - eta * y;
        EXPECT_TRUE(sameIterate(replayed, r.trace.at(k + 1))) << "k = " << k;
        const Eigen::MatrixXd sent = rowsOf(r.messages, k, "x", &Msg::sent);
        compressed += (sent.array() == 0.0).count() > 0 ? 1 : 0; // top-k leaves zeros
    }
    EXPECT_GT(compressed, 0);
}

TEST(Messages, Paper002PdOgdReplaysFromMessagesAndGradients)
{
    // x_i(t+1) = Π(Σ_j P_ij (x_j + σ_j) − a_t clip(∇f_i,t at the mixed point)), Π a box here.
    const double radius = 0.02;
    Replay r("paper002-fig1-digits.json", 0, 6, 5, Json{{"constraint", "box"}, {"radius", radius}});
    ASSERT_FALSE(r.messages.empty());
    r.expectReceiversAreTheGraph();
    const Eigen::MatrixXd &P = r.context.W;
    const Schedule step = paramSchedule(r.context.params, "stepsize");
    const double clip = r.context.params.at("clip").get<double>();
    ASSERT_EQ(r.context.params.at("gradient_at").get<std::string>(), "received");
    int clamped = 0;
    for (long long t = 0; t < 5; ++t) {
        const Eigen::MatrixXd sent = rowsOf(r.messages, t, "x", &Msg::sent);
        EXPECT_EQ(rowsOf(r.messages, t, "x", &Msg::clean), r.trace.at(t)) << "t = " << t;
        const Eigen::MatrixXd mixed = P * sent;
        Eigen::MatrixXd g(mixed.rows(), mixed.cols());
        r.context.problem->gradients(mixed, g, t);
        for (Eigen::Index i = 0; i < g.rows(); ++i)
            if (g.row(i).norm() > clip)
                g.row(i) *= clip / g.row(i).norm();
        Eigen::MatrixXd replayed = mixed - step.at(t) * g;
        clamped += ((replayed.array() > radius) || (replayed.array() < -radius)).count() > 0 ? 1 : 0;
        replayed = replayed.cwiseMin(radius).cwiseMax(-radius);
        EXPECT_TRUE(sameIterate(replayed, r.trace.at(t + 1))) << "t = " << t;
    }
    EXPECT_GT(clamped, 0) << "the box is active, so the replay checks the projection too";
}

TEST(Messages, Paper003RobustDpGtReplaysFromMessages)
{
    // x(k+1) = W_diag x + W_off (x + noise_x) − α (s(k+1) − s(k)), s the clean "s" messages.
    Replay r("paper003-fig1-dpop.json", 0, 10, 9);
    ASSERT_FALSE(r.messages.empty());
    r.expectReceiversAreTheGraph();
    const double alpha = r.context.params.at("alpha").get<double>();
    const Eigen::MatrixXd &W = r.context.W;
    int noisy = 0;
    for (long long k = 0; k + 1 < 9; ++k) {
        const Eigen::MatrixXd x = r.trace.at(k);
        EXPECT_EQ(rowsOf(r.messages, k, "x", &Msg::clean), x);
        const Eigen::MatrixXd sent = rowsOf(r.messages, k, "x", &Msg::sent);
        const Eigen::MatrixXd ds = rowsOf(r.messages, k + 1, "s", &Msg::clean) - rowsOf(r.messages, k, "s", &Msg::clean);
        EXPECT_TRUE(sameIterate(mix(W, x, sent) - alpha * ds, r.trace.at(k + 1))) << "k = " << k;
        noisy += distance(mix(W, x, x) - alpha * ds, r.trace.at(k + 1)) > 1e-9 ? 1 : 0;
    }
    EXPECT_EQ(noisy, 8);
}

TEST(Messages, BitsAddUpToTheBitsMetric)
{
    TempDir dir;
    auto out = runCli("run " + quote(preset("paper000-fig2-logistic.json")) + " --iterations 12 --repetitions 2 --messages "
                      "--out " + quote((dir / "out").string()) + " --quiet");
    ASSERT_EQ(out.exitCode, 0) << out.err;
    auto table = parseCsv(readText(dir / "out" / "messages.csv"), "messages.csv");
    ASSERT_TRUE(table.ok());
    // Default N = 10: iterations 0..9, both runs, both repetitions.
    std::map<std::string, double> bits; // run/repetition → Σ bits
    std::set<long long> iterations;
    for (std::size_t r = 1; r < table->rows.size(); ++r) {
        const auto &row = table->rows[r];
        iterations.insert(std::stoll(row[2]));
        if (!row[10].empty())
            bits[row[0] + "/" + row[1]] += std::stod(row[10]);
    }
    EXPECT_EQ(iterations.size(), 10u);
    EXPECT_EQ(*iterations.rbegin(), 9);
    ASSERT_EQ(bits.size(), 4u);
    auto metrics = parseCsv(readText(dir / "out" / "metrics.csv"), "metrics.csv");
    ASSERT_TRUE(metrics.ok());
    const auto &header = metrics->rows.front();
    const auto column = std::find(header.begin(), header.end(), "bits") - header.begin();
    int checked = 0;
    for (std::size_t r = 1; r < metrics->rows.size(); ++r) {
        const auto &row = metrics->rows[r];
        if (row[2] == "10") { // cumulative bits after iterations 0..9
            EXPECT_EQ(std::stod(row[static_cast<std::size_t>(column)]), bits.at(row[0] + "/" + row[1])) << row[0];
            ++checked;
        }
    }
    EXPECT_EQ(checked, 4);
    // messages.csv is part of the verified set.
    const Json manifest = Json::parse(readText(dir / "out" / "manifest.json"));
    EXPECT_TRUE(manifest["files"].contains("messages.csv"));
    EXPECT_EQ(runCli("verify " + quote((dir / "out").string())).exitCode, 0);
    // A later run without --messages leaves no stale messages.csv in the set.
    auto again = runCli("run " + quote(preset("paper000-fig2-logistic.json")) + " --iterations 12 --repetitions 2 --out "
                        + quote((dir / "out").string()) + " --quiet");
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_FALSE(fs::exists(dir / "out" / "messages.csv"));
}

TEST(Messages, ShardsKeepTheirMessagesAndMergeSaysSo)
{
    TempDir dir;
    std::string folders;
    std::size_t rows = 0;
    for (int i = 1; i <= 2; ++i) {
        const fs::path out = dir / ("s" + std::to_string(i));
        auto r = runCli("run " + quote(preset("paper003-fig1-dpop.json")) + " --iterations 8 --repetitions 3 --messages "
                        "--messages-iterations 4 --shard " + std::to_string(i) + "/2 --out " + quote(out.string()) + " --quiet");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(runCli("verify " + quote(out.string())).exitCode, 0);
        const std::string text = readText(out / "messages.csv");
        rows += static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) - 1;
        folders += quote(out.string()) + " ";
    }
    // Every job's messages are in exactly one shard: as many rows as one unsharded run.
    auto whole = runCli("run " + quote(preset("paper003-fig1-dpop.json")) + " --iterations 8 --repetitions 3 --messages "
                        "--messages-iterations 4 --out " + quote((dir / "whole").string()) + " --quiet");
    ASSERT_EQ(whole.exitCode, 0) << whole.err;
    const std::string text = readText(dir / "whole" / "messages.csv");
    EXPECT_EQ(rows, static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) - 1);
    auto m = runCli("merge " + folders + "--out " + quote((dir / "merged").string()) + " --quiet");
    EXPECT_EQ(m.exitCode, 0) << m.err;
    EXPECT_NE(m.err.find("messages.csv is not merged"), std::string::npos) << m.err;
    EXPECT_FALSE(fs::exists(dir / "merged" / "messages.csv"));
}

TEST(Messages, RecordedMessagesCountAgainstTheMemoryLimit)
{
    TempDir dir;
    auto out = runCli("run " + quote(preset("paper000-fig2-logistic.json")) + " --messages --messages-iterations 5000 "
                      "--max-memory 64M --out " + quote((dir / "out").string()) + " --quiet");
    EXPECT_EQ(out.exitCode, 2);
    EXPECT_NE(out.err.find("--messages-iterations"), std::string::npos) << out.err;
    EXPECT_EQ(std::count(out.err.begin(), out.err.end(), '\n'), 1) << out.err;
    auto bad = runCli("run " + quote(preset("paper000-fig2-logistic.json")) + " --messages-iterations 5 --out "
                      + quote((dir / "out").string()) + " --quiet");
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("needs --messages"), std::string::npos) << bad.err;
}

} // namespace
} // namespace dplab::test
