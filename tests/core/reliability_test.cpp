// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile input and resource limits: JSON nesting and number range, files that are not regular,
// resolve (specification, no data loaded) vs build (data through the cache), resource estimates
// checked before allocating, every sweep point validated, data loaders' header checks.
#include "dplab/common/files.h"
#include "dplab/common/limits.h"
#include "dplab/engine/experiment.h"
#include "dplab/problem/datascan.h"
#include "dplab/problem/dataset.h"

#include "../common/tempdir.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

namespace dplab {
namespace {

namespace fs = std::filesystem;

using test::TempDir;
using test::writeText;

void writeGzip(const fs::path &path, const std::string &bytes)
{
    gzFile f = gzopen(path.string().c_str(), "wb");
    ASSERT_NE(f, nullptr);
    gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(f);
}

Json baseExperiment()
{
    return Json::parse(R"({
      "format": "dplab-experiment", "version": 1, "name": "reliability", "seed": 3,
      "iterations": 20, "repetitions": 1, "record_every": 5,
      "graph": { "directed": false, "nodes": 4, "edges": [[0,1],[1,2],[2,3],[3,0]] },
      "problem": { "type": "quadratic", "dimension": 2 },
      "runs": [ { "label": "GT", "algorithm": "gradient-tracking", "params": { "stepsize": 0.05 } } ]
    })");
}

std::string deepJson(int depth)
{
    return std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']');
}

// --- JSON -----------------------------------------------------------------------------------

TEST(JsonReading, NestingBeyondTheLimitIsAParseErrorNamingThePath)
{
    auto ok = parseJson("{\"a\": " + deepJson(kMaxJsonDepth - 1) + "}", "f.json");
    EXPECT_TRUE(ok.ok()) << ok.error().toString();
    // The issue's file: tens of thousands of levels inside the problem.
    auto deep = parseJson("{\"problem\": {\"agents\": " + deepJson(50000) + "}}", "f.json");
    ASSERT_FALSE(deep.ok());
    EXPECT_EQ(deep.error().code, ErrorCode::ParseError);
    EXPECT_NE(deep.error().where.find("f.json: problem.agents[0][0]"), std::string::npos) << deep.error().toString();
    EXPECT_NE(deep.error().message.find("nested deeper than 128"), std::string::npos);
}

TEST(JsonReading, NumberBeyondDoubleRangeNamesThePath)
{
    auto r = parseJson("{\n \"runs\": [ {\"params\": {\"stepsize\": 0.1}},\n {\"params\": {\"stepsize\": 1e400}} ]\n}", "e.json");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::ParseError);
    EXPECT_EQ(r.error().where, "e.json:3:30: runs[1].params.stepsize") << r.error().toString(); // the number's last character
    EXPECT_NE(r.error().message.find("range of a double"), std::string::npos);
    auto inArray = parseJson("[1, 2, -1e999]", "v.json");
    ASSERT_FALSE(inArray.ok());
    EXPECT_NE(inArray.error().where.find("v.json:1:13: [2]"), std::string::npos) << inArray.error().toString();
}

TEST(JsonReading, ADuplicateKeyNamesTheSecondOccurrence)
{
    auto top = parseJson(R"({"iterations": 20, "seed": 1, "iterations": 5})", "e.json");
    ASSERT_FALSE(top.ok());
    EXPECT_EQ(top.error().code, ErrorCode::ParseError);
    EXPECT_EQ(top.error().where, "e.json: iterations") << top.error().toString();
    EXPECT_NE(top.error().message.find("duplicate key"), std::string::npos);
    auto deep = parseJson(R"({"runs": [{"params": {"stepsize": 1}}, {"params": {"stepsize": 1, "stepsize": 1}}]})", "e.json");
    ASSERT_FALSE(deep.ok());
    EXPECT_EQ(deep.error().where, "e.json: runs[1].params.stepsize") << deep.error().toString(); // even with equal values
    auto inArray = parseJson(R"([[1], {"a": 1, "b": {"c": 2}, "a": 3}])", "v.json");
    ASSERT_FALSE(inArray.ok());
    EXPECT_EQ(inArray.error().where, "v.json: [1].a") << inArray.error().toString();
    // The same key in different objects, or after the object closed, is no duplicate.
    auto ok = parseJson(R"({"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 2}], "x": 3})", "ok.json");
    ASSERT_TRUE(ok.ok()) << ok.error().toString();
    EXPECT_EQ((*ok)["b"]["x"], 2);
    // Case matters: "A" and "a" are two keys.
    EXPECT_TRUE(parseJson(R"({"a": 1, "A": 2})", "case.json").ok());
    // Many distinct keys stay cheap (a set per object, not a scan).
    std::string wide = "{";
    for (int k = 0; k < 50000; ++k)
        wide += (k ? ",\"k" : "\"k") + std::to_string(k) + "\": 0";
    auto many = parseJson(wide + "}", "wide.json");
    ASSERT_TRUE(many.ok());
    EXPECT_EQ(many->size(), 50000u);
    auto manyDup = parseJson(wide + ", \"k49999\": 1}", "wide.json");
    ASSERT_FALSE(manyDup.ok());
    EXPECT_EQ(manyDup.error().where, "wide.json: k49999");
}

