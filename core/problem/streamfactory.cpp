// SPDX-License-Identifier: GPL-3.0-or-later
//
// JSON → OnlineStreamProblem ("online-logistic"). The data object is exactly the "logistic"
// problem's (bundled / csv / libsvm / synthetic, standardise, bias, test fraction): the logistic
// factory loads it for one agent, and its training samples become the pool the learners' streams
// draw from. Labels arrive as ±1 and are read as 1/0 (paper 000's b ∈ {0, 1}); the ℓ2 weight
// "lambda" is the per-sample ridge r.
#include "dplab/problem/stream.h"

#include "dplab/problem/dataset.h"
#include "dplab/problem/objectives.h"
#include "problem/problementry.h"

#include <algorithm>

namespace dplab {

namespace {

constexpr long long kMaxSeed = 9007199254740992LL; // 2^53

/** The stream keys of an online problem (besides the logistic data keys). */
std::vector<ParamSpec> streamSpecs()
{
    return {
        intParam("samples_per_iteration", "Samples per iteration", 1, 1, 1000000,
                 "New samples every learner receives per iteration (paper 000 Fig. 2: 1)."),
        choiceParam("gradient", "Gradient", "cumulative", {"cumulative", "window"},
                    "cumulative: the average over every sample received so far (paper 000 "
                    "Algorithm 1 line 3, exact); window: the average over the latest `window` "
                    "samples only (a deviation, for minibatch training)."),
        intParam("window", "Window", 0, 0, 100000000,
                 "window mode: samples averaged (0 = samples_per_iteration: the fresh "
                 "minibatch)."),
        realParam("clip_l1", "Clip ‖∇l‖₁ to c_l", 0.0, 0.0, 1e12,
                  "Per-sample gradient clipping to the ℓ1 ball of radius c_l, so that paper 000's "
                  "Assumption 5 holds and its ε accountant is valid (0 = no clipping).",
                  {.logScale = true}),
        choiceParam("sampling", "Sampling", "iid", {"iid", "partition"},
                    "iid: every learner draws its samples uniformly with replacement from the "
                    "whole training set (paper 000: \"randomly selected\"), F = the training-set "
                    "average; partition: the training set is split i.i.d. across learners and "
                    "each streams its own share in a random order (cycling), F = the mean of the "
                    "share averages."),
        intParam("stream_iterations", "Stream length", 10000, 1, 100000000,
                 "iid sampling: iterations of data drawn in advance per learner; a longer run "
                 "replays the stream from its start."),
        intParam("seed", "Seed", -1, -1, kMaxSeed,
                 "Seed of the splits and of the sample order (-1 = the experiment seed)."),
    };
}

/** The keys handed to the logistic factory. */
const std::vector<std::string> &logisticKeys()
{
    static const std::vector<std::string> keys = {"data", "lambda", "bias", "test_fraction"};
    return keys;
}

Json logisticSpecOf(const Json &spec)
{
    Json out = Json::object();
    for (const auto &key : logisticKeys())
        if (spec.contains(key))
            out[key] = spec.at(key);
    out["type"] = "logistic";
    out["split"] = "iid";
    if (spec.contains("seed"))
        out["seed"] = spec.at("seed");
    return out;
}

Result<Json> resolveOnline(const Json &spec, const ProblemContext &context)
{
    auto resolved = resolveProblemKeys(streamSpecs(), spec, context.path, "online-logistic", logisticKeys());
    if (!resolved)
        return resolved.error();
    ProblemContext one = context;
    one.agents = 1;
    auto logistic = logisticProblemEntry().resolve(logisticSpecOf(spec), one);
    if (!logistic)
        return logistic.error();
    Json out = *resolved;
    for (const auto &key : logisticKeys())
        out[key] = logistic->at(key);
    return out;
}

Result<std::shared_ptr<const Problem>> buildOnline(const Json &resolved, const ProblemContext &context)
{
    ProblemContext one = context;
    one.agents = 1;
    const Json logisticSpec = logisticSpecOf(resolved);
    auto logistic = logisticProblemEntry().resolve(logisticSpec, one);
    if (!logistic)
        return logistic.error();
    auto built = logisticProblemEntry().build(*logistic, one);
    if (!built)
        return built.error();
    const auto *data = dynamic_cast<const LogisticProblem *>(built->get());
    if (!data)
        return Error::internal(context.path, "the logistic factory did not build a logistic problem");

    const long long ownSeed = paramInt(resolved, "seed");
    const std::uint64_t seed = ownSeed >= 0 ? static_cast<std::uint64_t>(ownSeed) : context.seed;
    StreamOptions options;
    options.loss = SampleLoss::Logistic;
    options.ridge = paramReal(resolved, "lambda");
    options.samplesPerIteration = static_cast<int>(paramInt(resolved, "samples_per_iteration"));
    options.gradient = paramText(resolved, "gradient") == "window" ? StreamGradient::Window
                                                                    : StreamGradient::Cumulative;
    options.window = static_cast<int>(paramInt(resolved, "window"));
    options.clipL1 = paramReal(resolved, "clip_l1");

    const Eigen::MatrixXd X = data->samples().X; // the pool, column-major for the stream
    const Eigen::VectorXd &y = data->samples().y;
    const auto pool = static_cast<int>(X.rows());
    std::vector<std::vector<int>> sequences;
    if (paramText(resolved, "sampling") == "partition") {
        options.population = StreamPopulation::Sequence;
        if (pool < context.agents)
            return Error::invalid(joinPath(context.path, "data"),
                                  std::to_string(pool) + " training samples cannot be split across "
                                      + std::to_string(context.agents) + " learners");
        Rng rng = Rng::stream(seed, 0, 0, -1, RngPurpose::Stream);
        for (const auto &share : partitionIid(pool, context.agents, rng)) {
            std::vector<int> s(share.begin(), share.end());
            sequences.push_back(std::move(s));
        }
    } else {
        options.population = StreamPopulation::Pool;
        const long long length = paramInt(resolved, "stream_iterations") * options.samplesPerIteration;
        sequences = OnlineStreamProblem::iidSequences(pool, context.agents, length, seed);
    }
    auto problem = OnlineStreamProblem::create(X, y, std::move(sequences), options, context.path,
                                               data->testSet().X, data->testSet().y, "online-logistic");
    if (!problem)
        return problem.error();
    return std::shared_ptr<const Problem>(std::move(*problem));
}

} // namespace

std::vector<ParamSpec> onlineStreamParams()
{
    return streamSpecs();
}

ProblemEntry onlineLogisticProblemEntry()
{
    ProblemEntry entry;
    entry.descriptor.id = "online-logistic";
    entry.descriptor.name = "Online logistic regression (streams)";
    entry.descriptor.reference = "Z. Chen and Y. Wang, LDP gradient tracking for distributed online "
                                 "learning over directed graphs (paper 000), eq. (3) and §VI-A";
    entry.descriptor.explanation =
        "Every learner receives samples_per_iteration new samples per iteration from its own stream "
        "and its objective at t is the ℓ2-logistic loss l(θ; a, b) = log(1 + e^{aᵀθ}) − b aᵀθ + "
        "(λ/2)‖θ‖² averaged over every sample received so far (paper 000 eq. (3)); the window "
        "mode averages only the latest samples instead. Optional per-sample ℓ1 clipping makes "
        "the gradient bound c_l of paper 000's privacy theorem hold. The data object is the "
        "logistic problem's; x* minimises the population objective by Newton's method.";
    std::vector<ParamSpec> params;
    for (const auto &spec : logisticProblemEntry().descriptor.params)
        if (spec.key != "split" && spec.key != "seed")
            params.push_back(spec);
    for (const auto &spec : streamSpecs())
        params.push_back(spec);
    entry.descriptor.params = std::move(params);
    entry.resolve = resolveOnline;
    entry.build = buildOnline;
    return entry;
}

} // namespace dplab
