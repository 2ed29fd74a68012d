// SPDX-License-Identifier: GPL-3.0-or-later
// The error classes of docs/errors.md, one case per row: each hostile input gives exit 2 and one
// line on stderr with the documented message (and the row in docs/errors.md shows that message).
// None of them may give exit 1, which is reserved for bugs (ErrorCode::Internal).
#include "clitest.h"

#include <nlohmann/json.hpp>

#include <functional>

#include <sys/stat.h>
#include <zlib.h>

namespace dplab::test {
namespace {

using Json = nlohmann::json;

Json base()
{
    return Json::parse(R"({
      "format": "dplab-experiment", "version": 1, "name": "errors", "seed": 1,
      "iterations": 10, "repetitions": 1,
      "graph": { "directed": false, "nodes": 4, "edges": [[0,1],[1,2],[2,3],[3,0]] },
      "problem": { "type": "quadratic", "dimension": 2 },
      "runs": [ { "label": "GT", "algorithm": "gradient-tracking", "params": { "stepsize": 0.05 } } ]
    })");
}

struct ErrorCase {
    std::string id;       ///< the row's id in docs/errors.md
    std::string expected; ///< a fragment of the one-line message (also in the docs row)
    /** Prepares files in `dir` and returns the CLI arguments. */
    std::function<std::string(const std::filesystem::path &dir)> setup;
};

std::string writeExperiment(const std::filesystem::path &dir, const Json &doc)
{
    writeText(dir / "e.json", doc.dump());
    return quote((dir / "e.json").string());
}

std::string validateWith(const std::filesystem::path &dir, const std::function<void(Json &)> &mutate)
{
    Json doc = base();
    mutate(doc);
    return "validate " + writeExperiment(dir, doc);
}

/** `command` (validate, validate --deep) of the base experiment on the logistic problem of the
 *  CSV file `file` in `dir`. */
std::string onCsvData(const std::filesystem::path &dir, const std::string &file, const std::string &command)
{
    Json e = base();
    e["problem"] = Json{{"type", "logistic"}, {"data", {{"source", "csv"}, {"path", file}}}};
    return command + " " + writeExperiment(dir, e);
}

std::string tuneWith(const std::filesystem::path &dir, const std::string &options)
{
    return "tune " + writeExperiment(dir, base()) + " " + options + " --quiet";
}

std::string idx(int type, std::vector<std::uint32_t> dims, const std::string &payload)
{
    std::string h = {0, 0, static_cast<char>(type), static_cast<char>(dims.size())};
    for (auto d : dims)
        for (int s = 24; s >= 0; s -= 8)
            h += static_cast<char>((d >> s) & 0xff);
    return h + payload;
}

std::vector<ErrorCase> cases()
{
    return {
        {"malformed-json", "invalid JSON: syntax error",
         [](const auto &dir) {
             writeText(dir / "e.json", "{\n  \"seed\": 1,,\n}\n");
             return "validate " + quote((dir / "e.json").string());
         }},
        {"json-depth", "JSON nested deeper than 128 levels",
         [](const auto &dir) {
             writeText(dir / "e.json", "{\"problem\": " + std::string(20000, '[') + std::string(20000, ']') + "}");
             return "validate " + quote((dir / "e.json").string());
         }},
        {"number-range", "number outside the range of a double",
         [](const auto &dir) {
             writeText(dir / "e.json", "{\"runs\": [{\"params\": {\"stepsize\": 1e400}}]}");
             return "validate " + quote((dir / "e.json").string());
         }},
        {"duplicate-key", "iterations: duplicate key",
         [](const auto &dir) {
             writeText(dir / "e.json", "{\"iterations\": 20, \"iterations\": 5}");
             return "validate " + quote((dir / "e.json").string());
         }},
        {"unknown-key", "runs[0].params.step: unknown key",
         [](const auto &dir) { return validateWith(dir, [](Json &e) { e["runs"][0]["params"]["step"] = 1; }); }},
        {"wrong-type", "iterations: must be a whole number",
         [](const auto &dir) { return validateWith(dir, [](Json &e) { e["iterations"] = "ten"; }); }},
        {"out-of-range", "runs[0].params.stepsize: scale must be in (0, 1e+06], got -1",
         [](const auto &dir) { return validateWith(dir, [](Json &e) { e["runs"][0]["params"]["stepsize"] = -1; }); }},
        {"epsilon-target", "runs[0].privacy.epsilon: must be in (0, 1e+12], got 0; to leave it unset, delete \"epsilon\" (or write null)",
         [](const auto &dir) {
             return validateWith(dir, [](Json &e) {
                 e["runs"][0] = Json::parse(R"({"label": "DP", "algorithm": "robust-dp-gt",
                     "privacy": {"noise_s": 0.1, "noise_x": 0.1, "gradient_bound": 1, "epsilon": 0}})");
             });
         }},
        {"version", "version: this DPLab reads version 1 files, not 2",
         [](const auto &dir) { return validateWith(dir, [](Json &e) { e["version"] = 2; }); }},
        {"graph-connectivity", "graph: not connected",
         [](const auto &dir) {
             return validateWith(dir, [](Json &e) { e["graph"]["edges"] = Json::parse("[[0,1],[2,3]]"); });
         }},
        {"graph-kind", "push-pull is for directed graphs",
         [](const auto &dir) { return validateWith(dir, [](Json &e) { e["runs"][0]["algorithm"] = "push-pull"; }); }},
        {"weights", "graph.weights.matrix: row 0 sums to",
         [](const auto &dir) {
             return validateWith(dir, [](Json &e) {
                 e["graph"]["weights"] = Json{{"scheme", "matrix"},
                                              {"matrix", Json::parse("[[0.5,0.1,0,0.1],[0.25,0.5,0.25,0],[0,0.25,0.5,0.25],"
                                                                     "[0.25,0,0.25,0.5]]")}};
             });
         }},
        {"data-missing", "problem.data.path",
         [](const auto &dir) { return onCsvData(dir, "nope.csv", "validate"); }},
        {"data-malformed", "bad.csv:3: column 2: \"oops\" is not a finite number",
         [](const auto &dir) {
             writeText(dir / "bad.csv", "1,2,0\n3,4,1\n5,oops,0\n7,8,1\n");
             return onCsvData(dir, "bad.csv", "validate --deep");
         }},
        {"data-label", "found 3 (0, 1, 2); the labels were read from column 3 of 3, the last (label_column -1); choose another with label_column",
         [](const auto &dir) {
             writeText(dir / "three.csv", "x,y,class\n1,0,0\n2,1,1\n3,0,2\n4,1,0\n5,0,1\n6,1,2\n");
             return onCsvData(dir, "three.csv", "validate --deep");
         }},
        {"data-header", "truncated: the header declares",
         [](const auto &dir) {
             writeText(dir / "labels.idx", idx(0x08, {2}, "\1\2"));
             writeText(dir / "images.idx", idx(0x08, {2, 60000, 60000}, "abc"));
             Json e = base();
             e["problem"] = Json{{"type", "online-multiclass"},
                                 {"data", {{"source", "idx"}, {"images", "images.idx"}, {"labels", "labels.idx"}}}};
             e["runs"][0]["algorithm"] = "pdocg";
             e["runs"][0]["params"] = Json::object();
             return "validate " + writeExperiment(dir, e);
         }},
        {"data-corrupt", "corrupt or truncated compressed file",
         [](const auto &dir) {
             std::string csv;
             for (int i = 0; i < 3000; ++i)
                 csv += std::to_string(i) + "," + std::to_string(i % 2) + "\n";
             const std::string file = (dir / "d.csv.gz").string();
             gzFile f = gzopen(file.c_str(), "wb");
             gzwrite(f, csv.data(), static_cast<unsigned>(csv.size()));
             gzclose(f);
             std::filesystem::resize_file(file, std::filesystem::file_size(file) / 2);
             return onCsvData(dir, "d.csv.gz", "validate");
         }},
        {"limit-memory", "problem.dimension: the experiment needs an estimated",
         [](const auto &dir) { return validateWith(dir, [](Json &e) { e["problem"]["dimension"] = 100000; }); }},
        {"limit-data", "problem.data: the experiment needs an estimated",
         [](const auto &dir) {
             writeText(dir / "wide.svm", "1 1:0.5 2000000000:1\n-1 3:1\n");
             Json e = base();
             e["problem"] = Json{{"type", "logistic"}, {"data", {{"source", "libsvm"}, {"path", "wide.svm"}}}};
             return "validate " + writeExperiment(dir, e);
         }},
        {"limit-override", "iterations: the experiment needs an estimated 25.9 MiB of memory, more than the limit of 1 MiB",
         [](const auto &dir) { return validateWith(dir, [](Json &e) { e["iterations"] = 100000;
                                               e["record_every"] = 1; }) + " --max-memory 1M"; }},
        {"sweep-point", "sweep.values[1]: runs[0].params.stepsize: scale must be in (0, 1e+06], got -1 (sweep value -1)",
         [](const auto &dir) {
             return validateWith(dir, [](Json &e) {
                 e["sweep"] = Json{{"parameter", "runs[*].params.stepsize"}, {"values", {0.01, -1}}};
             });
         }},
        {"sweep-grid", "sweep.values[1]: a grid's value must be a list of 2 values, one per parameter",
         [](const auto &dir) {
             return validateWith(dir, [](Json &e) {
                 e["sweep"] = Json{{"parameter", {"runs[*].params.stepsize", "iterations"}},
                                   {"values", Json::array({Json::array({0.01, 10}), Json(0.02)})}};
             });
         }},
        {"sweep-size", "sweep.values: has 10001 values; at most 10000",
         [](const auto &dir) {
             return validateWith(dir, [](Json &e) {
                 e["sweep"] = Json{{"parameter", "seed"}, {"values", Json::array()}};
                 for (int i = 0; i < 10001; ++i)
                     e["sweep"]["values"].push_back(i);
             });
         }},
        {"io-missing", "nope.json: no such file",
         [](const auto &dir) { return "validate " + quote((dir / "nope.json").string()); }},
        {"io-folder", "is a folder, not a file", [](const auto &dir) { return "validate " + quote(dir.string()); }},
        {"io-device", "/dev/zero: is a device, not a regular file", [](const auto &) { return std::string("validate /dev/zero"); }},
        {"io-fifo", "is a pipe (FIFO), not a regular file",
         [](const auto &dir) {
             ::mkfifo((dir / "fifo.json").c_str(), 0600);
             return "validate " + quote((dir / "fifo.json").string());
         }},
        {"cli-threads", "--threads: must be between 1 and 256",
         [](const auto &dir) {
             return "run " + writeExperiment(dir, base()) + " --out " + quote((dir / "out").string()) + " --threads 100000";
         }},
        {"cli-size", "--max-memory: must be a size such as 8G",
         [](const auto &dir) { return validateWith(dir, [](Json &) {}) + " --max-memory lots"; }},
        {"tune-param", "--param: \"params.step\": runs[0].params.step is not in the resolved experiment (there: stepsize)",
         [](const auto &dir) { return tuneWith(dir, "--param params.step --range 0.01:1 --metric gradient_norm"); }},
        {"tune-param-type", "--param: \"params.stepsize\": runs[0].params.stepsize is {",
         [](const auto &dir) {
             Json doc = base();
             doc["runs"][0]["params"]["stepsize"] = Json{{"type", "polynomial"}, {"a", 0.1}, {"t0", 1}, {"p", 0.5}};
             return "tune " + writeExperiment(dir, doc) + " --param params.stepsize --range 0.01:1 --metric gradient_norm";
         }},
        {"tune-range", "--range: is empty or inverted: LO must be < HI, got 1:0.01",
         [](const auto &dir) { return tuneWith(dir, "--param params.stepsize --range 1:0.01 --metric gradient_norm"); }},
        {"tune-range-log", "--range: --log needs LO > 0, got 0",
         [](const auto &dir) { return tuneWith(dir, "--param params.stepsize --range 0:1 --log --metric gradient_norm"); }},
        {"tune-range-value", "--range: runs[0].params.stepsize: scale must be in (0, 1e+06], got -1",
         [](const auto &dir) { return tuneWith(dir, "--param params.stepsize --range -1:1 --metric gradient_norm"); }},
        {"tune-metric", "--metric: unknown metric \"loss\" (known: consensus_error,",
         [](const auto &dir) { return tuneWith(dir, "--param params.stepsize --range 0.01:1 --metric loss"); }},
        {"tune-metric-absent", "--metric: runs[0] (GT) does not record regret (it records consensus_error,",
         [](const auto &dir) { return tuneWith(dir, "--param params.stepsize --range 0.01:1 --metric regret"); }},
        {"tune-budget", "--budget: 2 jobs allow fewer than 3 candidates per run",
         [](const auto &dir) { return tuneWith(dir, "--param params.stepsize --range 0.01:1 --metric gradient_norm --budget 2"); }},
        {"tune-epsilon", "--epsilon: no run tuned by --param calibrates its noise to a target ε",
         [](const auto &dir) { return tuneWith(dir, "--param params.stepsize --range 0.01:1 --metric gradient_norm --epsilon 1"); }},
        {"cli-option", "--frobnicate: unknown option",
         [](const auto &dir) { return validateWith(dir, [](Json &) {}) + " --frobnicate"; }},
    };
}

