// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tree-based private aggregation (the binary mechanism of Dwork et al. 2010 / Smith & Thakurta
// 2013), in the form of paper 002's Algorithm 2 "PrivateSum":
//
//  - leaves w_1, w_2, ... arrive one per call; node (l, j) at level l covers the leaves
//    j·2^l + 1 … (j+1)·2^l and holds their running sum;
//  - a node receives exactly ONE fresh Laplace vector Lap^d(0, b), at the moment it becomes
//    complete (its last leaf arrives); the noise is never re-drawn;
//  - the query after t leaves is the sum of the maximal noised nodes — the dyadic decomposition of
//    [1, t], one node per set bit of t, popcount(t) nodes:  v̂_t = Σ_{τ≤t} w_τ + Σ of popcount(t)
//    independent noise vectors.
//
// (Algorithm 2 read literally adds w_t to the leaf twice, once in line 2 and again in line 6;
// the intended leaf value is w_t + b, as in Smith & Thakurta and the privacy proof.)
//
// Only the most recently completed node of each level can still be part of a query, and only
// the incomplete node of each level is still accumulating, so the tree is stored as two vectors
// per level: O((m+1)·d) memory for 2^{m+1} − 1 logical nodes.
//
// Threading: a PrivateSum / TreeAccountant is owned by one algorithm instance; not thread-safe.
#pragma once

#include "dplab/privacy/accountant.h"
#include "dplab/privacy/rng.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace dplab {

/** The Laplace scale of paper 002 (Theorems 3.6/3.9, Appendix C), per coordinate:
 *  b = 6 √d (G + αR)(2 + log₂ T) / ε. With gradient clipping at C, pass G = C.
 *  REQUIRES: d ≥ 1, T ≥ 1, epsilon > 0. */
double treeNoiseScale(int d, double lipschitz, double alpha, double radius, long long horizon, double epsilon);

/** m = ⌈log₂ N⌉ for N leaves (0 when N ≤ 1): the tree has levels 0..m and 2^{m+1} − 1 nodes. */
int treeHeight(long long leaves);

/** Number of set bits of t: how many noised nodes the query after t leaves sums. */
int popcount64(unsigned long long t);

class PrivateSum
{
public:
    PrivateSum() = default;
    /** A tree for up to `capacity` leaves of dimension d whose nodes are noised with i.i.d.
     *  Laplace(0, scale) coordinates (scale 0: no noise, no draws): the NoiseStream keyed by the
     *  first word of `rng`, node (l, j) completed by leaf t = (j+1)·2^l taking block t·64 + l. */
    PrivateSum(int d, long long capacity, double scale, Rng rng);

    /** Adds leaf t = count() + 1 with value w and returns the private prefix sum v̂_t.
     *  REQUIRES: count() < capacity(), w.size() == d. Cost O(d · (trailing zeros of t + 1)) for
     *  the update plus O(d · popcount(t)) for the query; no allocation. */
    const Eigen::VectorXd &add(const Eigen::Ref<const Eigen::VectorXd> &w);

    /** v̂_t of the last add (zero before the first). */
    const Eigen::VectorXd &query() const { return mQuery; }
    /** The noise part of query(): the sum of the popcount(t) node noises it used. */
    const Eigen::VectorXd &queryNoise() const { return mQueryNoise; }

    long long count() const { return mCount; }
    long long capacity() const { return mCapacity; }
    /** Levels of the full tree, m + 1. */
    int levels() const { return mHeight + 1; }
    double scale() const { return mScale; }
    /** Noise vectors drawn so far (= nodes completed so far, 2t − popcount(t) after t leaves,
     *  when the scale is > 0). */
    long long noiseDraws() const { return mDraws; }
    /** Noised nodes the last query summed (popcount(t)). */
    int lastQueryTerms() const { return mLastTerms; }
    /** The noise of the most recently completed node at `level` (zero if none yet). */
    const Eigen::VectorXd &nodeNoise(int level) const { return mNoise[level]; }
    /** The noised value (sum of its leaves + its noise) of that node. */
    const Eigen::VectorXd &nodeValue(int level) const { return mNoisy[level]; }

private:
    int mHeight = 0;
    long long mCapacity = 0;
    long long mCount = 0;
    long long mDraws = 0;
    int mLastTerms = 0;
    double mScale = 0.0;
    NoiseStream mNoiseStream;
    std::vector<Eigen::VectorXd> mRaw;   ///< per level: running sum of the incomplete node
    std::vector<Eigen::VectorXd> mNoisy; ///< per level: last completed node, noised
    std::vector<Eigen::VectorXd> mNoise; ///< per level: the noise of that node
    Eigen::VectorXd mQuery, mQueryNoise;
};

/** The privacy accountant of paper 002's tree mechanism (Appendix C).
 *
 *  A changed loss f_{τ,j} changes only the leaf of its block and that leaf's ancestors, in every
 *  learner's tree; each such node position costs at most `epsilonPerLevel` summed over the n
 *  learners (the owning algorithm computes it from the sensitivity bound and the Laplace scale;
 *  with the paper's parameters it is ≤ ε/(2 + log₂ T)). After k leaves have been released the
 *  worst case is the first leaf, whose ⌊log₂ k⌋ + 1 ancestors are complete, so
 *      ε(k) = (⌊log₂ k⌋ + 1) · epsilonPerLevel,   ε(0) = 0,
 *  reported for every agent (the guarantee is joint over all learners' decisions). */
class TreeAccountant : public PrivacyAccountant
{
public:
    TreeAccountant(int agents, double epsilonPerLevel, std::string name, std::vector<std::string> assumptions);
    std::string name() const override { return mName; }
    const Eigen::VectorXd &epsilon() const override { return mEpsilon; }
    std::vector<std::string> assumptions() const override { return mAssumptions; }
    /** Records that every learner's tree has now k leaves. */
    void setLeaves(long long k);
    double epsilonPerLevel() const { return mPerLevel; }

private:
    std::string mName;
    std::vector<std::string> mAssumptions;
    double mPerLevel = 0.0;
    Eigen::VectorXd mEpsilon;
};

} // namespace dplab
