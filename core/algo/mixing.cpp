// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/algo/mixing.h"

#include "dplab/algo/mixkernel.h"
#include "dplab/common/agentteam.h"
#include "dplab/problem/kernels.h"

#include <atomic>
#include <cassert>

namespace dplab {

Mixer::Mixer(const Eigen::MatrixXd &w)
{
    assert(w.rows() == w.cols() && "Mixer: weight matrix must be square");
    mDiagonal = w.diagonal();
    Eigen::MatrixXd off = w;
    off.diagonal().setZero();
    mOffDiagonal = off.sparseView(0.0, 0.0);
    mOffDiagonal.makeCompressed();
    // Dense graphs mix faster as one dense matrix product (vectorised, blocked) than through the
    // sparse kernel; sparse ones (rings, grids, sparse digraphs) the other way round.
    const double n = static_cast<double>(w.rows());
    if (n > 0 && static_cast<double>(mOffDiagonal.nonZeros()) >= DenseThreshold * n * n)
        mDense = std::move(off);
}

void Mixer::mix(const Eigen::Ref<const Eigen::MatrixXd> &own, const Eigen::Ref<const Eigen::MatrixXd> &sent,
                Eigen::Ref<Eigen::MatrixXd> out) const
{
    // Sparse graphs on a CPU with AVX2: the sparse product and the diagonal term in one pass of
    // the kernel, which gives the bits of the Eigen expressions below (dplab/algo/mixkernel.h).
    // Its SSE2 version gives the same bits too, but is not faster than Eigen's scalar loop
    // (docs/benchmarks.md), so SSE2 keeps Eigen.
    if (mDense.size() > 0 || simd::activeIsa() == simd::Isa::Sse2) {
        if (mDense.size() > 0) {
            // The kernel gives the bits of Eigen's product, faster under AVX2 (dplab/problem/kernels.h).
            if (simd::activeIsa() == simd::Isa::Sse2
                || !kernels::productInEigenOrder(mDense.data(), mDense.outerStride(), sent.data(), sent.outerStride(),
                                                 out.data(), out.outerStride(), mDense.rows(), mDense.cols(),
                                                 sent.cols()))
                out.noalias() = mDense * sent;
        } else
            out.noalias() = mOffDiagonal * sent;
        out += mDiagonal.asDiagonal() * own;
        return;
    }
    assert(own.rows() == size() && sent.rows() == size() && out.rows() == size() && own.cols() == sent.cols()
           && out.cols() == sent.cols() && "Mixer::mix: shapes");
    const kernels::SparseRows rows{mOffDiagonal.rows(), mOffDiagonal.outerIndexPtr(), mOffDiagonal.innerIndexPtr(),
                                   mOffDiagonal.valuePtr()};
    kernels::sparseMix(rows, mDiagonal.data(), {own.data(), own.outerStride()}, {sent.data(), sent.outerStride()},
                       sent.cols(), out.data(), out.outerStride());
}

void Mixer::apply(const Eigen::Ref<const Eigen::MatrixXd> &x, Eigen::Ref<Eigen::MatrixXd> out) const
{
    mix(x, x, out);
}

Broadcast::Broadcast(std::string name, int n, int d, const NoiseSource &noise, RngPurpose noisePurpose,
                     std::shared_ptr<const Compressor> compressor, NoiseLaw law)
    : mName(std::move(name)), mLaw(law), mCompressor(std::move(compressor)),
      mSent(Eigen::MatrixXd::Zero(n, d)), mNoise(Eigen::MatrixXd::Zero(n, d))
{
    assert(mCompressor && "Broadcast: compressor must not be null (use identity)");
    mNoiseStreams.reserve(n);
    mCompressorRng.reserve(n);
    for (int i = 0; i < n; ++i) {
        mNoiseStreams.push_back(noise.noiseStream(i, noisePurpose));
        // One compressor stream per (agent, channel): the channel's noise purpose keys it.
        Rng base = noise.stream(i, RngPurpose::Compressor);
        mCompressorRng.emplace_back(base.next() ^ (static_cast<std::uint64_t>(noisePurpose) * 0x9e3779b97f4a7c15ULL));
    }
}

std::uint64_t Broadcast::send(const Eigen::Ref<const Eigen::MatrixXd> &clean,
                              const Eigen::Ref<const Eigen::VectorXd> &scale, std::vector<Message> *record)
{
    assert(clean.rows() == mSent.rows() && clean.cols() == mSent.cols() && "Broadcast::send: shape");
    const auto t = static_cast<std::uint64_t>(mSends++);
    const Eigen::Index d = clean.cols();
    const int n = static_cast<int>(clean.rows());
    std::atomic<std::uint64_t> bits{0};
    // Agent by agent, each from its own noise stream (block t), its own compressor stream, into its
    // own rows: split over the job's threads when large enough, with the same bytes (the sum of
    // the bits is an integer; dplab/common/agentteam.h). A noisy element costs about six
    // multiply-adds of the gradient pass (docs/benchmarks.md). Recorded messages keep the agents'
    // order: then on this thread.
    auto agents = [&](int begin, int end, double *scratch) {
        Eigen::Map<Eigen::VectorXd> row(scratch, d), compressed(scratch + d, d);
        std::uint64_t chunkBits = 0;
        for (int i = begin; i < end; ++i)
            chunkBits += sendOne(i, t, clean, scale[i], row, compressed, record);
        bits.fetch_add(chunkBits, std::memory_order_relaxed);
    };
    if (record)
        agents(0, n, agentScratch(2 * d));
    else
        forAgents(n, 6.0 * static_cast<double>(clean.size()), 2 * d, agents);
    return bits.load(std::memory_order_relaxed);
}

std::uint64_t Broadcast::sendOne(int i, std::uint64_t t, const Eigen::Ref<const Eigen::MatrixXd> &clean, double scale,
                                 Eigen::Ref<Eigen::VectorXd> row, Eigen::Ref<Eigen::VectorXd> compressed,
                                 std::vector<Message> *record)
{
    auto noiseRow = mNoise.row(i);
    if (scale > 0) {
        // Block t of agent i's stream, drawn contiguously (vectorised), then stored.
        if (mLaw == NoiseLaw::Laplace)
            mNoiseStreams[i].laplace(t, scale, row);
        else
            mNoiseStreams[i].gaussian(t, scale, row);
        noiseRow = row.transpose();
        row += clean.row(i).transpose();
    } else {
        noiseRow.setZero();
        row = clean.row(i).transpose();
    }
    std::uint64_t messageBits;
    if (mCompressor->isIdentity()) {
        mSent.row(i) = row.transpose();
        messageBits = fullVectorBits(row.size());
    } else {
        messageBits = mCompressor->compress(row, compressed, mCompressorRng[i]);
        mSent.row(i) = compressed.transpose();
    }
    if (record)
        recordMessage(*record, i, mName, clean.row(i).transpose(), noiseRow.transpose(), mSent.row(i).transpose(),
                      messageBits);
    return messageBits;
}

void recordMessage(std::vector<Message> &record, int sender, const std::string &channel, Eigen::VectorXd clean,
                   Eigen::VectorXd noise, Eigen::VectorXd sent, std::uint64_t bits)
{
    Message m;
    m.sender = sender;
    m.channel = channel;
    m.clean = std::move(clean);
    m.noise = std::move(noise);
    m.sent = std::move(sent);
    m.bits = bits;
    record.push_back(std::move(m));
}

} // namespace dplab
