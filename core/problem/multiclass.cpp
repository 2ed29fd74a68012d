// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/multiclass.h"
#include "problem/problementry.h"

#include "dplab/common/formatnumber.h"
#include "dplab/problem/dataset.h"
#include "dplab/problem/datascan.h"
#include "dplab/problem/kernels.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <filesystem>
#include <map>

namespace dplab {

namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

} // namespace

// --- the problem ----------------------------------------------------------------------------

OnlineMulticlassProblem::OnlineMulticlassProblem(Eigen::MatrixXd features, std::vector<int> labels, int classes,
                                                 std::vector<std::vector<int>> streams, double tau,
                                                 int referenceIterations, Json facts)
    : mFeatures(std::move(features)), mLabels(std::move(labels)), mClasses(classes), mStreams(std::move(streams)),
      mSet(std::make_shared<TraceNormBall>(classes, static_cast<int>(mFeatures.cols()), tau)),
      mReferenceIterations(referenceIterations), mFacts(std::move(facts))
{
    assert(static_cast<Eigen::Index>(mLabels.size()) == mFeatures.rows() && "OnlineMulticlassProblem: labels");
    assert(!mStreams.empty() && "OnlineMulticlassProblem: at least one learner");
    mWeights = Eigen::VectorXd::Zero(mFeatures.rows());
    const double n = static_cast<double>(mStreams.size());
    for (const auto &stream : mStreams) {
        assert(!stream.empty() && "OnlineMulticlassProblem: empty stream");
        const double w = 1.0 / (n * static_cast<double>(stream.size()));
        for (int row : stream)
            mWeights[row] += w;
    }
}

long long OnlineMulticlassProblem::rounds() const
{
    std::size_t shortest = mStreams.front().size();
    for (const auto &s : mStreams)
        shortest = std::min(shortest, s.size());
    return static_cast<long long>(shortest);
}

double OnlineMulticlassProblem::exampleLoss(const Eigen::Ref<const Eigen::VectorXd> &x, int row,
                                            Eigen::VectorXd *grad) const
{
    const int p = features();
    const Eigen::Map<const RowMajorMatrix> xm(x.data(), mClasses, p);
    thread_local Eigen::VectorXd scores;
    scores.noalias() = xm * mFeatures.row(row).transpose();
    const double top = scores.maxCoeff();
    thread_local Eigen::VectorXd ex;
    ex = (scores.array() - top).exp().matrix();
    const double sum = ex.sum();
    const int y = mLabels[static_cast<std::size_t>(row)];
    if (grad) {
        grad->resize(mClasses * p);
        Eigen::Map<RowMajorMatrix> gm(grad->data(), mClasses, p);
        ex /= sum;
        ex[y] -= 1.0;
        gm.noalias() = ex * mFeatures.row(row);
    }
    return top + std::log(sum) - scores[y];
}

void OnlineMulticlassProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                                     long long t) const
{
    thread_local Eigen::VectorXd xi;
    for (int i = 0; i < agentCount(); ++i) {
        const auto &stream = mStreams[static_cast<std::size_t>(i)];
        xi = X.row(i).transpose();
        out[i] = exampleLoss(xi, stream[static_cast<std::size_t>(t % static_cast<long long>(stream.size()))], nullptr);
    }
}

void OnlineMulticlassProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                                        long long t) const
{
    thread_local Eigen::VectorXd xi, g;
    for (int i = 0; i < agentCount(); ++i) {
        const auto &stream = mStreams[static_cast<std::size_t>(i)];
        xi = X.row(i).transpose();
        exampleLoss(xi, stream[static_cast<std::size_t>(t % static_cast<long long>(stream.size()))], &g);
        out.row(i) = g.transpose();
    }
}

