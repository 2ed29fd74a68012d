// SPDX-License-Identifier: GPL-3.0-or-later
//
// The dispatched sparse mixing kernel (dplab/algo/mixkernel.h): the SSE2 and the AVX2 version give
// identical bytes, and both give the bytes of the Eigen product they replace in Mixer::mix
// (`out = offDiagonal * sent; out += diag(W) own`), for sparse weights with empty rows, any
// number of columns (8-, 4- and 1-column blocks) and blocks with an outer stride.
#include "dplab/algo/mixing.h"
#include "dplab/algo/mixkernel.h"

#include <gtest/gtest.h>

#include <Eigen/SparseCore>

#include <cstring>
#include <random>
#include <vector>

using namespace dplab;

namespace {

/** A random n × n weight matrix with about `perRow` off-diagonal non-zeros a row, some rows
 *  without any, and a few values that make products of ±0 (so the +0 start of each sum shows). */
Eigen::MatrixXd randomWeights(int n, int perRow, unsigned seed)
{
    std::mt19937_64 gen(seed);
    std::uniform_int_distribution<int> pick(0, n - 1);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    Eigen::MatrixXd w = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i) {
        w(i, i) = value(gen);
        if (i % 7 == 3)
            continue; // no in-neighbour
        for (int k = 0; k < perRow; ++k) {
            const int j = pick(gen);
            if (j != i)
                w(i, j) = (k == 0 && i % 5 == 0) ? -1e-300 : value(gen);
        }
    }
    return w;
}

Eigen::MatrixXd randomState(int rows, int cols, unsigned seed)
{
    std::mt19937_64 gen(seed);
    std::normal_distribution<double> normal(0.0, 1e3);
    Eigen::MatrixXd x(rows, cols);
    for (Eigen::Index k = 0; k < x.size(); ++k)
        x.data()[k] = normal(gen);
    x(0, 0) = 1e-300; // its product with −1e-300 rounds to −0
    return x;
}

bool sameBytes(const Eigen::Ref<const Eigen::MatrixXd> &a, const Eigen::Ref<const Eigen::MatrixXd> &b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return false;
    for (Eigen::Index c = 0; c < a.cols(); ++c)
        for (Eigen::Index i = 0; i < a.rows(); ++i) {
            const double x = a(i, c), y = b(i, c);
            if (std::memcmp(&x, &y, sizeof x) != 0)
                return false;
        }
    return true;
}

struct Shape {
    int n, perRow, cols;
};

const Shape kShapes[] = {{1, 0, 1},  {5, 2, 1},   {6, 3, 3},   {10, 4, 4},  {13, 5, 5},
                         {40, 6, 8}, {50, 3, 13}, {64, 10, 20}, {200, 10, 100}, {300, 12, 37}};

/** The kernel on `isa`, with own, sent and out as blocks of larger matrices (outer stride ≠ rows). */
Eigen::MatrixXd runKernel(const Mixer &mixer, const Eigen::MatrixXd &own, const Eigen::MatrixXd &sent, simd::Isa isa)
{
    const Eigen::Index n = own.rows(), d = own.cols();
    Eigen::MatrixXd ownBig = Eigen::MatrixXd::Constant(n + 3, d, 7.0), sentBig = Eigen::MatrixXd::Constant(n + 5, d, 9.0);
    ownBig.topRows(n) = own;
    sentBig.bottomRows(n) = sent;
    Eigen::MatrixXd outBig = Eigen::MatrixXd::Constant(n + 2, d, -5.0);
    const auto &off = mixer.offDiagonal();
    const kernels::SparseRows rows{off.rows(), off.outerIndexPtr(), off.innerIndexPtr(), off.valuePtr()};
    kernels::sparseMix(rows, mixer.diagonal().data(), {ownBig.data(), ownBig.outerStride()},
                       {sentBig.data() + 5, sentBig.outerStride()}, d, outBig.data() + 1, outBig.outerStride(), isa);
    EXPECT_TRUE((outBig.row(0).array() == -5.0).all() && (outBig.row(n + 1).array() == -5.0).all())
        << "the kernel wrote outside its block";
    return outBig.middleRows(1, n);
}

} // namespace

TEST(MixKernel, EveryLevelGivesTheBytesOfSse2)
{
    if (!simd::cpuHasAvx2())
        GTEST_SKIP() << "this CPU has no AVX2: only the SSE2 version can run here";
    // (AVX-512 runs the AVX2 version: dplab/algo/mixkernel.h.)
    for (simd::Isa isa : {simd::Isa::Avx2, simd::Isa::Avx512}) {
        for (const Shape &s : kShapes) {
            SCOPED_TRACE(testing::Message() << "n " << s.n << ", " << s.perRow << " a row, " << s.cols << " columns, "
                                            << simd::isaName(isa));
            const Mixer mixer(randomWeights(s.n, s.perRow, 11u + static_cast<unsigned>(s.n)));
            const Eigen::MatrixXd own = randomState(s.n, s.cols, 1u), sent = randomState(s.n, s.cols, 2u);
            EXPECT_TRUE(sameBytes(runKernel(mixer, own, sent, simd::Isa::Sse2), runKernel(mixer, own, sent, isa)));
        }
    }
}

TEST(MixKernel, GivesTheBytesOfEigensSparseProduct)
{
#if defined(__FMA__)
    GTEST_SKIP() << "built with FMA (-DDPLAB_NATIVE=ON): Eigen's scalar loop may contract a·b + c, the kernel never does";
#endif
    for (simd::Isa isa : {simd::Isa::Sse2, simd::Isa::Avx2}) {
        if (isa == simd::Isa::Avx2 && !simd::cpuHasAvx2())
            continue;
        for (const Shape &s : kShapes) {
            SCOPED_TRACE(testing::Message() << "n " << s.n << ", " << s.perRow << " a row, " << s.cols << " columns");
            const Eigen::MatrixXd w = randomWeights(s.n, s.perRow, 23u + static_cast<unsigned>(s.cols));
            const Mixer mixer(w);
            const Eigen::MatrixXd own = randomState(s.n, s.cols, 3u), sent = randomState(s.n, s.cols, 4u);
            // The product Mixer::mix computed before the kernel, in Eigen.
            Eigen::MatrixXd want(s.n, s.cols);
            want.noalias() = mixer.offDiagonal() * sent;
            want += mixer.diagonal().asDiagonal() * own;
            EXPECT_TRUE(sameBytes(runKernel(mixer, own, sent, isa), want));
            if (!mixer.dense()) {
                Eigen::MatrixXd got(s.n, s.cols);
                mixer.mix(own, sent, got);
                EXPECT_TRUE(sameBytes(got, want)) << "through Mixer::mix";
            }
        }
    }
}
