// SPDX-License-Identifier: GPL-3.0-or-later
//
// JSON → Problem for the built-in static problems. Each type has one spec table; the descriptor
// (for `list problems`, the GUI form and the report) flattens it with dotted keys ("data.path",
// "random.seed"), and the resolver validates each nested object against the same table.
#include "dplab/problem/objectives.h"
#include "problem/problementry.h"

#include "dplab/common/formatnumber.h"
#include "dplab/problem/datascan.h"

#include <cmath>
#include <filesystem>
#include <set>

namespace dplab {

namespace {

constexpr long long kMaxSeed = 9007199254740992LL; // 2^53: exact in a JSON double

// --- Spec tables -----------------------------------------------------------------------------

ParamSpec seedSpec(const std::string &help)
{
    return intParam("seed", "Seed", -1, -1, kMaxSeed, help);
}

ParamSpec textParam(std::string key, std::string label, Json def, std::string help)
{
    ParamSpec spec;
    spec.key = std::move(key);
    spec.label = std::move(label);
    spec.help = std::move(help);
    spec.type = ParamType::Text;
    spec.defaultValue = std::move(def);
    return spec;
}

/** Prefixes every key with `prefix.` (for the flattened descriptor). */
std::vector<ParamSpec> prefixed(std::vector<ParamSpec> specs, const std::string &prefix)
{
    for (auto &spec : specs)
        spec.key = prefix + "." + spec.key;
    return specs;
}

std::vector<ParamSpec> concat(std::vector<ParamSpec> a, const std::vector<ParamSpec> &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::uint64_t chooseSeed(long long own, long long parent, std::uint64_t experiment)
{
    if (own >= 0)
        return static_cast<std::uint64_t>(own);
    if (parent >= 0)
        return static_cast<std::uint64_t>(parent);
    return experiment;
}

// --- Quadratic -------------------------------------------------------------------------------

std::vector<ParamSpec> quadraticTopSpecs()
{
    ParamSpec dimension = intParam("dimension", "Dimension", 0, 1, 100000,
                                   "Dimension d of the decision x.");
    dimension.defaultValue = Json(); // required
    return {dimension,
            seedSpec("Seed of the random generator (-1 = the experiment seed).")};
}

std::vector<ParamSpec> quadraticRandomSpecs()
{
    return {
        seedSpec("Seed of the random A_i, b_i (-1 = the problem's \"seed\", else the experiment "
                 "seed)."),
        realParam("min_eigenvalue", "Min eigenvalue", 1.0, 0.0, 1e12,
                  "Smallest eigenvalue of every A_i (strong convexity μ of each f_i).",
                  {.minExclusive = true, .logScale = true}),
        realParam("max_eigenvalue", "Max eigenvalue", 10.0, 0.0, 1e12,
                  "Largest eigenvalue of every A_i (smoothness L of each f_i).",
                  {.minExclusive = true, .logScale = true}),
        realParam("heterogeneity", "Heterogeneity", 1.0, 0.0, 1e6,
                  "Spread of the local minimisers around a common centre (0 = every agent has "
                  "the same minimiser)."),
    };
}

/** Reads a JSON array of `size` finite numbers into v; false otherwise. */
bool readVector(const Json &json, Eigen::Index size, Eigen::VectorXd &v)
{
    if (!json.is_array() || static_cast<Eigen::Index>(json.size()) != size)
        return false;
    v.resize(size);
    for (Eigen::Index k = 0; k < size; ++k) {
        const Json &item = json[static_cast<std::size_t>(k)];
        if (!item.is_number() || !std::isfinite(item.get<double>()))
            return false;
        v(k) = item.get<double>();
    }
    return true;
}

Result<std::pair<std::vector<Eigen::MatrixXd>, std::vector<Eigen::VectorXd>>>
readQuadraticAgents(const Json &list, int agents, Eigen::Index d, const std::string &path)
{
    if (!list.is_array())
        return Error::invalid(path, "must be a list of {\"A\": ..., \"b\": ...}, one per agent");
    if (static_cast<int>(list.size()) != agents)
        return Error::invalid(path, "has " + std::to_string(list.size()) + " entries for "
                                        + std::to_string(agents) + " agents");
    const std::string shape = std::to_string(d) + "×" + std::to_string(d);
    std::vector<Eigen::MatrixXd> A;
    std::vector<Eigen::VectorXd> b;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string itemPath = indexPath(path, i);
        const Json &item = list[i];
        if (!item.is_object())
            return Error::invalid(itemPath, "must be an object {\"A\": ..., \"b\": ...}");
        for (auto it = item.begin(); it != item.end(); ++it)
            if (it.key() != "A" && it.key() != "b")
                return Error::invalid(joinPath(itemPath, it.key()),
                                      "unknown key (expected one of: A, b)");
        if (!item.contains("A"))
            return Error::invalid(joinPath(itemPath, "A"), "is required");
        if (!item.contains("b"))
            return Error::invalid(joinPath(itemPath, "b"), "is required");
        const Json &a = item["A"];
        const std::string aPath = joinPath(itemPath, "A");
        if (!a.is_array() || static_cast<Eigen::Index>(a.size()) != d)
            return Error::invalid(aPath, "must be " + shape + " (a list of " + std::to_string(d)
                                             + " rows)");
        Eigen::MatrixXd Ai(d, d);
        for (Eigen::Index r = 0; r < d; ++r) {
            Eigen::VectorXd row;
            if (!readVector(a[static_cast<std::size_t>(r)], d, row))
                return Error::invalid(aPath, "must be " + shape + " finite numbers (row "
                                                 + std::to_string(r) + ")");
            Ai.row(r) = row.transpose();
        }
        const double asymmetry = (Ai - Ai.transpose()).cwiseAbs().maxCoeff();
        if (asymmetry > 1e-12 * std::max(1.0, Ai.cwiseAbs().maxCoeff()))
            return Error::invalid(aPath, "must be symmetric (A and its transpose differ by up to "
                                             + formatNumber(asymmetry) + ")");
        Eigen::VectorXd bi;
        if (!readVector(item["b"], d, bi))
            return Error::invalid(joinPath(itemPath, "b"),
                                  "must be a list of " + std::to_string(d) + " finite numbers");
        A.push_back(0.5 * (Ai + Ai.transpose()));
        b.push_back(std::move(bi));
    }
    return std::make_pair(std::move(A), std::move(b));
}

Result<Json> resolveQuadratic(const Json &spec, const ProblemContext &context)
{
    auto resolved = resolveProblemKeys(quadraticTopSpecs(), spec, context.path, "quadratic",
                                       {"agents", "random"});
    if (!resolved)
        return resolved.error();
    Json out = *resolved;
    const bool explicitAgents = spec.contains("agents");
    if (explicitAgents && spec.contains("random"))
        return Error::invalid(joinPath(context.path, "random"),
                              "give either \"agents\" (explicit A_i, b_i) or \"random\", not both");
    if (explicitAgents) {
        const auto d = static_cast<Eigen::Index>(paramInt(out, "dimension"));
        auto agents = readQuadraticAgents(spec["agents"], context.agents, d,
                                          joinPath(context.path, "agents"));
        if (!agents)
            return agents.error();
        out["agents"] = spec["agents"];
        return out;
    }
    const std::string randomPath = joinPath(context.path, "random");
    const Json given = spec.contains("random") ? spec["random"] : Json::object();
    auto random = resolveParams(quadraticRandomSpecs(), given, randomPath);
    if (!random)
        return random.error();
    if (paramReal(*random, "max_eigenvalue") < paramReal(*random, "min_eigenvalue"))
        return Error::invalid(joinPath(randomPath, "max_eigenvalue"),
                              "must be ≥ min_eigenvalue");
    out["random"] = *random;
    return out;
}

Result<std::shared_ptr<const Problem>> buildQuadratic(const Json &resolved,
                                                      const ProblemContext &context)
{
    const auto d = static_cast<Eigen::Index>(paramInt(resolved, "dimension"));
    if (resolved.contains("agents")) {
        const std::string agentsPath = joinPath(context.path, "agents");
        auto agents = readQuadraticAgents(resolved["agents"], context.agents, d, agentsPath);
        if (!agents)
            return agents.error();
        auto problem = std::make_shared<QuadraticProblem>(
            std::move(agents->first), std::move(agents->second), Json{{"generator", "explicit"}});
        if (!problem->closedFormOptimum())
            return Error::invalid(agentsPath,
                                  "Σ A_i must be positive definite (its smallest eigenvalue is "
                                      + formatNumber(problem->globalStrongConvexity()
                                                     * context.agents)
                                      + "), otherwise F has no unique minimiser");
        return std::shared_ptr<const Problem>(std::move(problem));
    }
    const Json &random = resolved["random"];
    const std::uint64_t seed =
        chooseSeed(paramInt(random, "seed"), paramInt(resolved, "seed"), context.seed);
    Rng rng = Rng::stream(seed, 0, 0, -1, RngPurpose::Data);
    RandomQuadraticOptions options;
    options.minEigenvalue = paramReal(random, "min_eigenvalue");
    options.maxEigenvalue = paramReal(random, "max_eigenvalue");
    options.heterogeneity = paramReal(random, "heterogeneity");
    return std::shared_ptr<const Problem>(std::make_shared<QuadraticProblem>(
        randomQuadratic(context.agents, static_cast<int>(d), options, rng, Json{{"seed", seed}})));
}

// --- Data problems ---------------------------------------------------------------------------

enum class Task { Regression, Classification };

enum SourceBit : unsigned { Bundled = 1, Csv = 2, Libsvm = 4, Synthetic = 8, AnySource = 15 };

struct DataKey {
    ParamSpec spec;
    unsigned sources;
};

/** Bundled data sets: name → file under resourceDir()/data. */
struct BundledData {
    const char *name;
    const char *file;
};
constexpr BundledData kBundled[] = {
    {"breast-cancer", "breast_cancer_standardized.csv"},
};

std::vector<DataKey> dataKeys(Task task)
{
    std::vector<std::string> bundledNames;
    for (const auto &b : kBundled)
        bundledNames.emplace_back(b.name);
    std::vector<DataKey> keys = {
        {choiceParam("source", "Data source",
                     task == Task::Classification ? "bundled" : "synthetic",
                     {"bundled", "csv", "libsvm", "synthetic"},
                     "Where the samples come from: a data set shipped with DPLab, a CSV or "
                     "LIBSVM file, or a synthetic generator."),
         AnySource},
        {choiceParam("name", "Bundled data set", bundledNames.front(), bundledNames,
                     "bundled: which data set (breast-cancer: UCI Breast Cancer Wisconsin "
                     "(Diagnostic), 569 samples, 30 standardised features, malignant = +1)."),
         Bundled},
        {textParam("path", "File", Json(),
                   "csv, libsvm: the data file, relative to the experiment file's folder; "
                   ".gz files are read transparently."),
         Csv | Libsvm},
        {intParam("label_column", "Label column", -1, -1000000, 1000000,
                  "csv: index of the label column, 0-based; negative counts from the end "
                  "(-1 = last)."),
         Csv},
        {textParam("label_name", "Label column name", "",
                   "csv: name of the label column in the header row (overrides label_column)."),
         Csv},
        {choiceParam("header", "Header row", "auto", {"auto", "yes", "no"},
                     "csv: whether the first row holds column names (auto: when one of its "
                     "cells is not a number)."),
         Csv},
        {intParam("features", "Features", 0, 0, 10000000,
                  "libsvm: number of features (0 = the largest index in the file)."),
         Libsvm},
        {boolParam("standardize", "Standardise",
                   false,
                   "csv, libsvm: map every feature to zero mean and unit variance (statistics of "
                   "the training split; constant features become 0)."),
         Csv | Libsvm},
        {intParam("samples", "Samples", 1000, 1, 10000000,
                  "synthetic: number of samples drawn (before the train/test split)."),
         Synthetic},
        {intParam("dimension", "Features", 10, 1, 100000, "synthetic: number of features."),
         Synthetic},
    };
    if (task == Task::Regression)
        keys.push_back({realParam("noise", "Noise std", 0.1, 0.0, 1e6,
                                  "synthetic: standard deviation of the Gaussian noise on the "
                                  "targets y = Xw + noise."),
                        Synthetic});
    keys.push_back({seedSpec("synthetic: seed of the generator (-1 = the problem's \"seed\", else "
                             "the experiment seed)."),
                    Synthetic});
    return keys;
}

unsigned sourceBit(const std::string &source)
{
    if (source == "bundled")
        return Bundled;
    if (source == "csv")
        return Csv;
    if (source == "libsvm")
        return Libsvm;
    return Synthetic;
}

struct DataProblemKind {
    std::string id;
    Task task;
    bool hasLambda;
    bool lambdaPositive;
    bool hasTestSplit;
    bool defaultBias;
};

std::vector<ParamSpec> dataTopSpecs(const DataProblemKind &kind)
{
    std::vector<ParamSpec> specs;
    if (kind.hasLambda)
        specs.push_back(realParam("lambda", "λ (ℓ2 weight)", 0.01, 0.0, 1e6,
                                  "Weight λ of the regulariser (λ/2)‖x‖² in every f_i.",
                                  {.minExclusive = kind.lambdaPositive, .logScale = true}));
    specs.push_back(choiceParam("split", "Split across agents", "iid", {"iid", "by-label"},
                                "iid: shuffled, near-equal parts (homogeneous agents); by-label: "
                                "sorted by label then cut, so agents see different labels "
                                "(heterogeneous)."));
    specs.push_back(boolParam("bias", "Bias term", kind.defaultBias,
                              "Append a constant-1 feature so that x has an intercept (its last "
                              "coordinate; regularised like the others)."));
    if (kind.hasTestSplit)
        specs.push_back(realParam("test_fraction", "Test fraction", 0.2, 0.0, 0.9,
                                  "Fraction of the samples held out for test_accuracy "
                                  "(0 = none)."));
    specs.push_back(seedSpec("Seed of the splits and synthetic data (-1 = the experiment seed)."));
    return specs;
}

std::vector<ParamSpec> dataSpecsFor(const DataProblemKind &kind, unsigned source)
{
    std::vector<ParamSpec> specs;
    for (const auto &key : dataKeys(kind.task))
        if (key.sources & source)
            specs.push_back(key.spec);
    return specs;
}

Result<Json> resolveData(const Json &given, const DataProblemKind &kind, const std::string &path)
{
    if (!given.is_object())
        return Error::invalid(path, "must be an object");
    const auto keys = dataKeys(kind.task);
    const ParamSpec &sourceSpec = keys.front().spec;
    Json sourceOnly = Json::object();
    if (given.contains("source"))
        sourceOnly["source"] = given["source"];
    auto source = resolveParams({sourceSpec}, sourceOnly, path);
    if (!source)
        return source.error();
    return resolveParams(dataSpecsFor(kind, sourceBit(paramText(*source, "source"))), given, path);
}

Result<Json> resolveDataProblem(const Json &spec, const ProblemContext &context,
                                const DataProblemKind &kind)
{
    auto resolved = resolveProblemKeys(dataTopSpecs(kind), spec, context.path, kind.id, {"data"});
    if (!resolved)
        return resolved.error();
    Json out = *resolved;
    auto data = resolveData(spec.contains("data") ? spec["data"] : Json::object(), kind,
                            joinPath(context.path, "data"));
    if (!data)
        return data.error();
    out["data"] = *data;
    return out;
}

/** Loads or generates the data set of a resolved "data" object. */
Result<Dataset> loadData(const Json &data, const DataProblemKind &kind,
                         const ProblemContext &context, Rng &problemRng, std::uint64_t problemSeed,
                         Json &facts)
{
    namespace fs = std::filesystem;
    const std::string dataPath = joinPath(context.path, "data");
    const std::string source = paramText(data, "source");
    if (source == "synthetic") {
        const long long ownSeed = paramInt(data, "seed");
        Rng own = Rng::stream(ownSeed >= 0 ? static_cast<std::uint64_t>(ownSeed) : 0, 0, 0, -1,
                              RngPurpose::Data);
        Rng &rng = ownSeed >= 0 ? own : problemRng;
        facts["data_seed"] = ownSeed >= 0 ? static_cast<std::uint64_t>(ownSeed) : problemSeed;
        const auto samples = static_cast<Eigen::Index>(paramInt(data, "samples"));
        const auto dimension = static_cast<Eigen::Index>(paramInt(data, "dimension"));
        if (kind.task == Task::Classification)
            return syntheticLogistic(samples, dimension, rng);
        return syntheticLinear(samples, dimension, paramReal(data, "noise"), rng);
    }
    std::string file;
    std::string fileKeyPath;
    if (source == "bundled") {
        const std::string name = paramText(data, "name");
        for (const auto &b : kBundled)
            if (name == b.name)
                file = (fs::path(resourceDir()) / "data" / b.file).string();
        fileKeyPath = joinPath(dataPath, "name");
    } else {
        fs::path p(paramText(data, "path"));
        if (p.is_relative() && !context.baseDir.empty())
            p = fs::path(context.baseDir) / p;
        file = p.lexically_normal().string();
        fileKeyPath = joinPath(dataPath, "path");
    }
    std::error_code ec;
    if (fs::is_regular_file(file, ec))
        facts["file"] = file;
    return loadDataFileCached(file, data, fileKeyPath);
}

/** Where the labels of a loaded data set came from, and how to read them from elsewhere, for
 *  label errors: a CSV's column (by name or by index of the columns), the format's own labels
 *  otherwise. */
std::string labelOrigin(const Json &data, Eigen::Index columns)
{
    const std::string source = paramText(data, "source");
    if (source == "csv") {
        const std::string name = paramText(data, "label_name");
        if (!name.empty())
            return "the labels were read from the column named \"" + name
                   + "\"; choose another with label_name (a header name) or, without label_name, "
                     "label_column (0-based, negative from the end)";
        const long long given = paramInt(data, "label_column");
        const long long index = given < 0 ? given + columns : given;
        std::string which = "column " + std::to_string(index + 1) + " of " + std::to_string(columns);
        if (index == columns - 1)
            which += ", the last";
        return "the labels were read from " + which + " (label_column " + std::to_string(given)
               + "); choose another with label_column (0-based, negative from the end) or "
                 "label_name (a header name)";
    }
    if (source == "libsvm")
        return "the labels were read from the first token of each line, as LIBSVM files keep them";
    return "the labels are those of the " + source + " data set";
}

/** Maps two distinct label values to −1 (smaller) and +1 (larger). */
Status toPlusMinusOne(Dataset &data, const std::string &path, Json &facts, const std::string &origin)
{
    std::set<double> distinct(data.y.data(), data.y.data() + data.y.size());
    if (distinct.size() != 2) {
        std::string list;
        int shown = 0;
        for (double v : distinct) {
            if (shown++ == 5) {
                list += ", ...";
                break;
            }
            list += (list.empty() ? "" : ", ") + formatNumber(v);
        }
        return Error::invalid(path, "binary classification needs exactly two label values, found "
                                        + std::to_string(distinct.size()) + " (" + list + "); "
                                        + origin);
    }
    const double negative = *distinct.begin();
    const double positive = *distinct.rbegin();
    for (Eigen::Index k = 0; k < data.y.size(); ++k)
        data.y(k) = data.y(k) == positive ? 1.0 : -1.0;
    facts["label_map"] = Json{{formatNumber(negative), -1}, {formatNumber(positive), 1}};
    return {};
}

Result<std::shared_ptr<const Problem>> buildDataProblem(const Json &resolved,
                                                        const ProblemContext &context,
                                                        const DataProblemKind &kind)
{
    const std::string dataPath = joinPath(context.path, "data");
    const Json &data = resolved["data"];
    const std::uint64_t seed = chooseSeed(paramInt(resolved, "seed"), -1, context.seed);
    Rng rng = Rng::stream(seed, 0, 0, -1, RngPurpose::Data);
    Json facts{{"data", data}, {"seed", seed}};

    auto loaded = loadData(data, kind, context, rng, seed, facts);
    if (!loaded)
        return loaded.error();
    Dataset all = std::move(*loaded);
    if (all.samples() == 0 || all.features() == 0)
        return Error::invalid(dataPath, "the data set has no samples or no features");
    facts["source"] = all.source;
    facts["features"] = all.features();
    if (kind.task == Task::Classification)
        if (auto status = toPlusMinusOne(all, dataPath, facts, labelOrigin(data, all.features() + 1)); !status)
            return status.error();

    const double testFraction = kind.hasTestSplit ? paramReal(resolved, "test_fraction") : 0.0;
    TrainTest parts;
    if (testFraction > 0.0) {
        parts = trainTestSplit(all, testFraction, rng);
    } else {
        parts.train = std::move(all);
        parts.test.source = parts.train.source;
        parts.test.X.resize(0, parts.train.features());
    }
    if (parts.train.samples() < context.agents)
        return Error::invalid(dataPath, std::to_string(parts.train.samples())
                                            + " training samples cannot be split across "
                                            + std::to_string(context.agents) + " agents");
    if (data.contains("standardize") && paramBool(data, "standardize")) {
        const auto map = standardize(parts.train);
        applyStandardization(map, parts.test);
    }
    const bool bias = paramBool(resolved, "bias");
    if (bias) {
        appendBias(parts.train);
        appendBias(parts.test);
    }
    const std::string split = paramText(resolved, "split");
    auto agents = split == "by-label" ? splitByLabel(parts.train, context.agents, rng)
                                      : splitIid(parts.train, context.agents, rng);
    facts["split"] = split;
    facts["bias"] = bias;

    if (kind.task == Task::Classification) {
        facts["test_fraction"] = testFraction;
        return std::shared_ptr<const Problem>(std::make_shared<LogisticProblem>(
            agents, paramReal(resolved, "lambda"), std::move(parts.test), std::move(facts)));
    }
    const double lambda = kind.hasLambda ? paramReal(resolved, "lambda") : 0.0;
    auto problem = std::make_shared<LeastSquaresProblem>(agents, lambda, std::move(facts));
    if (!problem->closedFormOptimum())
        return Error::invalid(dataPath, "least squares has no unique minimiser: the samples span "
                                        "fewer than " + std::to_string(problem->dimension())
                                        + " dimensions; use \"ridge\" with lambda > 0");
    return std::shared_ptr<const Problem>(std::move(problem));
}

ProblemEntry dataEntry(const DataProblemKind &kind, std::string name, std::string explanation)
{
    std::vector<ParamSpec> data;
    for (const auto &key : dataKeys(kind.task))
        data.push_back(key.spec);
    return problemEntry(
        kind.id, std::move(name), "", std::move(explanation),
        concat(dataTopSpecs(kind), prefixed(data, "data")),
        [kind](const Json &spec, const ProblemContext &context) {
            return resolveDataProblem(spec, context, kind);
        },
        [kind](const Json &resolved, const ProblemContext &context) {
            return buildDataProblem(resolved, context, kind);
        });
}

} // namespace

ProblemEntry quadraticProblemEntry()
{
    return problemEntry(
        "quadratic", "Quadratic", "",
        "f_i(x) = ½ xᵀA_i x − b_iᵀx. Give the matrices explicitly as \"agents\": "
        "[{\"A\": d×d symmetric, \"b\": d numbers}, ...] (one entry per agent, Σ A_i positive "
        "definite), or draw them with \"random\": {seed, min_eigenvalue, max_eigenvalue, "
        "heterogeneity} (the default when \"agents\" is absent). x* = (Σ A_i)⁻¹ Σ b_i.",
        concat(quadraticTopSpecs(), prefixed(quadraticRandomSpecs(), "random")), resolveQuadratic,
        buildQuadratic);
}

ProblemEntry leastSquaresProblemEntry()
{
    return dataEntry({"least-squares", Task::Regression, false, false, false, false},
                     "Least squares",
                     "f_i(x) = (1/(2 m_i)) ‖X_i x − y_i‖² on agent i's m_i samples. x* in closed "
                     "form; the samples must span every direction (else use ridge).");
}

ProblemEntry ridgeProblemEntry()
{
    return dataEntry({"ridge", Task::Regression, true, true, false, false}, "Ridge regression",
                     "f_i(x) = (1/(2 m_i)) ‖X_i x − y_i‖² + (λ/2)‖x‖² on agent i's m_i samples. "
                     "x* in closed form.");
}

ProblemEntry logisticProblemEntry()
{
    return dataEntry({"logistic", Task::Classification, true, false, true, true},
                     "Logistic regression (ℓ2)",
                     "f_i(x) = (1/m_i) Σ log(1 + exp(−y x·a)) + (λ/2)‖x‖², labels ±1 (two label "
                     "values in a file: the larger becomes +1). A held-out test_fraction gives "
                     "test_accuracy. x* by Newton's method.");
}

} // namespace dplab