TEST(JsonReading, SyntaxErrorsKeepLineAndColumn)
{
    auto r = parseJson("{\n  \"a\": 1,,\n}", "b.json");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().where.rfind("b.json:2:", 0), 0u) << r.error().toString();
}

TEST(FileReading, OnlyRegularFilesWithinTheLimitAreRead)
{
    TempDir dir;
    EXPECT_EQ(readFile((dir / "missing.json").string()).error().code, ErrorCode::NotFound);
    auto folder = readFile(dir.path().string());
    ASSERT_FALSE(folder.ok());
    EXPECT_NE(folder.error().message.find("is a folder"), std::string::npos);
    auto zero = readFile("/dev/zero");
    ASSERT_FALSE(zero.ok());
    EXPECT_NE(zero.error().message.find("is a device"), std::string::npos);
    const std::string fifo = (dir / "fifo").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto pipe = readFile(fifo); // must not block waiting for a writer
    ASSERT_FALSE(pipe.ok());
    EXPECT_NE(pipe.error().message.find("FIFO"), std::string::npos);
    writeText(dir / "big.json", std::string(4096, ' '));
    auto big = readFile((dir / "big.json").string(), 1024);
    ASSERT_FALSE(big.ok());
    EXPECT_EQ(big.error().code, ErrorCode::InvalidArgument);
    if (::geteuid() != 0) { // root reads everything
        writeText(dir / "secret.json", "{}");
        fs::permissions(dir / "secret.json", fs::perms::none);
        auto denied = readFile((dir / "secret.json").string());
        ASSERT_FALSE(denied.ok());
        EXPECT_EQ(denied.error().code, ErrorCode::IoError);
    }
}

// --- Limits ---------------------------------------------------------------------------------

TEST(Limits, ByteSizesAndThreadCounts)
{
    EXPECT_EQ(*parseByteSize("8G", "--max-memory"), 8ull << 30);
    EXPECT_EQ(*parseByteSize("512m", "--max-memory"), 512ull << 20);
    EXPECT_EQ(*parseByteSize("1.5GiB", "--max-memory"), 3ull << 29);
    EXPECT_EQ(*parseByteSize("1000", "--max-memory"), 1000u);
    for (const char *bad : {"", "G", "8X", "-1G", "0", "1e30T"})
        EXPECT_FALSE(parseByteSize(bad, "--max-memory").ok()) << bad;
    EXPECT_TRUE(checkThreadCount(0, "--threads").ok());
    EXPECT_TRUE(checkThreadCount(kMaxThreads, "--threads").ok());
    EXPECT_FALSE(checkThreadCount(kMaxThreads + 1, "--threads").ok());
    EXPECT_FALSE(checkThreadCount(1000000, "--threads").ok());
    EXPECT_EQ(formatBytes(1536), "1.5 KiB");
    EXPECT_GE(ResourceLimits::defaultMemoryLimit(), 1ull << 20);
}

Error resolveError(const Json &doc, const ResolveOptions &options = {})
{
    auto e = resolveExperiment(doc, ".", options);
    EXPECT_FALSE(e.ok());
    return e ? Error{} : e.error();
}