void OnlineMulticlassProblem::crossValues(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                                          long long t) const
{
    const int n = agentCount();
    const int p = features();
    thread_local Eigen::MatrixXd examples;
    thread_local std::vector<int> labels;
    thread_local Eigen::MatrixXd scores;
    thread_local Eigen::VectorXd theta;
    examples.resize(n, p);
    scores.resize(n, mClasses);
    labels.resize(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) {
        const auto &stream = mStreams[static_cast<std::size_t>(j)];
        const int row = stream[static_cast<std::size_t>(t % static_cast<long long>(stream.size()))];
        examples.row(j) = mFeatures.row(row);
        labels[static_cast<std::size_t>(j)] = mLabels[static_cast<std::size_t>(row)];
    }
    for (Eigen::Index r = 0; r < X.rows(); ++r) {
        theta = X.row(r).transpose();
        const Eigen::Map<const RowMajorMatrix> xm(theta.data(), mClasses, p);
        // n × q scores: the kernel gives the bits of Eigen's product, faster (dplab/problem/kernels.h)
        if (simd::activeIsa() == simd::Isa::Sse2
            || !kernels::productInEigenOrder(examples.data(), n, theta.data(), p, scores.data(), n, n, p, mClasses))
            scores.noalias() = examples * xm.transpose();
        double sum = 0.0;
        for (int j = 0; j < n; ++j) {
            const double top = scores.row(j).maxCoeff();
            const double total = (scores.row(j).array() - top).exp().sum();
            sum += top + std::log(total) - scores(j, labels[static_cast<std::size_t>(j)]);
        }
        out[r] = sum;
    }
}

double OnlineMulticlassProblem::weightedLoss(const Eigen::VectorXd &x, Eigen::VectorXd *grad) const
{
    const int p = features();
    const Eigen::Map<const RowMajorMatrix> xm(x.data(), mClasses, p);
    Eigen::MatrixXd scores = mFeatures * xm.transpose(); // N×q
    double value = 0.0;
    for (Eigen::Index r = 0; r < scores.rows(); ++r) {
        const double w = mWeights[r];
        auto row = scores.row(r);
        const int y = mLabels[static_cast<std::size_t>(r)];
        const double top = row.maxCoeff();
        const double sy = row[y];
        row = (row.array() - top).exp().matrix();
        const double sum = row.sum();
        value += w * (top + std::log(sum) - sy); // logsumexp − s_y
        if (grad) {
            row /= sum;
            row[y] -= 1.0;
            row *= w;
        }
    }
    if (grad) {
        grad->resize(mClasses * p);
        Eigen::Map<RowMajorMatrix> gm(grad->data(), mClasses, p);
        gm.noalias() = scores.transpose() * mFeatures;
    }
    return value;
}

double OnlineMulticlassProblem::globalValue(const Eigen::VectorXd &x) const
{
    return weightedLoss(x, nullptr);
}

Eigen::VectorXd OnlineMulticlassProblem::globalGradient(const Eigen::VectorXd &x) const
{
    Eigen::VectorXd g;
    weightedLoss(x, &g);
    return g;
}

double OnlineMulticlassProblem::frankWolfeGap(const Eigen::VectorXd &x) const
{
    const Eigen::VectorXd g = globalGradient(x);
    Eigen::VectorXd v(x.size());
    mSet->linearMinimizer(g, v);
    return g.dot(x - v);
}

std::optional<Eigen::VectorXd> OnlineMulticlassProblem::closedFormOptimum() const
{
    // FISTA with exact projections onto the trace-norm ball. Step 1/L: L starts from a power-
    // iteration estimate of ½ λ_max(Σ_r w_r e_r e_rᵀ) (Böhning's bound on the softmax Hessian,
    // diag(π) − ππᵀ ≼ ½ I) and doubles whenever the sufficient-decrease test fails.
    const Eigen::Index d = dimension();
    Eigen::VectorXd x = Eigen::VectorXd::Zero(d);
    if (mReferenceIterations <= 0)
        return x;
    Eigen::VectorXd v = Eigen::VectorXd::Ones(features()) / std::sqrt(static_cast<double>(features()));
    double lambda = 0.0;
    for (int k = 0; k < 30; ++k) {
        const Eigen::VectorXd w = mFeatures.transpose() * (mWeights.asDiagonal() * (mFeatures * v));
        lambda = w.norm();
        if (lambda <= 0.0)
            break;
        v = w / lambda;
    }
    double lipschitz = std::max(1e-12, 0.5 * lambda);
    Eigen::VectorXd y = x, previous = x, g, candidate;
    double t = 1.0;
    for (int k = 0; k < mReferenceIterations; ++k) {
        const double fy = weightedLoss(y, &g);
        for (int attempt = 0; attempt < 60; ++attempt) {
            candidate = y - g / lipschitz;
            mSet->project(candidate);
            const Eigen::VectorXd step = candidate - y;
            if (weightedLoss(candidate, nullptr) <= fy + g.dot(step) + 0.5 * lipschitz * step.squaredNorm() + 1e-15)
                break;
            lipschitz *= 2.0;
        }
        previous = x;
        x = candidate;
        const double tNext = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
        y = x + ((t - 1.0) / tNext) * (x - previous);
        t = tNext;
        if ((k + 1) % 10 == 0 && frankWolfeGap(x) <= 1e-9 * std::max(1.0, globalValue(x)))
            break;
    }
    return x;
}

