// SPDX-License-Identifier: GPL-3.0-or-later
//
// The algorithm seam (docs/architecture.md §2): a descriptor in the registry, a RunContext handed over at
// reset, and an Algorithm whose step() advances every agent one synchronous iteration.
// State is held for all agents as matrices, row i = agent i.
//
// Message semantics follow each paper: an agent's message is noised once (one draw per message)
// and broadcast to all its out-neighbours; the agent's own term in its update is noise-free
// where the paper says so. Bits are charged once per broadcast message (the compressor's count,
// or d·32 for a full-precision vector).
//
// Threading: an Algorithm instance is used by one thread at a time. Descriptors are immutable.
#pragma once

#include "dplab/algo/teachingfacts.h"
#include "dplab/common/params.h"
#include "dplab/compress/compressor.h"
#include "dplab/graph/graph.h"
#include "dplab/privacy/accountant.h"
#include "dplab/privacy/rng.h"
#include "dplab/problem/problem.h"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dplab {

class Algorithm;

/** Which weight matrices an algorithm mixes with. */
enum class WeightNeeds {
    Doubly,    ///< one doubly stochastic W ("graph.weights" = {"scheme": ...})
    RowColumn  ///< R row-stochastic and C column-stochastic ({"row": ..., "column": ...})
};

/** The claim that, with `privacy` and `params` merged over the defaults (settings that add no
 *  noise) and the identity compressor, an algorithm converges to the exact optimum x* of a smooth,
 *  strongly convex static problem — not to a neighbourhood of it, as DGD with a constant step
 *  does. */
struct NoiseFreeClaim {
    Json privacy = Json::object(); ///< e.g. {"s_x": 0, "s_y": 0}; {} when the defaults add no noise
    Json params = Json::object();  ///< parameter overrides the claim needs ({} = the defaults)
    std::string citation;          ///< where the claim comes from, e.g. "Nedić et al. 2017, Theorem 3.14"
};

struct AlgorithmDescriptor : Descriptor {
    GraphKind graphKind = GraphKind::Either;
    WeightNeeds weights = WeightNeeds::Doubly;
    /** Noise / privacy parameters (the run's "privacy" object), separate from "params". */
    std::vector<ParamSpec> privacyParams;
    /** Whether a compressor may be applied to the messages it sends. */
    bool acceptsCompressor = true;
    /** Whether it needs an online problem (streams), a static one, or either. */
    bool needsOnline = false;
    /** What an eavesdropper learns from its messages (teaching; None = no attack modelled). */
    AttackSurface attack;
    /** Rates its paper states, for dashed reference curves (teaching). */
    std::vector<TheoryRate> theory;
    /** Set when it claims exact convergence without noise (checked by the conformance suite,
     *  tests/core/conformance_test.cpp, on a small problem per graph kind). */
    std::optional<NoiseFreeClaim> exactWithoutNoise;
    std::function<std::unique_ptr<Algorithm>()> create;
};

/** Where an algorithm's random numbers come from: streams of (seed, run, repetition). */
struct NoiseSource {
    std::uint64_t seed = 0;
    std::uint64_t run = 0;
    std::uint64_t repetition = 0;
    Rng stream(int agent, RngPurpose purpose) const
    {
        return Rng::stream(seed, run, repetition, agent, purpose);
    }
    /** The counter-based noise stream of (seed, run, repetition, agent, purpose). */
    NoiseStream noiseStream(int agent, RngPurpose purpose) const
    {
        return NoiseStream::stream(seed, run, repetition, agent, purpose);
    }
};

/** Everything an algorithm gets at reset. */
struct RunContext {
    Graph graph;
    Eigen::MatrixXd W; ///< doubly stochastic (WeightNeeds::Doubly), else empty
    Eigen::MatrixXd R; ///< row-stochastic (WeightNeeds::RowColumn), else empty
    Eigen::MatrixXd C; ///< column-stochastic (WeightNeeds::RowColumn), else empty
    std::shared_ptr<const Problem> problem;
    Json params;  ///< resolved descriptor params
    Json privacy; ///< resolved descriptor privacyParams
    std::shared_ptr<const Compressor> compressor; ///< never null (identity when none)
    NoiseSource noise;
    Eigen::MatrixXd x0;     ///< n×d initial decisions
    long long horizon = 0;  ///< planned iterations T (for accountants and schedules that use it)