TEST(Limits, DenseWeightsOfManyNodesAreRefusedBeforeAllocating)
{
    Json e = baseExperiment();
    const int n = 100000;
    Json edges = Json::array();
    for (int i = 0; i < n; ++i)
        edges.push_back({i, (i + 1) % n});
    e["graph"] = Json{{"directed", false}, {"nodes", n}, {"edges", edges}};
    const Error err = resolveError(e);
    EXPECT_EQ(err.where, "graph.nodes");
    EXPECT_NE(err.message.find("dense weight matrices"), std::string::npos) << err.toString();
    EXPECT_NE(err.message.find("--max-memory"), std::string::npos);
}

TEST(Limits, HugeQuadraticSyntheticDataAndRecordsAreRefused)
{
    Json quadratic = baseExperiment();
    quadratic["problem"]["dimension"] = 100000;
    EXPECT_EQ(resolveError(quadratic).where, "problem.dimension");

    Json synthetic = baseExperiment();
    synthetic["problem"] = Json{{"type", "ridge"},
                                {"data", {{"source", "synthetic"}, {"samples", 10000000}, {"dimension", 100000}}}};
    EXPECT_EQ(resolveError(synthetic).where, "problem.data");

    Json records = baseExperiment();
    records["iterations"] = 100000000;
    records["record_every"] = 1;
    const Error err = resolveError(records);
    EXPECT_EQ(err.where, "iterations");
    EXPECT_NE(err.message.find("recorded metrics"), std::string::npos) << err.toString();

    // The same experiment fits when the limit is raised (nothing is allocated by resolving).
    ResolveOptions generous;
    generous.limits.maxMemoryBytes = 1ull << 50;
    EXPECT_TRUE(resolveExperiment(records, ".", generous).ok());
}

TEST(Limits, TracesCountOnlyWhenKept)
{
    Json e = baseExperiment();
    e["iterations"] = 2000000;
    e["problem"]["dimension"] = 200;
    ResolveOptions options;
    options.limits.maxMemoryBytes = 2ull << 30;
    EXPECT_TRUE(resolveExperiment(e, ".", options).ok());
    options.trace = true;
    const Error err = resolveError(e, options);
    EXPECT_NE(err.message.find("traces"), std::string::npos) << err.toString();
}

// --- Sweeps ---------------------------------------------------------------------------------

TEST(Sweeps, EveryPointIsValidatedAndNamed)
{
    Json e = baseExperiment();
    e["sweep"] = Json{{"parameter", "runs[*].params.stepsize"}, {"values", {0.01, -1.0, 0.1}}};
    const Error err = resolveError(e);
    EXPECT_EQ(err.where, "sweep.values[1]");
    EXPECT_NE(err.message.find("runs[0].params.stepsize"), std::string::npos) << err.toString();
    EXPECT_NE(err.message.find("sweep value -1"), std::string::npos) << err.toString();

    Json wrongType = baseExperiment();
    wrongType["sweep"] = Json{{"parameter", "graph.nodes"}, {"values", {4, "five"}}};
    EXPECT_EQ(resolveError(wrongType).where, "sweep.values[1]");

    Json nested = baseExperiment();
    nested["sweep"] = Json{{"parameter", "sweep.values"}, {"values", {Json::array({1})}}};
    EXPECT_EQ(resolveError(nested).where, "sweep.parameter");

    Json inside = baseExperiment();
    inside["sweep"] = Json{{"parameter", "runs[0].params"},
                           {"values", {Json{{"stepsize", 0.1}, {"sweep", {{"parameter", "seed"}}}}}}};
    EXPECT_EQ(resolveError(inside).where, "sweep.values[0]");

    Json many = baseExperiment();
    Json values = Json::array();
    for (int i = 0; i < 1000000; ++i)
        values.push_back(0.01);
    many["sweep"] = Json{{"parameter", "runs[*].params.stepsize"}, {"values", values}};
    const auto started = std::chrono::steady_clock::now();
    EXPECT_EQ(resolveError(many).where, "sweep.values");
    (void)started; // no timing assertion (tests never assert on wall time)
}