void PrintTo(const ErrorCase &c, std::ostream *out)
{
    *out << c.id;
}

class ErrorClasses : public ::testing::TestWithParam<ErrorCase>
{
};

TEST_P(ErrorClasses, ExitTwoWithOneDocumentedLine)
{
    const ErrorCase &c = GetParam();
    TempDir dir;
    const auto r = runCli(c.setup(dir.path()));
    if (std::getenv("DPLAB_SHOW_ERRORS")) // to refresh the examples in docs/errors.md
        std::cout << c.id << " => " << r.err;
    EXPECT_EQ(r.exitCode, 2) << c.id << ": " << r.err;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.id << ": got \"" << r.err << "\"";
    // One line, unless the usage text follows a command-line error.
    if (c.id.rfind("cli-option", 0) != 0)
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.id << ": " << r.err;

    // The row of docs/errors.md shows the same message.
    const std::string docs = readText(std::filesystem::path(DPLAB_TEST_SOURCE_DIR) / "docs" / "errors.md");
    const auto row = docs.find("| `" + c.id + "` |");
    ASSERT_NE(row, std::string::npos) << "docs/errors.md has no row for " << c.id;
    const std::string line = docs.substr(row, docs.find('\n', row) - row);
    EXPECT_NE(line.find(c.expected), std::string::npos) << "docs/errors.md row of " << c.id << " lacks \"" << c.expected << "\"";
}