std::optional<double> OnlineMulticlassProblem::accuracy(const Eigen::VectorXd &x, bool test) const
{
    if (test)
        return std::nullopt;
    const Eigen::Map<const RowMajorMatrix> xm(x.data(), mClasses, features());
    const Eigen::MatrixXd scores = mFeatures * xm.transpose();
    double correct = 0.0;
    for (Eigen::Index r = 0; r < scores.rows(); ++r) {
        Eigen::Index best = 0;
        scores.row(r).maxCoeff(&best);
        if (best == mLabels[static_cast<std::size_t>(r)])
            correct += mWeights[r];
    }
    return correct;
}

Json OnlineMulticlassProblem::describe() const
{
    Json out = mFacts;
    out["type"] = id();
    out["classes"] = mClasses;
    out["features"] = features();
    out["examples"] = mFeatures.rows();
    out["rounds"] = rounds();
    out["radius"] = mSet->radius();
    out["decision"] = "X ∈ R^{" + std::to_string(mClasses) + "×" + std::to_string(features())
                      + "}, flattened row-major (x[class·p + feature])";
    out["constraint"] = mSet->toJson();
    // ‖∇f‖_F = ‖softmax − 1_y‖·‖e‖ ≤ √2·max‖e‖: the Lipschitz bound G of Assumption 3.2.
    out["gradient_bound"] = std::sqrt(2.0) * mFeatures.rowwise().norm().maxCoeff();
    out["reference"] = "best fixed X in K in hindsight over all streams (FISTA, ≤ "
                       + std::to_string(mReferenceIterations) + " iterations, Frank–Wolfe gap ≤ 1e-9·F)";
    return out;
}

std::vector<std::vector<int>> dealCopies(int rows, int agents, int epochs, Rng &rng)
{
    const long long perAgent = static_cast<long long>(epochs) * rows;
    std::vector<int> all;
    all.reserve(static_cast<std::size_t>(perAgent * agents));
    for (long long c = 0; c < static_cast<long long>(epochs) * agents; ++c)
        for (int r = 0; r < rows; ++r)
            all.push_back(r);
    for (std::size_t k = all.size(); k > 1; --k)
        std::swap(all[k - 1], all[static_cast<std::size_t>(rng.below(k))]);
    std::vector<std::vector<int>> streams(static_cast<std::size_t>(agents));
    for (int i = 0; i < agents; ++i)
        streams[static_cast<std::size_t>(i)].assign(all.begin() + i * perAgent, all.begin() + (i + 1) * perAgent);
    return streams;
}

// --- factory ----------------------------------------------------------------------------------

