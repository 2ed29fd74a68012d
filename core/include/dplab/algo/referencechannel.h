// SPDX-License-Identifier: GPL-3.0-or-later
//
// A compressed message channel with reference points (paper 001 eqs. (14)/(16), (15)/(17); the
// CHOCO-gossip construction of Koloskova et al.). For the vectors a_i the agents want to share
// (in paper 001 the noisy states x^a_i = x_i + ξ_{x_i}), every agent i
//     sends       m_i = C(a_i − c_i)                      (one realization, to all neighbours)
//     and every receiver j ∈ N_i ∪ {i} forms
//                 â_i = c_i + m_i                          (14)
//                 c_i ← (1 − α) c_i + α â_i                (16)
// with c_i(0) = 0. The copies of c_i that the neighbours keep stay identical to agent i's own
// (every holder applies the same deterministic update to the same message), so the channel
// stores ONE n×d matrix of reference points for all holders.
//
// Optional error feedback (errorfeedback.h): m_i = C(a_i − c_i + e_i), e_i ← a_i − c_i + e_i − m_i.
//
// Bits: each agent's message costs the compressor's count (an identity compressor: d·32 bits),
// charged once per broadcast.
//
// Threading: owned by one algorithm instance; not thread-safe. No allocation after construction
// unless messages are recorded.
#pragma once

#include "dplab/algo/algorithm.h"
#include "dplab/algo/errorfeedback.h"

#include <Eigen/Core>

#include <memory>
#include <string>
#include <vector>

namespace dplab {

class ReferenceChannel
{
public:
    ReferenceChannel() = default;
    /** A channel named `name` ("x", "y") for n agents sending d-vectors through `compressor`
     *  (not null), reference step α = `alpha`, with or without error feedback. */
    ReferenceChannel(std::string name, int n, int d, std::shared_ptr<const Compressor> compressor, double alpha,
                     bool errorFeedback);

    /** One round: every agent i sends C(a_i − c_i) (compressor randomness from rng[i]); then
     *  estimates() holds â = c + m and the reference points are advanced with α.
     *  Returns the bits of all n broadcasts. When `record` is non-null, one Message per agent is
     *  appended with clean = a_i − noise_i − c_i, noise = noise_i, sent = m_i. */
    std::uint64_t send(const Eigen::Ref<const Eigen::MatrixXd> &a, std::vector<Rng> &rng,
                       std::vector<Message> *record = nullptr,
                       const Eigen::MatrixXd *noise = nullptr);

    /** â of the last round (n×d). */
    const Eigen::MatrixXd &estimates() const { return mEstimate; }
    /** The reference points c (n×d), already advanced by the last round. */
    const Eigen::MatrixXd &references() const { return mReference; }
    /** The messages m of the last round (n×d). */
    const Eigen::MatrixXd &messages() const { return mMessage; }
    /** The error-feedback residuals (all zero when error feedback is off). */
    const Eigen::MatrixXd &residuals() const { return mFeedback.memory(); }
    bool errorFeedback() const { return mUseFeedback; }

private:
    std::string mName;
    std::shared_ptr<const Compressor> mCompressor;
    double mAlpha = 1.0;
    bool mUseFeedback = false;
    ErrorFeedback mFeedback;
    Eigen::MatrixXd mReference;
    Eigen::MatrixXd mEstimate;
    Eigen::MatrixXd mMessage;
    Eigen::VectorXd mDiff;
    Eigen::VectorXd mOut;
};

} // namespace dplab
