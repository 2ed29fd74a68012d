// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/treeaggregation.h"

#include <bit>
#include <cassert>
#include <cmath>

namespace dplab {

double treeNoiseScale(int d, double lipschitz, double alpha, double radius, long long horizon, double epsilon)
{
    assert(d >= 1 && horizon >= 1 && epsilon > 0.0 && "treeNoiseScale: d, T >= 1 and epsilon > 0");
    return 6.0 * std::sqrt(static_cast<double>(d)) * (lipschitz + alpha * radius)
           * (2.0 + std::log2(static_cast<double>(horizon))) / epsilon;
}

int treeHeight(long long leaves)
{
    if (leaves <= 1)
        return 0;
    // ⌈log₂ N⌉ = bit width of N − 1.
    return static_cast<int>(std::bit_width(static_cast<unsigned long long>(leaves - 1)));
}

int popcount64(unsigned long long t)
{
    return std::popcount(t);
}

PrivateSum::PrivateSum(int d, long long capacity, double scale, Rng rng)
    : mHeight(treeHeight(capacity)), mCapacity(capacity), mScale(scale), mNoiseStream(rng.next()),
      mQuery(Eigen::VectorXd::Zero(d)), mQueryNoise(Eigen::VectorXd::Zero(d))
{
    assert(d >= 1 && capacity >= 0 && scale >= 0.0 && "PrivateSum: d >= 1, capacity >= 0, scale >= 0");
    mRaw.assign(mHeight + 1, Eigen::VectorXd::Zero(d));
    mNoisy.assign(mHeight + 1, Eigen::VectorXd::Zero(d));
    mNoise.assign(mHeight + 1, Eigen::VectorXd::Zero(d));
}

const Eigen::VectorXd &PrivateSum::add(const Eigen::Ref<const Eigen::VectorXd> &w)
{
    assert(mCount < mCapacity && "PrivateSum::add: the tree is full");
    assert(w.size() == mQuery.size() && "PrivateSum::add: dimension");
    const unsigned long long t = static_cast<unsigned long long>(++mCount);
    for (int l = 0; l <= mHeight; ++l) {
        mRaw[l] += w;
        // Node (l, (t >> l) − 1) is complete when 2^l divides t: noise it once, then start the
        // next node of this level from zero.
        if ((t & ((1ULL << l) - 1ULL)) == 0ULL) {
            if (mScale > 0.0) {
                // Node (l, t/2^l − 1): block (t, l) of the stream, a function of the node only.
                mNoiseStream.laplace((static_cast<std::uint64_t>(t) << 6) | static_cast<std::uint64_t>(l), mScale,
                                     mNoise[l]);
                ++mDraws;
            } else {
                mNoise[l].setZero();
            }
            mNoisy[l] = mRaw[l] + mNoise[l];
            mRaw[l].setZero();
        }
    }
    mQuery.setZero();
    mQueryNoise.setZero();
    mLastTerms = 0;
    for (int l = 0; l <= mHeight; ++l) {
        if ((t >> l) & 1ULL) {
            mQuery += mNoisy[l];
            mQueryNoise += mNoise[l];
            ++mLastTerms;
        }
    }
    return mQuery;
}

TreeAccountant::TreeAccountant(int agents, double epsilonPerLevel, std::string name,
                               std::vector<std::string> assumptions)
    : mName(std::move(name)), mAssumptions(std::move(assumptions)), mPerLevel(epsilonPerLevel),
      mEpsilon(Eigen::VectorXd::Zero(agents))
{
}

void TreeAccountant::setLeaves(long long k)
{
    const double levels = k <= 0 ? 0.0 : static_cast<double>(std::bit_width(static_cast<unsigned long long>(k)));
    mEpsilon.setConstant(levels * mPerLevel);
}

} // namespace dplab