namespace {

constexpr long long kMaxSeed = 9007199254740992LL; // 2^53

struct BundledSet {
    const char *name;
    const char *file;
};
constexpr BundledSet kBundledSets[] = {{"digits", "digits.csv"}};

ParamSpec textSpec(std::string key, std::string label, std::string help)
{
    ParamSpec spec;
    spec.key = std::move(key);
    spec.label = std::move(label);
    spec.help = std::move(help);
    spec.type = ParamType::Text;
    spec.defaultValue = "";
    return spec;
}

std::vector<ParamSpec> topSpecs()
{
    return {realParam("radius", "Trace-norm radius τ", 10.0, 0.0, 1e9,
                      "K = {‖X‖_* ≤ τ} (paper: τ = 10; R = τ).",
                      {.minExclusive = true, .logScale = true}),
            intParam("epochs", "Copies per learner", 1, 1, 1000,
                     "Each learner's stream holds this many copies' worth of examples (T = epochs·N): "
                     "the data set is copied epochs·n times, shuffled and dealt out (paper: letter "
                     "10, poker 1)."),
            choiceParam("scale", "Feature scaling", "none", {"none", "max-abs", "standardize"},
                        "none; max-abs: divide every feature by the largest |value| in the data "
                        "(pixels → [0, 1]); standardize: zero mean, unit variance per feature."),
            intParam("reference_iterations", "Reference iterations", 500, 0, 1000000,
                     "FISTA iterations (at most) for the best fixed decision in K in hindsight, "
                     "the comparator of the regret."),
            intParam("seed", "Seed", -1, -1, kMaxSeed,
                     "Seed of the shuffle and synthetic data (-1 = the experiment seed).")};
}

ParamSpec sourceSpec()
{
    return choiceParam("source", "Data source", "bundled", {"bundled", "csv", "libsvm", "idx", "synthetic"},
                       "bundled: a data set shipped with DPLab; csv / libsvm: a file; idx: an "
                       "MNIST-format pair (e.g. Debian's Fashion-MNIST under "
                       "/usr/share/datasets/fashion-mnist); synthetic: Gaussian classes.");
}

std::vector<ParamSpec> dataSpecs(const std::string &source)
{
    std::vector<ParamSpec> specs = {sourceSpec()};
    if (source == "bundled")
        specs.push_back(choiceParam("name", "Bundled data set", "digits", {"digits"},
                                    "digits: UCI optical recognition of handwritten digits (scikit-learn's "
                                    "copy), 1797 examples, 64 pixels 0..16, 10 classes."));
    if (source == "csv" || source == "libsvm")
        specs.push_back(textSpec("path", "File", "The data file, relative to the experiment file's folder."));
    if (source == "csv") {
        specs.push_back(intParam("label_column", "Label column", -1, -1000000, 1000000,
                                 "Index of the label column (negative counts from the end)."));
        specs.push_back(choiceParam("header", "Header row", "auto", {"auto", "yes", "no"},
                                    "Whether the first row holds column names."));
    }
    if (source == "libsvm")
        specs.push_back(intParam("features", "Features", 0, 0, 10000000, "Number of features (0 = largest index)."));
    if (source == "idx") {
        specs.push_back(textSpec("images", "Images file", "IDX images (N × ...), .gz read transparently."));
        specs.push_back(textSpec("labels", "Labels file", "IDX labels (N)."));
    }
    if (source != "synthetic")
        specs.push_back(intParam("max_samples", "Max samples", 0, 0, 100000000,
                                 "Keep only the first examples of the file (0 = all)."));
    if (source == "synthetic") {
        specs.push_back(intParam("samples", "Samples", 2000, 1, 10000000, "Examples drawn."));
        specs.push_back(intParam("dimension", "Features", 20, 1, 100000, "Features p."));
        specs.push_back(intParam("classes", "Classes", 5, 2, 10000, "Classes q."));
        specs.push_back(realParam("separation", "Separation", 2.0, 0.0, 1e6,
                                  "Class means are N(0, separation²·I); examples add N(0, I) noise."));
    }
    return specs;
}

Result<Json> resolveMulticlass(const Json &spec, const ProblemContext &context)
{
    if (!spec.is_object())
        return Error::invalid(context.path, "must be an object");
    Json top = spec;
    top.erase("type");
    top.erase("data");
    auto resolved = resolveParams(topSpecs(), top, context.path);
    if (!resolved)
        return resolved.error();
    Json out = *resolved;
    out["type"] = "online-multiclass";
    auto data = resolveMulticlassData(spec.contains("data") ? spec["data"] : Json::object(),
                                      joinPath(context.path, "data"));
    if (!data)
        return data.error();
    out["data"] = *data;
    return out;
}

std::string resolvePath(const std::string &given, const std::string &baseDir)
{
    std::filesystem::path p(given);
    if (p.is_relative() && !baseDir.empty())
        p = std::filesystem::path(baseDir) / p;
    return p.lexically_normal().string();
}

Result<Dataset> loadData(const Json &data, const std::string &dataPath, const std::string &baseDir, Rng &rng)
{
    namespace fs = std::filesystem;
    const std::string source = paramText(data, "source");
    if (source == "synthetic") {
        const auto samples = static_cast<Eigen::Index>(paramInt(data, "samples"));
        const auto p = static_cast<Eigen::Index>(paramInt(data, "dimension"));
        const auto q = static_cast<int>(paramInt(data, "classes"));
        const double separation = paramReal(data, "separation");
        Eigen::MatrixXd means(q, p);
        for (int c = 0; c < q; ++c)
            for (Eigen::Index k = 0; k < p; ++k)
                means(c, k) = separation * rng.gaussian();
        Dataset out;
        out.X.resize(samples, p);
        out.y.resize(samples);
        for (Eigen::Index s = 0; s < samples; ++s) {
            const int label = static_cast<int>(rng.below(static_cast<std::uint64_t>(q)));
            out.y[s] = label;
            for (Eigen::Index k = 0; k < p; ++k)
                out.X(s, k) = means(label, k) + rng.gaussian();
        }
        out.source = "synthetic-gaussian-classes";
        return out;
    }
    const auto maxSamples = static_cast<Eigen::Index>(paramInt(data, "max_samples"));
    Result<Dataset> loaded = Error::internal(dataPath, "no source");
    std::error_code ec;
    if (source == "idx") {
        const std::string images = resolvePath(paramText(data, "images"), baseDir);
        const std::string labels = resolvePath(paramText(data, "labels"), baseDir);
        if (!fs::is_regular_file(images, ec))
            return Error::notFound(joinPath(dataPath, "images"), "file not found: " + images);
        if (!fs::is_regular_file(labels, ec))
            return Error::notFound(joinPath(dataPath, "labels"), "file not found: " + labels);
        loaded = loadIdxCached(images, labels, maxSamples);
    } else {
        std::string file;
        std::string keyPath = joinPath(dataPath, "path");
        if (source == "bundled") {
            for (const auto &b : kBundledSets)
                if (paramText(data, "name") == b.name)
                    file = (fs::path(resourceDir()) / "data" / b.file).string();
            keyPath = joinPath(dataPath, "name");
        } else {
            file = resolvePath(paramText(data, "path"), baseDir);
        }
        loaded = loadDataFileCached(file, data, keyPath);
        if (loaded && maxSamples > 0 && loaded->samples() > maxSamples) {
            loaded->X.conservativeResize(maxSamples, Eigen::NoChange);
            loaded->y.conservativeResize(maxSamples);
        }
    }
    return loaded;
}

Result<std::shared_ptr<const Problem>> buildMulticlass(const Json &resolved, const ProblemContext &context)
{
    const std::string dataPath = joinPath(context.path, "data");
    const long long ownSeed = paramInt(resolved, "seed");
    const std::uint64_t seed = ownSeed >= 0 ? static_cast<std::uint64_t>(ownSeed) : context.seed;
    Rng rng = Rng::stream(seed, 0, 0, -1, RngPurpose::Data);
    auto loaded = loadData(resolved["data"], dataPath, context.baseDir, rng);
    if (!loaded)
        return loaded.error();
    Dataset data = std::move(*loaded);
    if (data.samples() == 0 || data.features() == 0)
        return Error::invalid(dataPath, "the data set has no samples or no features");

    // Labels → 0..q−1 in ascending order of the values in the file.
    std::map<double, int> classOf;
    for (Eigen::Index s = 0; s < data.samples(); ++s)
        classOf.emplace(data.y[s], 0);
    if (classOf.size() < 2)
        return Error::invalid(dataPath, "multiclass classification needs at least two label values");
    Json labelMap = Json::object();
    int next = 0;
    for (auto &[value, index] : classOf) {
        index = next++;
        labelMap[formatNumber(value)] = index;
    }
    std::vector<int> labels(static_cast<std::size_t>(data.samples()));
    for (Eigen::Index s = 0; s < data.samples(); ++s)
        labels[static_cast<std::size_t>(s)] = classOf.at(data.y[s]);

    const std::string scale = paramText(resolved, "scale");
    if (scale == "standardize") {
        standardize(data);
    } else if (scale == "max-abs") {
        const double m = data.X.cwiseAbs().maxCoeff();
        if (m > 0.0)
            data.X /= m;
    }
    const int epochs = static_cast<int>(paramInt(resolved, "epochs"));
    auto streams = dealCopies(static_cast<int>(data.samples()), context.agents, epochs, rng);
    Json facts{{"data", resolved["data"]},
               {"source", data.source},
               {"seed", seed},
               {"epochs", epochs},
               {"scale", scale},
               {"label_map", labelMap},
               {"examples_per_learner", static_cast<long long>(streams.front().size())}};
    return std::shared_ptr<const Problem>(std::make_shared<OnlineMulticlassProblem>(
        std::move(data.X), std::move(labels), static_cast<int>(classOf.size()), std::move(streams),
        paramReal(resolved, "radius"), static_cast<int>(paramInt(resolved, "reference_iterations")),
        std::move(facts)));
}

std::vector<ParamSpec> prefixedSpecs(std::vector<ParamSpec> specs, const std::string &prefix)
{
    for (auto &spec : specs)
        spec.key = prefix + "." + spec.key;
    return specs;
}

} // namespace