INSTANTIATE_TEST_SUITE_P(Docs, ErrorClasses, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<ErrorCase> &info) {
                             std::string name = info.param.id;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

TEST(ErrorClasses, EveryDocumentedRowHasATest)
{
    const std::string docs = readText(std::filesystem::path(DPLAB_TEST_SOURCE_DIR) / "docs" / "errors.md");
    std::size_t rows = 0;
    for (std::size_t at = docs.find("\n| `"); at != std::string::npos; at = docs.find("\n| `", at + 1)) {
        const auto end = docs.find("` |", at);
        const std::string id = docs.substr(at + 4, end - at - 4);
        bool tested = false;
        for (const auto &c : cases())
            tested = tested || c.id == id;
        EXPECT_TRUE(tested) << "docs/errors.md row " << id << " has no test case";
        ++rows;
    }
    EXPECT_EQ(rows, cases().size());
}

// A key given twice at any depth: exit 2, one line naming the path of the second occurrence,
// never a run with one of the two values silently kept.
TEST(OneMeaningPerFile, DuplicateKeysAtAnyDepth)
{
    struct Case {
        const char *where;
        std::string text;
        std::string path;
    };
    const std::string graph = R"("graph": {"directed": false, "nodes": 4, "edges": [[0,1],[1,2],[2,3],[3,0]]})";
    const std::string problem = R"("problem": {"type": "quadratic", "dimension": 2})";
    const std::string head = R"({"format": "dplab-experiment", "version": 1, "seed": 1, "repetitions": 1, )";
    const std::vector<Case> cases = {
        {"top level", head + R"("iterations": 20, "iterations": 5, )" + graph + ", " + problem
                          + R"(, "runs": [{"label": "GT", "algorithm": "gradient-tracking"}]})",
         ": iterations: duplicate key"},
        {"inside a run", head + R"("iterations": 20, )" + graph + ", " + problem
                             + R"(, "runs": [{"label": "a", "algorithm": "gradient-tracking"},
                                             {"label": "b", "algorithm": "gradient-tracking",
                                              "params": {"stepsize": 0.1, "stepsize": 0.2}}]})",
         ": runs[1].params.stepsize: duplicate key"},
        {"inside the graph", head + R"("iterations": 20, "graph": {"directed": false, "nodes": 4, "nodes": 5,
                                   "edges": [[0,1],[1,2],[2,3],[3,0]]}, )" + problem
                                 + R"(, "runs": [{"label": "GT", "algorithm": "gradient-tracking"}]})",
         ": graph.nodes: duplicate key"},
        {"inside a sweep value", head + R"("iterations": 20, )" + graph + ", " + problem
                                     + R"(, "runs": [{"label": "GT", "algorithm": "gradient-tracking"}],
                                        "sweep": {"parameter": "runs[0].params.stepsize",
                                                  "values": [0.1, {"type": "constant", "a": 0.2, "a": 0.3}]}})",
         ": sweep.values[1].a: duplicate key"},
        {"inside the presentation", head + R"("iterations": 20, )" + graph + ", " + problem
                                        + R"(, "runs": [{"label": "GT", "algorithm": "gradient-tracking"}],
                                           "presentation": {"start": false, "notes": "a", "start": true}})",
         ": presentation.start: duplicate key"},
    };
    for (const auto &c : cases) {
        TempDir dir;
        writeText(dir / "e.json", c.text);
        // The same file without the duplicate is valid: only the duplicate is refused.
        for (const char *command : {"validate ", "run "}) {
            const auto r = runCli(command + quote((dir / "e.json").string())
                                  + (std::string(command) == "run " ? " --quiet --out " + quote((dir / "out").string()) : ""));
            EXPECT_EQ(r.exitCode, 2) << c.where << ": " << r.err;
            EXPECT_NE(r.err.find("e.json" + c.path), std::string::npos) << c.where << ": " << r.err;
            EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.where << ": " << r.err;
            EXPECT_FALSE(std::filesystem::exists(dir / "out")) << c.where;
        }
    }
}