    /** n, the number of agents (rows of x0). */
    int agents() const { return static_cast<int>(x0.rows()); }
    /** d, the dimension of a decision (columns of x0). */
    int dimension() const { return static_cast<int>(x0.cols()); }
};

/** One message of the last iteration, recorded on request (teaching view, eavesdropper demo). */
struct Message {
    int sender = 0;
    std::string channel; ///< "x", "y", "s", ...
    Eigen::VectorXd clean;
    Eigen::VectorXd noise;
    Eigen::VectorXd sent; ///< what the out-neighbours receive (noised, then compressed)
    std::uint64_t bits = 0;
};

/** An algorithm's run, written as a template method: reset() and step() do what every algorithm
 *  does around its own start() and iterate(), which carry the paper's set-up and its iteration. */
class Algorithm
{
public:
    virtual ~Algorithm() = default;

    /** Sets up all agents from the context: takes the run's problem, clears the warnings, runs
     *  start() and begins a fresh run (no iterations, no bits, no recorded messages). Fails
     *  (naming the parameter path relative to the run, e.g. "params.stepsize") on combinations
     *  the descriptor ranges cannot express. */
    Status reset(const RunContext &context);
    /** Advances every agent one synchronous iteration: iterate(k) with k = iteration(), the
     *  messages recorded while recording is on. */
    void step();
    /** The n×d decisions the agents play now (what metrics and traces read). */
    virtual const Eigen::MatrixXd &decisions() const = 0;
    /** Iterations done since reset. */
    long long iteration() const { return mIteration; }
    /** Bits sent by all agents since reset. */
    std::uint64_t bitsSent() const { return mBits; }
    /** The accountant, or nullptr when the run adds no noise / has none. */
    virtual const PrivacyAccountant *accountant() const { return nullptr; }
    /** Theorem conditions that the resolved parameters violate (shown as warnings); by default
     *  those start() put in mWarnings. */
    virtual std::vector<std::string> warnings() const { return mWarnings; }
    /** A named internal state (e.g. "y" tracker) for invariant tests and teaching views. */
    virtual const Eigen::MatrixXd *state(const std::string &name) const;

    void setRecordMessages(bool on) { mRecordMessages = on; }
    const std::vector<Message> &lastMessages() const { return mMessages; }

protected:
    /** The algorithm's own set-up, called by reset() with mProblem set and mWarnings cleared:
     *  parameters, state, channels, accountant. */
    virtual Status start(const RunContext &context) = 0;
    /** Iteration k → k + 1 of every agent, called by step(). `record` is where the messages go
     *  (cleared) while recording, else null; the bits sent are added to mBits. */
    virtual void iterate(long long k, std::vector<Message> *record) = 0;

    std::shared_ptr<const Problem> mProblem; ///< the run's problem (set by reset)
    std::vector<std::string> mWarnings;      ///< this run's warnings (cleared by reset)
    long long mIteration = 0;
    std::uint64_t mBits = 0;

private:
    bool mRecordMessages = false;
    std::vector<Message> mMessages;
};

/** An algorithm with an accountant of its own type A, which its start() makes (null when the run
 *  adds no noise or cannot be accounted) and its iterate() advances. */
template <class A>
class AccountedAlgorithm : public Algorithm
{
public:
    const PrivacyAccountant *accountant() const override { return mAccountant.get(); }

protected:
    std::unique_ptr<A> mAccountant;
};

/** All registered algorithms, in display order. Adding one = one file + one line in
 *  registry.cpp (docs/extending.md walks through it). */
const std::vector<AlgorithmDescriptor> &algorithmRegistry();
const AlgorithmDescriptor *findAlgorithm(const std::string &id);
/** Adds an algorithm defined outside core (a file of your own linked into the program) after
 *  the built-in ones. Call it before the registry is first read — at static initialisation
 *  (`static const bool registered = registerAlgorithm(describeMine());`) or first thing in
 *  main. Returns false, registering nothing, once the registry has been read, when the id is
 *  empty or already taken, or without a factory. */
bool registerAlgorithm(AlgorithmDescriptor descriptor);

/** Whether the algorithm takes a target ε (privacy parameter "epsilon") and calibrates to it. */
bool calibratesEpsilon(const AlgorithmDescriptor &algorithm);

} // namespace dplab