Result<Json> resolveMulticlassData(const Json &given, const std::string &dataPath)
{
    if (!given.is_object())
        return Error::invalid(dataPath, "must be an object");
    Json sourceOnly = Json::object();
    if (given.contains("source"))
        sourceOnly["source"] = given["source"];
    auto source = resolveParams({sourceSpec()}, sourceOnly, dataPath);
    if (!source)
        return source.error();
    auto data = resolveParams(dataSpecs(paramText(*source, "source")), given, dataPath);
    if (!data)
        return data.error();
    const std::string kind = paramText(*data, "source");
    if ((kind == "csv" || kind == "libsvm") && paramText(*data, "path").empty())
        return Error::invalid(joinPath(dataPath, "path"), "is required for source " + kind);
    if (kind == "idx" && (paramText(*data, "images").empty() || paramText(*data, "labels").empty()))
        return Error::invalid(joinPath(dataPath, paramText(*data, "images").empty() ? "images" : "labels"),
                              "is required for source idx");
    return data;
}

Result<Dataset> loadMulticlassData(const Json &resolved, const std::string &dataPath, const std::string &baseDir,
                                   Rng &rng)
{
    return loadData(resolved, dataPath, baseDir, rng);
}

std::vector<ParamSpec> multiclassDataParams(const std::string &prefix)
{
    std::vector<ParamSpec> params;
    for (const char *source : {"bundled", "csv", "libsvm", "idx", "synthetic"})
        for (auto &spec : prefixedSpecs(dataSpecs(source), prefix)) {
            bool seen = false;
            for (const auto &p : params)
                seen = seen || p.key == spec.key;
            if (!seen)
                params.push_back(spec);
        }
    return params;
}

ProblemEntry onlineMulticlassProblemEntry()
{
    std::vector<ParamSpec> params = topSpecs();
    for (auto &spec : multiclassDataParams("data"))
        params.push_back(spec);
    return problemEntry(
        "online-multiclass", "Online multiclass classification (trace-norm ball)",
        "X. Wang et al., ICML 2025, §4.1 (after Zhang et al. 2017, Wan et al. 2020)",
        "Each learner receives one example (e, y) per round and suffers f(X) = log(1 + Σ_{ℓ≠y} "
        "exp(x_ℓᵀe − x_yᵀe)) with X ∈ R^{q×p} (q classes × p features, row-major) in the trace-norm "
        "ball ‖X‖_* ≤ τ. The data set is copied epochs·n times, shuffled and dealt out, so each "
        "stream has T = epochs·N rounds. Gradient clipping at C is done by the learners "
        "(params.clip). The regret's comparator is the best fixed X in K in hindsight.",
        std::move(params), resolveMulticlass, buildMulticlass);
}

} // namespace dplab