TEST(Sweeps, MemoryAddsUpOverThePoints)
{
    Json e = baseExperiment();
    e["iterations"] = 1000000;
    e["record_every"] = 1;
    Json values = Json::array();
    for (int i = 0; i < 50; ++i)
        values.push_back(0.01 + 0.001 * i);
    e["sweep"] = Json{{"parameter", "runs[*].params.stepsize"}, {"values", values}};
    ResolveOptions options;
    options.limits.maxMemoryBytes = 4ull << 30;
    auto one = baseExperiment();
    one["iterations"] = 1000000;
    one["record_every"] = 1;
    ASSERT_TRUE(resolveExperiment(one, ".", options).ok()); // one point fits
    EXPECT_EQ(resolveError(e, options).where, "sweep.values"); // fifty do not
}

// --- Resolve vs build -----------------------------------------------------------------------

TEST(ResolveBuild, ResolveReadsHeadersOnlyAndBuildLoadsThroughTheCache)
{
    TempDir dir;
    std::string csv = "x1,x2,y\n";
    for (int i = 0; i < 40; ++i)
        csv += std::to_string(i % 7) + "," + std::to_string((i * 3) % 5) + "," + std::to_string(i % 2) + "\n";
    writeText(dir / "data.csv", csv);
    Json e = baseExperiment();
    e["problem"] = Json{{"type", "logistic"}, {"data", {{"source", "csv"}, {"path", "data.csv"}}}};
    auto spec = resolveExperiment(e, dir.path().string());
    ASSERT_TRUE(spec.ok()) << spec.error().toString();
    EXPECT_FALSE(spec->isBuilt());
    ASSERT_EQ(spec->problemSpec.data.size(), 1u);
    EXPECT_EQ(spec->problemSpec.data[0].header.samples, 40);
    EXPECT_EQ(spec->problemSpec.data[0].header.features, 2);
    EXPECT_EQ(spec->dimension(), 3); // 2 features + bias

    DataCache cache;
    Experiment first = *spec;
    ASSERT_TRUE(buildExperiment(first, cache).ok());
    EXPECT_TRUE(first.isBuilt());
    EXPECT_EQ(first.problem->dimension(), 3);
    Experiment second = *spec;
    ASSERT_TRUE(buildExperiment(second, cache).ok());
    EXPECT_EQ(cache.misses(), 1);
    EXPECT_EQ(cache.hits(), 1);

    // A changed file is read again (size and modification time differ).
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    writeText(dir / "data.csv", csv + "1,1,1\n");
    Experiment third = *resolveExperiment(e, dir.path().string());
    ASSERT_TRUE(buildExperiment(third, cache).ok());
    EXPECT_EQ(cache.misses(), 2);
}

TEST(ResolveBuild, MalformedRowsAreFoundByBuildNotByResolve)
{
    TempDir dir;
    writeText(dir / "bad.csv", "1,2,0\n3,4,1\n5,oops,0\n7,8,1\n");
    Json e = baseExperiment();
    e["problem"] = Json{{"type", "logistic"}, {"data", {{"source", "csv"}, {"path", "bad.csv"}}}, {"test_fraction", 0}};
    auto spec = resolveExperiment(e, dir.path().string());
    ASSERT_TRUE(spec.ok()) << spec.error().toString();
    DataCache cache;
    auto built = buildExperiment(*spec, cache);
    ASSERT_FALSE(built.ok());
    EXPECT_EQ(built.error().where, (dir / "bad.csv").string() + ":3");

    Json missing = e;
    missing["problem"]["data"]["path"] = "nope.csv";
    auto r = resolveExperiment(missing, dir.path().string());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().where, "problem.data.path");
    EXPECT_EQ(r.error().code, ErrorCode::NotFound);

    Json folder = e;
    folder["problem"]["data"]["path"] = ".";
    auto f = resolveExperiment(folder, dir.path().string());
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.error().message.find("is a folder"), std::string::npos) << f.error().toString();
}

TEST(ResolveBuild, ParseExperimentStillBuildsAndSweepPointsBuild)
{
    Json e = baseExperiment();
    e["sweep"] = Json{{"parameter", "graph.nodes"}, {"values", {4, 4}}};
    auto built = parseExperiment(e, ".");
    ASSERT_TRUE(built.ok()) << built.error().toString();
    EXPECT_TRUE(built->isBuilt());
    auto point = experimentAtSweepValue(*built, 4);
    ASSERT_TRUE(point.ok());
    EXPECT_TRUE(point->isBuilt());
    EXPECT_GT(built->resources.totalBytes(), 0);
}

