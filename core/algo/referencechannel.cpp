// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/algo/referencechannel.h"
#include "dplab/algo/mixing.h"

#include <cassert>

namespace dplab {

ReferenceChannel::ReferenceChannel(std::string name, int n, int d, std::shared_ptr<const Compressor> compressor,
                                   double alpha, bool errorFeedback)
    : mName(std::move(name)), mCompressor(std::move(compressor)), mAlpha(alpha), mUseFeedback(errorFeedback),
      mFeedback(n, d), mReference(Eigen::MatrixXd::Zero(n, d)), mEstimate(Eigen::MatrixXd::Zero(n, d)),
      mMessage(Eigen::MatrixXd::Zero(n, d)), mDiff(d), mOut(d)
{
    assert(mCompressor && "ReferenceChannel: compressor must not be null (use identity)");
}

std::uint64_t ReferenceChannel::send(const Eigen::Ref<const Eigen::MatrixXd> &a, std::vector<Rng> &rng,
                                     std::vector<Message> *record, const Eigen::MatrixXd *noise)
{
    assert(a.rows() == mReference.rows() && a.cols() == mReference.cols() && "ReferenceChannel::send: shape");
    assert(static_cast<Eigen::Index>(rng.size()) == a.rows() && "ReferenceChannel::send: one Rng per agent");
    const bool identity = mCompressor->isIdentity();
    std::uint64_t bits = 0;
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
        mDiff = (a.row(i) - mReference.row(i)).transpose();
        std::uint64_t messageBits;
        if (identity) {
            // C(v) = v exactly; error feedback would keep e = 0, so it is skipped.
            mOut = mDiff;
            messageBits = fullVectorBits(mDiff.size());
        } else if (mUseFeedback) {
            messageBits = mFeedback.compress(*mCompressor, static_cast<int>(i), mDiff, mOut, rng[i]);
        } else {
            messageBits = mCompressor->compress(mDiff, mOut, rng[i]);
        }
        mMessage.row(i) = mOut.transpose();
        bits += messageBits;
        if (record) {
            Eigen::VectorXd noiseRow =
                noise ? Eigen::VectorXd(noise->row(i).transpose()) : Eigen::VectorXd::Zero(mDiff.size());
            Eigen::VectorXd cleanRow = mDiff - noiseRow;
            recordMessage(*record, static_cast<int>(i), mName, std::move(cleanRow), std::move(noiseRow), mOut,
                          messageBits);
        }
    }
    // (14) â = c + m, then (16) c ← (1 − α) c + α â, for every holder at once.
    mEstimate = mReference + mMessage;
    mReference = (1.0 - mAlpha) * mReference + mAlpha * mEstimate;
    return bits;
}

} // namespace dplab