TEST(OneMeaningPerFile, WithoutTheDuplicateTheFilesAreValid)
{
    const std::string text = R"({"format": "dplab-experiment", "version": 1, "seed": 1, "repetitions": 1,
        "iterations": 5, "graph": {"directed": false, "nodes": 4, "edges": [[0,1],[1,2],[2,3],[3,0]]},
        "problem": {"type": "quadratic", "dimension": 2},
        "runs": [{"label": "GT", "algorithm": "gradient-tracking", "params": {"stepsize": 0.1}}],
        "sweep": {"parameter": "runs[0].params.stepsize", "values": [0.1, {"type": "constant", "a": 0.3}]},
        "presentation": {"start": false, "notes": "a"}})";
    TempDir dir;
    writeText(dir / "e.json", text);
    const auto r = runCli("validate " + quote((dir / "e.json").string()));
    EXPECT_EQ(r.exitCode, 0) << r.err;
}

// privacy.epsilon: a number must be > 0; absent or null means "the noise as given".
TEST(NoTargetIsNoKey, ZeroAndNegativeTargetsAreRefusedAbsentAndNullRunAsGiven)
{
    auto experiment = [](const std::string &epsilon) {
        Json e = base();
        e["iterations"] = 30;
        Json run = Json::parse(R"({"label": "DP", "algorithm": "robust-dp-gt",
            "privacy": {"noise_s": 0.1, "noise_x": 0.1, "gradient_bound": 1}})");
        if (epsilon != "absent")
            run["privacy"]["epsilon"] = Json::parse(epsilon);
        e["runs"][0] = run;
        return e;
    };
    for (const std::string bad : {"0", "-1", "0.0", "-1e-9"}) {
        TempDir dir;
        const auto r = runCli("run " + writeExperiment(dir.path(), experiment(bad)) + " --quiet --out "
                              + quote((dir / "out").string()));
        EXPECT_EQ(r.exitCode, 2) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("runs[0].privacy.epsilon: must be in (0, 1e+12]"), std::string::npos) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("delete \"epsilon\" (or write null)"), std::string::npos) << bad << ": " << r.err;
        EXPECT_FALSE(std::filesystem::exists(dir / "out")) << bad;
    }
    // Absent and null: the same run, with the noise as given (ε far above any target of 1).
    std::string metrics[2];
    int k = 0;
    for (const std::string none : {"absent", "null"}) {
        TempDir dir;
        const auto r = runCli("run " + writeExperiment(dir.path(), experiment(none)) + " --quiet --out "
                              + quote((dir / "out").string()));
        ASSERT_EQ(r.exitCode, 0) << none << ": " << r.err;
        metrics[k++] = readText(dir / "out" / "metrics.csv");
    }
    EXPECT_EQ(metrics[0], metrics[1]);
    // A positive target calibrates: a different noise, so different rows.
    TempDir dir;
    const auto r = runCli("run " + writeExperiment(dir.path(), experiment("1")) + " --quiet --out "
                          + quote((dir / "out").string()));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(readText(dir / "out" / "metrics.csv"), metrics[0]);
}

