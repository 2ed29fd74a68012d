// SPDX-License-Identifier: GPL-3.0-or-later
// PrivateSum (paper 002 Algorithm 2, the binary tree mechanism) and its accountant.
#include "dplab/privacy/treeaggregation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace dplab {
namespace {

std::vector<Eigen::VectorXd> randomLeaves(int count, int d, std::uint64_t seed)
{
    Rng rng(seed);
    std::vector<Eigen::VectorXd> out;
    for (int t = 0; t < count; ++t) {
        Eigen::VectorXd w(d);
        for (int k = 0; k < d; ++k)
            w[k] = rng.gaussian();
        out.push_back(w);
    }
    return out;
}

TEST(TreeHeight, CeilLog2OfTheLeafCount)
{
    EXPECT_EQ(treeHeight(0), 0);
    EXPECT_EQ(treeHeight(1), 0);
    EXPECT_EQ(treeHeight(2), 1);
    EXPECT_EQ(treeHeight(3), 2);
    EXPECT_EQ(treeHeight(4), 2);
    EXPECT_EQ(treeHeight(5), 3);
    // The paper's examples: letter T/L − 1 = 2237 leaves → m = 12 (8191 nodes); poker 13512 → m = 14.
    EXPECT_EQ(treeHeight(2237), 12);
    EXPECT_EQ(treeHeight(13512), 14);
}

TEST(TreeNoiseScale, PaperFormulaByHand)
{
    // b = 6√d (G + αR)(2 + log₂T)/ε; the paper's example: d = 416, C = 1, T = 150000, ε = 10 → 234.9.
    EXPECT_NEAR(treeNoiseScale(416, 1.0, 0.0, 10.0, 150000, 10.0), 234.9, 0.05);
    EXPECT_NEAR(treeNoiseScale(100, 1.0, 0.0, 10.0, 1000000, 10.0), 131.6, 0.05);
    // α > 0 adds αR to G; T = 1024 gives 2 + log₂T = 12 exactly.
    EXPECT_DOUBLE_EQ(treeNoiseScale(4, 1.0, 0.5, 2.0, 1024, 3.0), 6.0 * 2.0 * 2.0 * 12.0 / 3.0);
}

TEST(PrivateSum, WithoutNoiseReturnsExactPrefixSums)
{
    const int d = 3, count = 37;
    const auto leaves = randomLeaves(count, d, 1);
    PrivateSum tree(d, count, 0.0, Rng(1));
    Eigen::VectorXd prefix = Eigen::VectorXd::Zero(d);
    for (int t = 1; t <= count; ++t) {
        prefix += leaves[t - 1];
        const Eigen::VectorXd &v = tree.add(leaves[t - 1]);
        EXPECT_LE((v - prefix).cwiseAbs().maxCoeff(), 1e-12) << "t = " << t;
        EXPECT_EQ(tree.lastQueryTerms(), popcount64(t));
    }
    EXPECT_EQ(tree.noiseDraws(), 0);
    EXPECT_EQ(tree.levels(), 7); // ⌈log₂ 37⌉ + 1
}

TEST(PrivateSum, EachNodeIsNoisedOnceAndQueriesUsePopcountNodes)
{
    const int d = 2, count = 64;
    const auto leaves = randomLeaves(count, d, 2);
    PrivateSum tree(d, count, 1.5, Rng(7));
    Eigen::VectorXd prefix = Eigen::VectorXd::Zero(d);
    // The noise each node got when it completed, keyed by (level, index).
    std::map<std::pair<int, long long>, Eigen::VectorXd> noiseAtCompletion;
    for (long long t = 1; t <= count; ++t) {
        prefix += leaves[t - 1];
        const Eigen::VectorXd v = tree.add(leaves[t - 1]);
        // Nodes completed by leaf t: levels 0 .. trailing zeros of t; each got its noise now.
        for (int l = 0; l < tree.levels() && t % (1LL << l) == 0; ++l) {
            const auto key = std::make_pair(l, (t >> l) - 1);
            EXPECT_EQ(noiseAtCompletion.count(key), 0u) << "node noised twice";
            noiseAtCompletion[key] = tree.nodeNoise(l);
        }
        // Completed nodes so far: Σ_l ⌊t/2^l⌋ = 2t − popcount(t), one draw each.
        EXPECT_EQ(tree.noiseDraws(), 2 * t - popcount64(t));
        EXPECT_EQ(static_cast<long long>(noiseAtCompletion.size()), tree.noiseDraws());
        // The query is the prefix sum plus the noises of the dyadic decomposition of [1, t],
        // exactly popcount(t) of them, each the noise its node got at completion (reused).
        EXPECT_EQ(tree.lastQueryTerms(), popcount64(t));
        Eigen::VectorXd expectedNoise = Eigen::VectorXd::Zero(d);
        int terms = 0;
        for (int l = 0; l < tree.levels(); ++l)
            if ((t >> l) & 1) {
                expectedNoise += noiseAtCompletion.at({l, (t >> l) - 1});
                ++terms;
            }
        EXPECT_EQ(terms, popcount64(t));
        EXPECT_LE((tree.queryNoise() - expectedNoise).cwiseAbs().maxCoeff(), 1e-12);
        EXPECT_LE((v - prefix - expectedNoise).cwiseAbs().maxCoeff(), 1e-10);
    }
}

TEST(PrivateSum, MatchesAFullTreeBuiltByHand)
{
    // A literal tree: every node (l, j) stores Σ of its leaves; a node's Laplace vector is drawn
    // when its last leaf arrives (block t·64 + l of the tree's noise stream); the query
    // sums the maximal complete nodes.
    const int d = 2, count = 23, height = treeHeight(count);
    const double scale = 0.7;
    const auto leaves = randomLeaves(count, d, 3);
    PrivateSum tree(d, count, scale, Rng(11));
    // The tree's noise: the NoiseStream keyed by the first word of Rng(11), node (l, j) completed
    // by leaf t taking block t·64 + l (a function of the node only).
    const NoiseStream reference(Rng(11).next());
    std::map<std::pair<int, int>, Eigen::VectorXd> sum, noise;
    for (int t = 1; t <= count; ++t) {
        for (int l = 0; l <= height; ++l) {
            const int j = (t - 1) >> l;
            auto &s = sum[{l, j}];
            if (s.size() == 0)
                s = Eigen::VectorXd::Zero(d);
            s += leaves[t - 1];
            if (t % (1 << l) == 0) {
                Eigen::VectorXd b(d);
                reference.laplace(static_cast<std::uint64_t>(t) * 64 + static_cast<std::uint64_t>(l), scale, b);
                noise[{l, j}] = b;
            }
        }
        // Maximal complete nodes: greedy dyadic cover of [1, t] from the left.
        Eigen::VectorXd expected = Eigen::VectorXd::Zero(d);
        int covered = 0;
        for (int l = height; l >= 0; --l)
            if (covered + (1 << l) <= t) {
                const int j = covered >> l;
                expected += sum[{l, j}] + noise[{l, j}];
                covered += 1 << l;
            }
        EXPECT_EQ(covered, t);
        EXPECT_LE((tree.add(leaves[t - 1]) - expected).cwiseAbs().maxCoeff(), 1e-10) << "t = " << t;
    }
}

TEST(PrivateSum, NodeNoiseHasTheLaplaceScale)
{
    // E|X| = b and Var X = 2b² for Lap(0, b): checked on 4096 leaf nodes × 8 coordinates.
    const int d = 8, count = 4096;
    const double scale = 2.0;
    PrivateSum tree(d, count, scale, Rng(5));
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(d);
    double absSum = 0.0, sqSum = 0.0;
    for (int t = 0; t < count; ++t) {
        tree.add(zero);
        absSum += tree.nodeNoise(0).cwiseAbs().sum();
        sqSum += tree.nodeNoise(0).squaredNorm();
    }
    const double samples = static_cast<double>(count) * d;
    EXPECT_NEAR(absSum / samples, scale, 0.03 * scale);
    EXPECT_NEAR(sqSum / samples, 2.0 * scale * scale, 0.06 * 2.0 * scale * scale);
}

TEST(TreeAccountant, StaircaseAndTotalWithinTarget)
{
    // Per-level cost ε/(2 + log₂T): after k leaves ε(k) = (⌊log₂k⌋ + 1)·ε/(2 + log₂T), and with
    // all T/L − 1 leaves the total stays ≤ ε for every block size.
    const double epsilon = 10.0;
    for (long long horizon : {100LL, 1000LL, 150000LL}) {
        const double perLevel = epsilon / (2.0 + std::log2(static_cast<double>(horizon)));
        for (long long block : {1LL, 3LL, 67LL}) {
            const long long leaves = horizon / block - 1;
            if (leaves < 1)
                continue;
            TreeAccountant accountant(4, perLevel, "tree", {});
            EXPECT_EQ(accountant.epsilon().maxCoeff(), 0.0);
            double previous = 0.0;
            for (long long k = 1; k <= leaves; ++k) {
                accountant.setLeaves(k);
                const double e = accountant.epsilon()[2];
                EXPECT_DOUBLE_EQ(e, perLevel * (std::floor(std::log2(static_cast<double>(k))) + 1.0));
                EXPECT_GE(e, previous);
                EXPECT_LE(e, epsilon);
                previous = e;
            }
            EXPECT_DOUBLE_EQ(previous, perLevel * (treeHeight(leaves) + (leaves == (1LL << treeHeight(leaves)) ? 1 : 0)));
        }
    }
}

} // namespace
} // namespace dplab
