// SPDX-License-Identifier: GPL-3.0-or-later
// dplab-cli end to end: outputs, determinism, list/graph, and clear errors for bad input.
#include "../common/ringquadratic.h"
#include "clitest.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>

#include <grp.h>
#include <sys/resource.h>

namespace dplab::test {
namespace {

using Json = nlohmann::json;

/** A small valid experiment: 4 agents, undirected ring, 2-D quadratic, gradient tracking. */
Json baseExperiment()
{
    return ringQuadraticExperiment("cli test", 3, 50, 3, 5, gradientTrackingAndDgd(0.01));
}

TEST(CliRun, WritesTheContractFiles)
{
    TempDir dir;
    writeText(dir / "e.json", baseExperiment().dump());
    const auto r = runCli("run " + quote((dir / "e.json").string()) + " --out " + quote((dir / "out").string()) + " --trace --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string csv = readText(dir / "out" / "metrics.csv");
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "run,repetition,iteration,consensus_error,distance_to_optimum,optimality_gap,gradient_norm,bits");
    // 2 runs × 3 repetitions × (0, 5, ..., 50) = 66 rows + header.
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 67);
    const Json summary = Json::parse(readText(dir / "out" / "summary.json"));
    ASSERT_EQ(summary["runs"].size(), 2u);
    EXPECT_EQ(summary["runs"][0]["status"], "ok");
    EXPECT_TRUE(summary["runs"][0]["final"]["consensus_error"].contains("std"));
    const Json resolved = Json::parse(readText(dir / "out" / "experiment.json"));
    EXPECT_EQ(resolved["runs"][1]["privacy"]["noise_x"]["type"], "constant");
    const std::string trace = readText(dir / "out" / "trace.csv");
    EXPECT_EQ(trace.substr(0, trace.find('\n')), "run,repetition,iteration,agent,x0,x1");
}

TEST(CliRun, ResolvedExperimentRoundTrips)
{
    TempDir dir;
    writeText(dir / "e.json", baseExperiment().dump());
    ASSERT_EQ(runCli("run " + quote((dir / "e.json").string()) + " --out " + quote((dir / "a").string()) + " --quiet").exitCode, 0);
    ASSERT_EQ(runCli("run " + quote((dir / "a" / "experiment.json").string()) + " --out " + quote((dir / "b").string()) + " --quiet").exitCode, 0);
    EXPECT_EQ(readText(dir / "a" / "experiment.json"), readText(dir / "b" / "experiment.json"));
    EXPECT_EQ(readText(dir / "a" / "metrics.csv"), readText(dir / "b" / "metrics.csv"));
}

TEST(CliRun, SameSeedGivesByteIdenticalMetricsAtAnyThreadCount)
{
    TempDir dir;
    Json e = baseExperiment();
    e["repetitions"] = 6;
    writeText(dir / "e.json", e.dump());
    const std::string file = quote((dir / "e.json").string());
    ASSERT_EQ(runCli("run " + file + " --out " + quote((dir / "a").string()) + " --threads 1 --quiet").exitCode, 0);
    ASSERT_EQ(runCli("run " + file + " --out " + quote((dir / "b").string()) + " --threads 2 --quiet").exitCode, 0);
    ASSERT_EQ(runCli("run " + file + " --out " + quote((dir / "c").string()) + " --threads 2 --quiet").exitCode, 0);
    const std::string a = readText(dir / "a" / "metrics.csv");
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, readText(dir / "b" / "metrics.csv"));
    EXPECT_EQ(a, readText(dir / "c" / "metrics.csv"));
    // A different seed changes the noisy run.
    ASSERT_EQ(runCli("run " + file + " --out " + quote((dir / "d").string()) + " --seed 4 --quiet").exitCode, 0);
    EXPECT_NE(a, readText(dir / "d" / "metrics.csv"));
}