// The listing says that the target ε is optional instead of showing a default of 0.
TEST(NoTargetIsNoKey, ListingShowsTheTargetAsOptional)
{
    const auto r = runCli("list algorithms");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("privacy.epsilon (optional: absent or null = not set)"), std::string::npos);
    EXPECT_EQ(r.out.find("privacy.epsilon (default 0"), std::string::npos);
    const auto json = runCli("list algorithms --json");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    // Every ε is either an optional target (no default) or a budget with a positive default; a
    // number given must be > 0 in both.
    int optional = 0;
    for (const auto &algorithm : Json::parse(json.out))
        for (const auto &p : algorithm.value("privacy_params", Json::array()))
            if (p.at("key") == "epsilon") {
                EXPECT_EQ(p.at("min"), 0.0) << algorithm.at("id");
                EXPECT_TRUE(p.at("min_exclusive").get<bool>()) << algorithm.at("id");
                if (p.value("optional", false)) {
                    EXPECT_TRUE(p.at("default").is_null()) << algorithm.at("id");
                    ++optional;
                } else {
                    EXPECT_GT(p.at("default").get<double>(), 0.0) << algorithm.at("id");
                }
            }
    EXPECT_GE(optional, 8);
}

// A CSV saved with a UTF-8 byte-order mark: its first column is addressable by name.
TEST(OneMeaningPerFile, ByteOrderMarkIsNotPartOfTheFirstColumnName)
{
    TempDir dir;
    std::string csv = "\xEF\xBB\xBFlabel,x,y\n";
    for (int i = 0; i < 40; ++i)
        csv += std::to_string(i % 2) + "," + std::to_string(i * 0.1 - 2) + "," + std::to_string((i % 7) * 0.3) + "\n";
    writeText(dir / "bom.csv", csv);
    Json e = base();
    e["problem"] = Json{{"type", "logistic"}, {"data", {{"source", "csv"}, {"path", "bom.csv"}, {"label_name", "label"}}}};
    const auto r = runCli("validate --deep " + writeExperiment(dir.path(), e));
    EXPECT_EQ(r.exitCode, 0) << r.err;
}

} // namespace
} // namespace dplab::test
