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

class Algorithm
{
public:
    virtual ~Algorithm() = default;

    /** Sets up all agents from the context. Fails (naming the parameter path relative to the
     *  run, e.g. "params.stepsize") on combinations the descriptor ranges cannot express. */
    virtual Status reset(const RunContext &context) = 0;
    /** Advances every agent one synchronous iteration. */
    virtual void step() = 0;
    /** The n×d decisions the agents play now (what metrics and traces read). */
    virtual const Eigen::MatrixXd &decisions() const = 0;
    /** Iterations done since reset. */
    long long iteration() const { return mIteration; }
    /** Bits sent by all agents since reset. */
    std::uint64_t bitsSent() const { return mBits; }
    /** The accountant, or nullptr when the run adds no noise / has none. */
    virtual const PrivacyAccountant *accountant() const { return nullptr; }
    /** Theorem conditions that the resolved parameters violate (shown as warnings). */
    virtual std::vector<std::string> warnings() const { return {}; }
    /** A named internal state (e.g. "y" tracker) for invariant tests and teaching views. */
    virtual const Eigen::MatrixXd *state(const std::string &name) const;

    void setRecordMessages(bool on) { mRecordMessages = on; }
    const std::vector<Message> &lastMessages() const { return mMessages; }

protected:
    /** Starts a fresh run, the end of reset(): no iterations, no bits, no recorded messages. */
    void restart()
    {
        mIteration = 0;
        mBits = 0;
        mMessages.clear();
    }
    /** Where step() records its messages: the cleared record while recording, else null. */
    std::vector<Message> *messageRecord()
    {
        if (!mRecordMessages)
            return nullptr;
        mMessages.clear();
        return &mMessages;
    }

    long long mIteration = 0;
    std::uint64_t mBits = 0;
    bool mRecordMessages = false;
    std::vector<Message> mMessages;
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
