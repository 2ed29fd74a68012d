// SPDX-License-Identifier: GPL-3.0-or-later
//
// The two building blocks every algorithm's communication uses:
//
//  Mixer      a weight matrix W split into its diagonal and a sparse off-diagonal part, so that
//             agent i can combine its OWN noise-free state with what its in-neighbours SENT:
//                 out_i = W_ii own_i + Σ_{j≠i} W_ij sent_j       (mix)
//             or plainly out = W x (apply).
//  Broadcast  one message channel ("x", "y", "s", ...): every agent draws its noise once per
//             message, adds it to its clean vector, applies the compressor, and broadcasts the
//             result to all out-neighbours; bits are charged once per broadcast. The noise of
//             agent i's t-th message (t = 0, 1, ...: the iteration, for the algorithms that send
//             once per step on a channel) is block t of NoiseStream (i, purpose): a function of
//             (seed, run, repetition, agent, purpose, t, element) only.
//
// Threading: both are owned by one algorithm instance; not thread-safe. A large send is split
// over the job's AgentTeam (each agent's message from its own streams into its own rows: the same
// bytes; dplab/common/agentteam.h). Neither allocates after construction (the hot loop stays
// allocation-free unless messages are recorded).
#pragma once

#include "dplab/algo/algorithm.h"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <memory>
#include <string>
#include <vector>

namespace dplab {

class Mixer
{
public:
    Mixer() = default;
    explicit Mixer(const Eigen::MatrixXd &w);

    int size() const { return static_cast<int>(mDiagonal.size()); }
    /** out = diag(W) ∘ own + offdiag(W) · sent (row-wise). out must not alias own or sent. */
    void mix(const Eigen::Ref<const Eigen::MatrixXd> &own, const Eigen::Ref<const Eigen::MatrixXd> &sent,
             Eigen::Ref<Eigen::MatrixXd> out) const;
    /** out = W x. out must not alias x. */
    void apply(const Eigen::Ref<const Eigen::MatrixXd> &x, Eigen::Ref<Eigen::MatrixXd> out) const;

    const Eigen::VectorXd &diagonal() const { return mDiagonal; }
    const Eigen::SparseMatrix<double, Eigen::RowMajor> &offDiagonal() const { return mOffDiagonal; }
    /** Whether mix() uses the dense off-diagonal product (density ≥ DenseThreshold). */
    bool dense() const { return mDense.size() > 0; }
    /** Off-diagonal density from which the dense product is used. */
    static constexpr double DenseThreshold = 0.25;

private:
    Eigen::VectorXd mDiagonal;
    Eigen::SparseMatrix<double, Eigen::RowMajor> mOffDiagonal;
    Eigen::MatrixXd mDense; ///< off-diagonal part, dense; empty for sparse graphs
};

/** Appends agent `sender`'s message on `channel` to a run's record (callers check that one is
 *  kept: the vectors are built only then). */
void recordMessage(std::vector<Message> &record, int sender, const std::string &channel, Eigen::VectorXd clean,
                   Eigen::VectorXd noise, Eigen::VectorXd sent, std::uint64_t bits);

/** The noise law of a channel. */
enum class NoiseLaw { Laplace, Gaussian };

class Broadcast
{
public:
    Broadcast() = default;
    /** A channel named `name` for n agents sending d-vectors; agent i's noise comes from
     *  noise.noiseStream(i, noisePurpose) (block t = the number of earlier sends), its compressor randomness from
     *  noise.stream(i, RngPurpose::Compressor) offset by the purpose (so two channels never
     *  share compressor numbers). */
    Broadcast(std::string name, int n, int d, const NoiseSource &noise, RngPurpose noisePurpose,
              std::shared_ptr<const Compressor> compressor, NoiseLaw law = NoiseLaw::Laplace);

    /** Sends clean.row(i) + noise_i from every agent, noise_i having i.i.d. entries of scale
     *  scale[i] (Laplace b, or Gaussian σ; 0 = no noise, no draw), then compressed. Returns the
     *  bits of all n broadcasts. When `record` is non-null a Message per agent is appended. */
    std::uint64_t send(const Eigen::Ref<const Eigen::MatrixXd> &clean,
                       const Eigen::Ref<const Eigen::VectorXd> &scale,
                       std::vector<Message> *record = nullptr);

    /** What the out-neighbours received in the last send (n×d). */
    const Eigen::MatrixXd &sent() const { return mSent; }
    /** The noise added in the last send (n×d; zero rows where the scale was 0). */
    const Eigen::MatrixXd &noise() const { return mNoise; }

private:
    std::string mName;
    NoiseLaw mLaw = NoiseLaw::Laplace;
    std::shared_ptr<const Compressor> mCompressor;
    std::vector<NoiseStream> mNoiseStreams;
    long long mSends = 0;
    std::vector<Rng> mCompressorRng;
    Eigen::MatrixXd mSent;
    Eigen::MatrixXd mNoise;

    /** Agent i's message of send t (noise, compression, its rows of mSent and mNoise; `row` and
     *  `compressed` are d-vectors of scratch); returns its bits. */
    std::uint64_t sendOne(int i, std::uint64_t t, const Eigen::Ref<const Eigen::MatrixXd> &clean, double scale,
                          Eigen::Ref<Eigen::VectorXd> row, Eigen::Ref<Eigen::VectorXd> compressed,
                          std::vector<Message> *record);
};

} // namespace dplab