// --- Data loaders ---------------------------------------------------------------------------

std::string idxHeader(int type, const std::vector<std::uint32_t> &dims)
{
    std::string h = {0, 0, static_cast<char>(type), static_cast<char>(dims.size())};
    for (auto d : dims)
        for (int s = 24; s >= 0; s -= 8)
            h += static_cast<char>((d >> s) & 0xff);
    return h;
}

TEST(DataLoaders, IdxHeadersAreCheckedAgainstFileSizes)
{
    TempDir dir;
    const auto images = (dir / "images.idx").string(), labels = (dir / "labels.idx").string();
    writeText(labels, idxHeader(0x08, {2}) + std::string(2, '\1'));
    // Dimensions claiming 2 × 60000 × 60000 bytes in a file of a few bytes.
    writeText(images, idxHeader(0x08, {2, 60000, 60000}) + "abc");
    auto huge = loadIdx(images, labels);
    ASSERT_FALSE(huge.ok());
    EXPECT_NE(huge.error().message.find("truncated"), std::string::npos) << huge.error().toString();
    // A product of dimensions that overflows (4e9^3).
    writeText(images, idxHeader(0x0E, {2, 4000000000u, 4000000000u, 4000000000u}));
    auto overflow = loadIdx(images, labels);
    ASSERT_FALSE(overflow.ok());
    EXPECT_NE(overflow.error().message.find("multiply"), std::string::npos) << overflow.error().toString();
    // The same in gzip: more than deflate can expand.
    writeGzip(dir / "images.gz", idxHeader(0x08, {2, 60000, 60000}) + "abc");
    auto gz = loadIdx((dir / "images.gz").string(), labels);
    ASSERT_FALSE(gz.ok());
    // A valid pair loads.
    writeText(images, idxHeader(0x08, {2, 2, 2}) + std::string("\1\2\3\4\5\6\7\10"));
    auto ok = loadIdx(images, labels);
    ASSERT_TRUE(ok.ok()) << ok.error().toString();
    EXPECT_EQ(ok->X(1, 3), 8.0);
    // Truncated gzip (the stream cut in the middle).
    std::string big = idxHeader(0x08, {2, 2, 2}) + std::string("\1\2\3\4\5\6\7\10");
    writeGzip(dir / "cut.gz", big);
    const auto size = fs::file_size(dir / "cut.gz");
    fs::resize_file(dir / "cut.gz", size - 10);
    auto cut = loadIdx((dir / "cut.gz").string(), labels);
    EXPECT_FALSE(cut.ok());
}

TEST(DataLoaders, LibsvmIndexBeyondTheMemoryLimitIsRefused)
{
    TempDir dir;
    writeText(dir / "a.svm", "1 1:0.5 2000000000:1\n-1 3:1\n");
    auto r = loadLibsvm((dir / "a.svm").string());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(r.error().message.find("memory limit"), std::string::npos) << r.error().toString();
    auto header = scanLibsvmHeader((dir / "a.svm").string());
    ASSERT_TRUE(header.ok());
    EXPECT_EQ(header->features, 2000000000);
    writeText(dir / "b.svm", "1 99999999999999999999999:1\n");
    EXPECT_FALSE(loadLibsvm((dir / "b.svm").string()).ok());
    EXPECT_FALSE(scanLibsvmHeader((dir / "b.svm").string()).ok());
}

TEST(DataLoaders, CorruptGzipIsAnErrorNotData)
{
    TempDir dir;
    std::string csv;
    for (int i = 0; i < 2000; ++i)
        csv += std::to_string(i) + "," + std::to_string(i % 2) + "\n";
    writeGzip(dir / "d.csv.gz", csv);
    const auto size = fs::file_size(dir / "d.csv.gz");
    fs::resize_file(dir / "d.csv.gz", size / 2);
    auto r = loadCsv((dir / "d.csv.gz").string());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::IoError) << r.error().toString();
    EXPECT_NE(r.error().message.find("corrupt or truncated compressed file"), std::string::npos);
    EXPECT_FALSE(loadCsv("/dev/zero").ok());
}

} // namespace
} // namespace dplab
