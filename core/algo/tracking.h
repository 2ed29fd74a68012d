// SPDX-License-Identifier: GPL-3.0-or-later
//
// The step the gradient-tracking family shares (gradient-tracking, push-pull, diadsp):
//     x(k+1) = M_x(x(k), sent x) − α_k y(k)
//     y(k+1) = M_y(y(k), sent y) + ∇f(x(k+1)) − ∇f(x(k)),      y(0) = ∇f(x(0))
// where each algorithm supplies its mixing M (W with the own term exact, R and C, or W on the
// noisy messages only) and its gradient oracle (plain, or clipped to the bound C). Also the two
// noise scales the channels of the DP methods send with: one scale for every agent, and paper
// 000's per-agent ν_i (t+1)^(−ς_i) (push-pull, ldp-gt, the weakened-consensus methods). Private
// to core/algo.
//
// Threading: owned by one algorithm instance; not thread-safe. No allocation after reset().
#pragma once

#include "dplab/algo/builtin.h"
#include "dplab/algo/mixing.h"

#include <Eigen/Core>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace dplab {

/** x, its tracker y, ∇f(x), and the buffers the next step is built in. */
class TrackingState
{
public:
    /** x = x0, ∇f(x0) from `gradients(x, out, 0)`, y = ∇f(x0); the buffers sized n×d. */
    template <class Gradients>
    void reset(const Eigen::MatrixXd &x0, Gradients &&gradients)
    {
        const Eigen::Index n = x0.rows(), d = x0.cols();
        mX = x0;
        mGrad.resize(n, d);
        gradients(mX, mGrad, 0);
        mY = mGrad;
        mNextX.resize(n, d);
        mNextY.resize(n, d);
        mNextGrad.resize(n, d);
    }

    /** One step at iteration k with step size `stepsize`: mixX(out) and mixY(out) write the mixed
     *  x and y, gradients(x, out, t) the gradients at x for round t. */
    template <class MixX, class MixY, class Gradients>
    void step(long long k, double stepsize, MixX &&mixX, MixY &&mixY, Gradients &&gradients)
    {
        mixX(mNextX);
        mNextX -= stepsize * mY;
        gradients(mNextX, mNextGrad, k + 1);
        mixY(mNextY);
        mNextY += mNextGrad - mGrad;
        mX.swap(mNextX);
        mY.swap(mNextY);
        mGrad.swap(mNextGrad);
    }

    const Eigen::MatrixXd &x() const { return mX; }
    const Eigen::MatrixXd &y() const { return mY; }
    /** "y" (the tracker) and "gradient" (∇f at the current x); null for any other name. */
    const Eigen::MatrixXd *state(const std::string &name) const
    {
        return namedState(name, {{"y", &mY}, {"gradient", &mGrad}});
    }

private:
    Eigen::MatrixXd mX, mY, mGrad, mNextX, mNextY, mNextGrad;
};

/** The plain gradient oracle of `problem` in the form TrackingState takes. */
inline auto gradientsOf(const Problem &problem)
{
    return [&problem](const Eigen::MatrixXd &x, Eigen::MatrixXd &out, long long t) {
        problem.gradients(x, out, t);
    };
}

/** Sends `clean` on `channel` with the same noise scale for every agent (`scale` is the n-vector
 *  buffer it is written to). Returns the bits sent. */
inline std::uint64_t sendAtScale(Broadcast &channel, const Eigen::MatrixXd &clean, double scale,
                                 Eigen::VectorXd &scales, std::vector<Message> *record)
{
    scales.setConstant(scale);
    return channel.send(clean, scales, record);
}

/** The family's two broadcasts, the decision x and the tracker y, each with one noise scale for
 *  every agent per message. */
class TrackingChannels
{
public:
    /** Channels "x" (DecisionNoise) and "y" (TrackerNoise) of the run's n agents. */
    void reset(const RunContext &ctx)
    {
        const int n = ctx.agents(), d = ctx.dimension();
        mScale.resize(n);
        mX = Broadcast("x", n, d, ctx.noise, RngPurpose::DecisionNoise, ctx.compressor);
        mY = Broadcast("y", n, d, ctx.noise, RngPurpose::TrackerNoise, ctx.compressor);
    }
    /** Sends state.x() at noise scale `scaleX`, then state.y() at `scaleY`; returns the bits. */
    std::uint64_t send(const TrackingState &state, double scaleX, double scaleY,
                       std::vector<Message> *record)
    {
        std::uint64_t bits = sendAtScale(mX, state.x(), scaleX, mScale, record);
        bits += sendAtScale(mY, state.y(), scaleY, mScale, record);
        return bits;
    }
    const Broadcast &x() const { return mX; }
    const Broadcast &y() const { return mY; }

private:
    Broadcast mX, mY;
    Eigen::VectorXd mScale;
};

/** scales_i = ν_i (t+1)^(−ς_i), the Laplace scale of agent i's message at iteration t. */
inline void decayingScales(const Eigen::VectorXd &nu, const Eigen::VectorXd &decay, long long t,
                           Eigen::VectorXd &scales)
{
    const double tp1 = static_cast<double>(t + 1);
    for (Eigen::Index i = 0; i < scales.size(); ++i)
        scales[i] = nu[i] * std::pow(tp1, -decay[i]);
}

} // namespace dplab
