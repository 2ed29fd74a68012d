// SPDX-License-Identifier: GPL-3.0-or-later
//
// JSON → OnlineStreamProblem with the softmax loss ("online-softmax"): paper 000's online streams
// (Algorithm 1 line 3's cumulative gradient, or the fresh-minibatch window as a documented
// deviation; per-sample ℓ1 clipping for the accountant's c_l) on a multiclass data set loaded
// with online-multiclass's data object (bundled digits, CSV, LIBSVM, IDX such as Fashion-MNIST,
// synthetic). Unlike online-multiclass (paper 002) there is no constraint set and the learners'
// gradients are the stream averages, so ldp-gt and push-pull can run on it as in paper 000.
//
// Labels: the training file's values, sorted ascending, become classes 0..K−1; a test set must
// use the same values. Scaling "max-abs" divides train and test features by the training set's
// largest |value|. "bias" appends a constant-1 feature.
#include "dplab/problem/multiclass.h"
#include "problem/problementry.h"
#include "dplab/common/formatnumber.h"
#include "dplab/problem/stream.h"

#include "dplab/privacy/rng.h"

#include <map>

namespace dplab {

namespace {

std::vector<ParamSpec> ownSpecs()
{
    return {
        realParam("lambda", "Ridge r", 0.0, 0.0, 1e6,
                  "ℓ2 weight r inside every per-sample loss, l = −log softmax(Θᵀa)_b + (r/2)‖Θ‖²."),
        boolParam("bias", "Bias feature", true, "Append a constant-1 feature (an intercept per class)."),
        choiceParam("scale", "Feature scaling", "max-abs", {"none", "max-abs"},
                    "max-abs: divide train and test features by the training set's largest |value| "
                    "(pixels 0..255 → [0, 1])."),
        intParam("reference_iterations", "Reference iterations", 0, 0, 1000000,
                 "0: x* by the engine's solver (L-BFGS to ‖∇F‖ ≤ 1e-10, slow for large data); k > 0: "
                 "an approximate x* after at most k FISTA iterations (distance_to_optimum is then "
                 "relative to it)."),
    };
}

Result<Json> resolveSoftmax(const Json &spec, const ProblemContext &context)
{
    if (!spec.is_object())
        return Error::invalid(context.path, "must be an object");
    Json rest = spec;
    for (const char *key : {"type", "data", "test_data"})
        rest.erase(key);
    std::vector<ParamSpec> specs = ownSpecs();
    for (auto &s : onlineStreamParams())
        specs.push_back(s);
    auto resolved = resolveParams(specs, rest, context.path);
    if (!resolved)
        return resolved.error();
    Json out = *resolved;
    out["type"] = "online-softmax";
    auto data = resolveMulticlassData(spec.contains("data") ? spec["data"] : Json::object(),
                                      joinPath(context.path, "data"));
    if (!data)
        return data.error();
    out["data"] = *data;
    // No test set: the key absent, null, or {"source": "none"} (the form's default).
    const bool noTest = !spec.contains("test_data") || spec["test_data"].is_null()
                        || (spec["test_data"].is_object() && spec["test_data"].value("source", Json()) == "none");
    if (!noTest) {
        auto test = resolveMulticlassData(spec["test_data"], joinPath(context.path, "test_data"));
        if (!test)
            return test.error();
        if (paramText(*test, "source") == "synthetic")
            return Error::invalid(joinPath(context.path, "test_data.source"),
                                  "a synthetic test set would have its own class means; use a file");
        out["test_data"] = *test;
    }
    return out;
}

Result<std::shared_ptr<const Problem>> buildSoftmax(const Json &resolved, const ProblemContext &context)
{
    const long long ownSeed = paramInt(resolved, "seed");
    const std::uint64_t seed = ownSeed >= 0 ? static_cast<std::uint64_t>(ownSeed) : context.seed;
    const std::string dataPath = joinPath(context.path, "data");
    Rng rng = Rng::stream(seed, 0, 0, -1, RngPurpose::Data);
    auto train = loadMulticlassData(resolved.at("data"), dataPath, context.baseDir, rng);
    if (!train)
        return train.error();
    if (train->samples() == 0 || train->features() == 0)
        return Error::invalid(dataPath, "the data set has no samples or no features");
    Dataset test;
    const bool hasTest = resolved.contains("test_data");
    if (hasTest) {
        const std::string testPath = joinPath(context.path, "test_data");
        auto loaded = loadMulticlassData(resolved.at("test_data"), testPath, context.baseDir, rng);
        if (!loaded)
            return loaded.error();
        if (loaded->features() != train->features())
            return Error::invalid(testPath, "the test set has " + std::to_string(loaded->features())
                                                + " features, the training set "
                                                + std::to_string(train->features()));
        test = std::move(*loaded);
    }

    std::map<double, int> classOf;
    for (Eigen::Index s = 0; s < train->samples(); ++s)
        classOf.emplace(train->y[s], 0);
    if (classOf.size() < 2)
        return Error::invalid(dataPath, "softmax classification needs at least two label values");
    int next = 0;
    for (auto &entry : classOf)
        entry.second = next++;
    auto relabel = [&](Dataset &d, const std::string &path) -> Status {
        for (Eigen::Index s = 0; s < d.samples(); ++s) {
            const auto it = classOf.find(d.y[s]);
            if (it == classOf.end())
                return Error::invalid(path, "label " + formatNumber(d.y[s])
                                                + " does not occur in the training set");
            d.y[s] = it->second;
        }
        return {};
    };
    if (auto status = relabel(*train, dataPath); !status)
        return status.error();
    if (hasTest)
        if (auto status = relabel(test, joinPath(context.path, "test_data")); !status)
            return status.error();

    if (paramText(resolved, "scale") == "max-abs") {
        const double m = train->X.cwiseAbs().maxCoeff();
        if (m > 0.0) {
            train->X /= m;
            if (hasTest)
                test.X /= m;
        }
    }
    if (paramBool(resolved, "bias")) {
        auto addBias = [](Eigen::MatrixXd &X) {
            X.conservativeResize(Eigen::NoChange, X.cols() + 1);
            X.col(X.cols() - 1).setOnes();
        };
        addBias(train->X);
        if (hasTest)
            addBias(test.X);
    }

    StreamOptions options;
    options.loss = SampleLoss::Softmax;
    options.classes = static_cast<int>(classOf.size());
    options.ridge = paramReal(resolved, "lambda");
    options.samplesPerIteration = static_cast<int>(paramInt(resolved, "samples_per_iteration"));
    options.gradient = paramText(resolved, "gradient") == "window" ? StreamGradient::Window
                                                                    : StreamGradient::Cumulative;
    options.window = static_cast<int>(paramInt(resolved, "window"));
    options.clipL1 = paramReal(resolved, "clip_l1");
    options.referenceIterations = static_cast<int>(paramInt(resolved, "reference_iterations"));

    const auto pool = static_cast<int>(train->X.rows());
    std::vector<std::vector<int>> sequences;
    if (paramText(resolved, "sampling") == "partition") {
        options.population = StreamPopulation::Sequence;
        if (pool < context.agents)
            return Error::invalid(dataPath, std::to_string(pool) + " training samples cannot be split across "
                                                + std::to_string(context.agents) + " learners");
        Rng split = Rng::stream(seed, 0, 0, -1, RngPurpose::Stream);
        for (const auto &share : partitionIid(pool, context.agents, split))
            sequences.emplace_back(share.begin(), share.end());
    } else {
        options.population = StreamPopulation::Pool;
        const long long length = paramInt(resolved, "stream_iterations") * options.samplesPerIteration;
        sequences = OnlineStreamProblem::iidSequences(pool, context.agents, length, seed);
    }
    auto problem = OnlineStreamProblem::create(std::move(train->X), std::move(train->y), std::move(sequences),
                                               options, context.path, std::move(test.X), std::move(test.y),
                                               "online-softmax");
    if (!problem)
        return problem.error();
    return std::shared_ptr<const Problem>(std::move(*problem));
}

} // namespace

ProblemEntry onlineSoftmaxProblemEntry()
{
    std::vector<ParamSpec> params = ownSpecs();
    for (auto &spec : onlineStreamParams())
        params.push_back(spec);
    for (auto &spec : multiclassDataParams("data"))
        params.push_back(spec);
    for (auto &spec : multiclassDataParams("test_data")) {
        if (spec.key == "test_data.source") { // optional: "none" = no test set
            spec.choices.insert(spec.choices.begin(), "none");
            spec.defaultValue = "none";
            spec.help = "none: no test set (no test_accuracy); otherwise a held-out set read like "
                        "data (e.g. Fashion-MNIST's t10k files).";
        }
        params.push_back(spec);
    }
    return problemEntry(
        "online-softmax", "Online softmax regression (streams)",
        "Z. Chen and Y. Wang, LDP gradient tracking for distributed online "
        "learning over directed graphs (paper 000), eq. (3) and §VI-B (scaled "
        "down: softmax regression instead of ResNet-18)",
        "Every learner receives samples_per_iteration new examples per iteration from its own "
        "stream and its objective at t is the multiclass cross-entropy l(Θ; a, b) = −log "
        "softmax(Θᵀa)_b + (λ/2)‖Θ‖² (Θ: features × classes, flattened class by class) averaged over "
        "every example received so far (paper 000 eq. (3)) or, in window mode, over the latest "
        "ones only (the mini-batch reading of the paper's image experiments). No constraint set. "
        "The data object is online-multiclass's; test_data (same form) gives test_accuracy.",
        std::move(params), resolveSoftmax, buildSoftmax);
}

} // namespace dplab