TEST(CliRun, SweepWritesSweepCsvAndValueColumn)
{
    TempDir dir;
    Json e = baseExperiment();
    e["sweep"] = Json{{"parameter", "runs[*].params.stepsize"}, {"values", {0.05, 0.1, 0.2}}};
    writeText(dir / "e.json", e.dump());
    const auto r = runCli("run " + quote((dir / "e.json").string()) + " --out " + quote((dir / "out").string()) + " --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string sweep = readText(dir / "out" / "sweep.csv");
    EXPECT_EQ(sweep.rfind("parameter,value,run,consensus_error_mean,consensus_error_std,", 0), 0u) << sweep;
    EXPECT_EQ(std::count(sweep.begin(), sweep.end(), '\n'), 1 + 3 * 2);
    const std::string csv = readText(dir / "out" / "metrics.csv");
    EXPECT_EQ(csv.substr(0, 30), "run,repetition,iteration,value");
}

TEST(CliRun, DivergenceExitsWithThree)
{
    TempDir dir;
    Json e = baseExperiment();
    e["runs"][0]["params"]["stepsize"] = 5.0; // far beyond 2/L
    e["iterations"] = 2000;
    writeText(dir / "e.json", e.dump());
    const auto r = runCli("run " + quote((dir / "e.json").string()) + " --out " + quote((dir / "out").string()));
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_NE(r.err.find("diverged at iteration"), std::string::npos) << r.err;
    const Json summary = Json::parse(readText(dir / "out" / "summary.json"));
    EXPECT_EQ(summary["runs"][0]["status"], "diverged");
    EXPECT_GT(summary["runs"][0]["repetitions"][0]["diverged_at"].get<int>(), 0);
}

TEST(CliValidate, PresetsAreValid)
{
    for (const auto &entry : std::filesystem::directory_iterator(std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets")) {
        if (entry.path().extension() != ".json")
            continue;
        const auto r = runCli("validate " + quote(entry.path().string()));
        EXPECT_EQ(r.exitCode, 0) << entry.path() << ": " << r.err;
    }
}

TEST(CliUsage, HelpAfterAnyCommandPrintsTheUsageAndSucceeds)
{
    for (const char *args : {"--help", "-h", "help", "list --help", "run -h", "run x.json --out y --help",
                             "frontier --help", "graph --help"}) {
        const auto r = runCli(args);
        EXPECT_EQ(r.exitCode, 0) << args << ": " << r.err;
        EXPECT_NE(r.out.find("dplab-cli run EXPERIMENT.json"), std::string::npos) << args;
        EXPECT_NE(r.out.find("frontier"), std::string::npos) << args;
    }
    // Not a help request: still a usage error.
    EXPECT_EQ(runCli("list --halp").exitCode, 2);
}

TEST(CliList, JsonListsAreParseable)
{
    for (const std::string what : {"algorithms", "compressors", "problems", "generators", "weights"}) {
        const auto r = runCli("list " + what + " --json");
        ASSERT_EQ(r.exitCode, 0) << what << r.err;
        const Json j = Json::parse(r.out);
        ASSERT_TRUE(j.is_array());
        EXPECT_FALSE(j.empty()) << what;
    }
    const auto algorithms = Json::parse(runCli("list algorithms --json").out);
    bool pushPull = false;
    for (const auto &a : algorithms)
        pushPull = pushPull || (a["id"] == "push-pull" && a["graph"] == "directed");
    EXPECT_TRUE(pushPull);
    // The teaching facts: what an eavesdropper reconstructs and the rates a paper states.
    for (const auto &a : algorithms) {
        ASSERT_TRUE(a.contains("attack") && a.contains("theory")) << a["id"];
        if (a["id"] == "dgd") {
            EXPECT_EQ(a["attack"]["kind"], "decision-step");
            EXPECT_EQ(a["attack"]["decision_channel"], "x");
        }
        if (a["id"] == "ldp-gt") {
            EXPECT_EQ(a["attack"]["kind"], "step-inside-tracker");
            ASSERT_FALSE(a["theory"].empty());
            EXPECT_NE(a["theory"][0]["citation"].get<std::string>().find("paper 000"), std::string::npos);
        }
    }
    EXPECT_EQ(runCli("list nonsense").exitCode, 2);
}

TEST(CliGraph, RoundOffPrintsAsZero)
{
    // A complete graph printed sigma2 1.1e-16 and its Perron vectors entries such as -6.9e-17.
    const auto r = runCli("graph --generator complete --nodes 6 --weights metropolis");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("sigma2 0, spectral gap 1, rho(W - 11^T/n) 0"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("e-1"), std::string::npos) << r.out;
    // --json keeps every digit.
    const auto json = runCli("graph --generator complete --nodes 6 --weights metropolis --json");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    EXPECT_LT(std::abs(Json::parse(json.out)["weights"]["facts"]["sigma2"].get<double>()), 1e-12);
}

TEST(CliGraph, RingOfFourMetropolisFacts)
{
    const auto r = runCli("graph --generator ring --nodes 4 --weights metropolis --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j["nodes"], 4);
    EXPECT_EQ(j["edges"], 4);
    // Ring of 4, Metropolis: eigenvalues 1, 1/3, 1/3, −1/3 → σ₂ = 1/3, gap 2/3.
    EXPECT_NEAR(j["weights"]["facts"]["sigma2"].get<double>(), 1.0 / 3.0, 1e-12);
    EXPECT_NEAR(j["weights"]["facts"]["spectral_gap"].get<double>(), 2.0 / 3.0, 1e-12);
    EXPECT_EQ(runCli("graph --generator nonsense --nodes 4").exitCode, 2);
}

// ---- Bad input: exit 2 and one clear line naming the JSON path or file:line. ----

struct BadCase {
    const char *name;
    std::function<void(Json &)> mutate; // applied to the base experiment
    const char *expected;               // must appear in stderr
};

TEST(CliBadInput, EachMalformedExperimentNamesItsField)
{
    const std::vector<BadCase> cases = {
        {"unknown top-level key", [](Json &e) { e["iteratoins"] = 5; }, "iteratoins: unknown key"},
        {"wrong type", [](Json &e) { e["iterations"] = "many"; }, "iterations: must be a whole number"},
        {"negative step", [](Json &e) { e["runs"][0]["params"]["stepsize"] = -0.1; }, "runs[0].params.stepsize"},
        {"NaN step (string)", [](Json &e) { e["runs"][0]["params"]["stepsize"] = "NaN"; }, "runs[0].params.stepsize"},
        {"unknown parameter", [](Json &e) { e["runs"][0]["params"]["stpsize"] = 0.1; }, "runs[0].params.stpsize: unknown key"},
        {"unknown algorithm", [](Json &e) { e["runs"][0]["algorithm"] = "magic"; }, "runs[0].algorithm: unknown algorithm"},
        {"directed algorithm on undirected graph", [](Json &e) { e["runs"][0]["algorithm"] = "push-pull"; e["runs"][0].erase("privacy"); },
         "runs[0].algorithm: push-pull is for directed graphs"},
        {"undirected algorithm on directed graph", [](Json &e) { e["graph"]["directed"] = true; e["graph"].erase("weights");
             e["graph"]["edges"] = Json::parse("[[0,1],[1,2],[2,3],[3,0]]"); },
         "runs[0].algorithm: gradient-tracking needs an undirected graph"},
        {"non-stochastic explicit matrix", [](Json &e) {
             e["graph"]["weights"] = Json::parse(R"({"scheme":"matrix","matrix":[[0.5,0.5,0,0],[0.5,0.4,0.1,0],[0,0.1,0.4,0.5],[0,0,0.5,0.5]]})");
             e["graph"]["weights"]["matrix"][1][1] = 0.3; },
         "graph.weights"},
        {"disconnected graph", [](Json &e) { e["graph"]["edges"] = Json::parse("[[0,1],[2,3]]"); }, "graph: not connected"},
        {"edge out of range", [](Json &e) { e["graph"]["edges"].push_back({0, 9}); }, "graph.edges[4]: node index out of range"},
        {"self loop", [](Json &e) { e["graph"]["edges"].push_back({2, 2}); }, "graph.edges[4]: self-loop"},
        {"missing data file", [](Json &e) {
             e["problem"] = Json::parse(R"({"type":"logistic","data":{"source":"csv","path":"no/such/file.csv"}})"); },
         "problem.data.path"},
        {"problem agents mismatch", [](Json &e) { e["problem"]["agents"].erase(3); }, "problem.agents"},
        {"no runs", [](Json &e) { e["runs"] = Json::array(); }, "runs: must be a non-empty list"},
        {"wrong format", [](Json &e) { e["format"] = "something-else"; }, "format: must be \"dplab-experiment\""},
        {"zero repetitions", [](Json &e) { e["repetitions"] = 0; }, "repetitions: must be in [1, "},
        {"duplicate labels", [](Json &e) { e["runs"][1]["label"] = "GT"; }, "runs[1].label: duplicate label"},
        {"unknown compressor", [](Json &e) { e["runs"][0]["compressor"] = Json{{"type", "zip"}}; }, "runs[0].compressor"},
        {"init of the wrong shape", [](Json &e) { e["runs"][0]["init"] = Json{{"x", {{0, 0}, {1, 1}}}}; }, "runs[0].init.x"},
        {"sweep over a non-object", [](Json &e) { e["sweep"] = Json{{"parameter", "iterations.x"}, {"values", {1}}}; }, "sweep.parameter"},
        {"negative noise", [](Json &e) { e["runs"][0]["privacy"]["noise_x"] = -1; }, "runs[0].privacy.noise_x"},
        {"bad schedule", [](Json &e) { e["runs"][0]["params"]["stepsize"] = Json{{"type", "polynomial"}, {"a", 0.1}}; }, "runs[0].params.stepsize.p: is required"},
    };
    TempDir dir;
    for (const auto &c : cases) {
        Json e = baseExperiment();
        c.mutate(e);
        writeText(dir / "bad.json", e.dump(2));
        const auto r = runCli("run " + quote((dir / "bad.json").string()) + " --out " + quote((dir / "out").string()));
        EXPECT_EQ(r.exitCode, 2) << c.name << ": " << r.err;
        EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.name << ": got \"" << r.err << "\"";
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.name << ": one line, got " << r.err;
        EXPECT_NE(r.err.find("bad.json"), std::string::npos) << c.name << ": names the file";
        EXPECT_FALSE(std::filesystem::exists(dir / "out" / "metrics.csv")) << c.name;
    }
}

TEST(CliBadInput, MalformedJsonNamesLineAndColumn)
{
    TempDir dir;
    writeText(dir / "broken.json", "{\n  \"format\": \"dplab-experiment\",\n  \"seed\": 1,,\n}\n");
    const auto r = runCli("validate " + quote((dir / "broken.json").string()));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("broken.json:3:"), std::string::npos) << r.err;
    writeText(dir / "empty.json", "");
    EXPECT_EQ(runCli("validate " + quote((dir / "empty.json").string())).exitCode, 2);
    const auto missing = runCli("validate " + quote((dir / "nope.json").string()));
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("nope.json: no such file"), std::string::npos) << missing.err;
}

TEST(CliBadInput, BadCommandLineIsExitTwo)
{
    EXPECT_EQ(runCli("").exitCode, 2);
    EXPECT_EQ(runCli("frobnicate").exitCode, 2);
    EXPECT_EQ(runCli("run").exitCode, 2);
    EXPECT_EQ(runCli("run x.json").exitCode, 2); // no --out
    EXPECT_EQ(runCli("run x.json --out /tmp/x --threads zero").exitCode, 2);
}

TEST(CliRun, FailedReplaceReportsErrorAndLeavesNoTemporaryFile)
{
    // Works as root too: the target name is taken by a folder, so the final rename fails.
    TempDir dir;
    writeText(dir / "e.json", baseExperiment().dump());
    std::filesystem::create_directories(dir / "out" / "metrics.csv");
    writeText(dir / "out" / "metrics.csv" / "keep.txt", "precious");
    const auto r = runCli("run " + quote((dir / "e.json").string()) + " --out " + quote((dir / "out").string()) + " --quiet");
    EXPECT_EQ(r.exitCode, 2) << r.err; // an output folder that cannot be written is invalid input
    EXPECT_NE(r.err.find("metrics.csv"), std::string::npos) << r.err;
    EXPECT_EQ(readText(dir / "out" / "metrics.csv" / "keep.txt"), "precious");
    for (const auto &entry : std::filesystem::directory_iterator(dir / "out"))
        EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << entry.path();
}

TEST(CliRun, FailedWriteLeavesExistingFilesUntouched)
{
    if (::geteuid() == 0)
        GTEST_SKIP() << "root ignores folder permissions";
    TempDir dir;
    writeText(dir / "e.json", baseExperiment().dump());
    std::filesystem::create_directories(dir / "out");
    writeText(dir / "out" / "metrics.csv", "precious");
    std::filesystem::permissions(dir / "out", std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    const auto r = runCli("run " + quote((dir / "e.json").string()) + " --out " + quote((dir / "out").string()) + " --quiet");
    std::filesystem::permissions(dir / "out", std::filesystem::perms::owner_all);
    EXPECT_EQ(r.exitCode, 2) << r.err; // an unwritable --out is invalid input, found before running
    EXPECT_EQ(readText(dir / "out" / "metrics.csv"), "precious");
}

/** Runs dplab-cli as an unprivileged user id that owns no other process (54321; it need not
 *  exist) under a limit of `threads` threads for that user (RLIMIT_NPROC counts threads; root
 *  ignores it), with stderr in `err`. Returns the exit code. */
int runWithThreadLimit(const std::vector<std::string> &args, rlim_t threads, const std::filesystem::path &err)
{
    const pid_t pid = ::fork();
    if (pid == 0) {
        const rlimit limit{threads, threads};
        if (::setgroups(0, nullptr) != 0 || ::setgid(54321) != 0 || ::setrlimit(RLIMIT_NPROC, &limit) != 0
            || ::setuid(54321) != 0)
            ::_exit(126);
        execCli(args, err); // the folder is writable by everyone
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(CliRun, RefusedThreadsChangeNothing)
{
    // The system refusing threads: with room for one worker the runner continues on fewer than
    // --threads 8 asks for, with none the interrupt watcher too is refused (it used to end in
    // std::terminate). Both give the single-threaded results, byte for byte.
    if (::geteuid() != 0)
        GTEST_SKIP() << "needs root, to run the CLI as an unprivileged user under a thread limit";
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "the sanitizer runtimes start threads of their own (LeakSanitizer's tracer, TSan's)";
#endif
    TempDir dir;
    namespace fs = std::filesystem;
    fs::permissions(dir.path(), fs::perms::all);
    fs::copy_file(preset("teaching-push-pull-quadratic.json"), dir / "e.json");
    fs::permissions(dir / "e.json", fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    const std::string experiment = (dir / "e.json").string();
    ASSERT_EQ(runCli("run " + quote(experiment) + " --threads 1 --out " + quote((dir / "one").string()) + " --quiet").exitCode, 0);
    const std::string expected = readText(dir / "one" / "metrics.csv");
    ASSERT_FALSE(expected.empty());
    for (rlim_t limit : {rlim_t(3), rlim_t(1)}) { // main + watcher + one worker; main alone
        const std::string out = (dir / ("limit" + std::to_string(limit))).string();
        const auto err = dir / ("limit" + std::to_string(limit) + ".err");
        const int code = runWithThreadLimit({"run", experiment, "--threads", "8", "--out", out, "--quiet"}, limit, err);
        ASSERT_EQ(code, 0) << "thread limit " << limit << ": " << readText(err);
        EXPECT_EQ(readText(fs::path(out) / "metrics.csv"), expected) << "thread limit " << limit;
    }
}

} // namespace
} // namespace dplab::test
