// SPDX-License-Identifier: GPL-3.0-or-later
//
// The run-time dispatched kernels: every level this CPU has (AVX2, AVX-512) gives the bytes of the
// SSE2 version on the same input (skipped, with a message, on a CPU with SSE2 only), all agree
// with a plain scalar reference to rounding, the logistic pass gives the bytes of its documented
// order and the product those of Eigen's.
#include "dplab/common/simd.h"
#include "dplab/problem/kernels.h"

#include <Eigen/Core>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#pragma GCC diagnostic ignored "-Wpsabi"

using namespace dplab;

namespace {

struct Case {
    std::ptrdiff_t rows, cols;
    double spread; ///< feature scale: large values drive the margins into exp's underflow range
};

struct Data {
    std::vector<double> X, y, theta;
};

Data makeData(const Case &c, unsigned seed)
{
    std::mt19937_64 gen(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    Data d;
    d.X.resize(static_cast<std::size_t>(c.rows * c.cols));
    for (double &v : d.X)
        v = c.spread * normal(gen);
    d.y.resize(static_cast<std::size_t>(c.rows));
    for (double &v : d.y)
        v = normal(gen) >= 0.0 ? 1.0 : -1.0;
    d.theta.resize(static_cast<std::size_t>(c.cols));
    for (double &v : d.theta)
        v = normal(gen);
    return d;
}

struct Result {
    kernels::LogisticPass pass;
    std::vector<double> grad;
};

Result run(const Data &d, const Case &c, kernels::Isa isa)
{
    Result r;
    r.grad.assign(static_cast<std::size_t>(c.cols), 0.25); // accumulates onto what is there
    r.pass = kernels::logisticPass(d.X.data(), d.y.data(), c.rows, c.cols, d.theta.data(), 0.125,
                                   r.grad.data(), true, true, isa);
    return r;
}

bool sameBytes(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

const Case kCases[] = {{1, 1, 1.0},  {3, 5, 1.0},    {4, 4, 1.0},   {7, 10, 1.0},  {200, 10, 1.0},
                       {100, 112, 1.0}, {50, 100, 1.0}, {20, 1000, 0.3}, {33, 17, 300.0}, {9, 64, 40.0},
                       {13, 9, 1.0},  {17, 12, 2.0}};

/** Every level this CPU can run. */
std::vector<kernels::Isa> levels()
{
    std::vector<kernels::Isa> out;
    for (kernels::Isa isa : {kernels::Isa::Sse2, kernels::Isa::Avx2, kernels::Isa::Avx512})
        if (simd::usableIsa(isa) == isa)
            out.push_back(isa);
    return out;
}

} // namespace

TEST(Kernels, LogisticPassEveryLevelGivesTheBytesOfSse2)
{
    if (levels().size() < 2)
        GTEST_SKIP() << "this CPU has no AVX2: only the SSE2 version can run here";
    for (kernels::Isa isa : levels()) {
        if (isa == kernels::Isa::Sse2)
            continue;
        for (const Case &c : kCases) {
            const Data d = makeData(c, 17u + static_cast<unsigned>(c.rows * 31 + c.cols));
            const Result sse2 = run(d, c, kernels::Isa::Sse2);
            const Result got = run(d, c, isa);
            SCOPED_TRACE(testing::Message() << c.rows << " × " << c.cols << ", spread " << c.spread << ", "
                                            << simd::isaName(isa));
            EXPECT_TRUE(sameBytes(sse2.pass.loss, got.pass.loss)) << sse2.pass.loss << " vs " << got.pass.loss;
            EXPECT_EQ(sse2.pass.correct, got.pass.correct);
            ASSERT_EQ(sse2.grad.size(), got.grad.size());
            for (std::size_t j = 0; j < sse2.grad.size(); ++j)
                ASSERT_TRUE(sameBytes(sse2.grad[j], got.grad[j])) << "coordinate " << j;
        }
    }
}

TEST(Kernels, LogisticPassAgreesWithAScalarReference)
{
    for (kernels::Isa isa : levels()) {
        for (const Case &c : kCases) {
            const Data d = makeData(c, 5u + static_cast<unsigned>(c.rows + c.cols));
            const Result got = run(d, c, isa);
            long double loss = 0.0L;
            std::ptrdiff_t correct = 0;
            std::vector<long double> grad(static_cast<std::size_t>(c.cols), 0.25L);
            for (std::ptrdiff_t k = 0; k < c.rows; ++k) {
                long double z = 0.0L;
                for (std::ptrdiff_t j = 0; j < c.cols; ++j)
                    z += static_cast<long double>(d.X[k * c.cols + j]) * d.theta[j];
                const long double u = -d.y[k] * z;
                loss += u > 0 ? u + std::log1p(std::exp(-u)) : std::log1p(std::exp(u));
                correct += (z >= 0 ? 1.0 : -1.0) == d.y[k];
                const long double s = 1.0L / (1.0L + std::exp(-u));
                for (std::ptrdiff_t j = 0; j < c.cols; ++j)
                    grad[j] += -d.y[k] * s * 0.125L * d.X[k * c.cols + j];
            }
            SCOPED_TRACE(testing::Message() << c.rows << " × " << c.cols << ", spread " << c.spread);
            // The dot products are summed in another order than the reference's: allow for the
            // cancellation in z (relative to Σ|x_j θ_j|), amplified by the loss's slope ≤ 1.
            const double tol = 1e-12 * c.spread * static_cast<double>(c.cols) * static_cast<double>(c.rows);
            EXPECT_NEAR(got.pass.loss, static_cast<double>(loss), tol + 1e-13 * std::abs(static_cast<double>(loss)));
            EXPECT_EQ(got.pass.correct, correct);
            for (std::size_t j = 0; j < grad.size(); ++j)
                ASSERT_NEAR(got.grad[j], static_cast<double>(grad[j]), tol * c.spread) << "coordinate " << j;
        }
    }
}

/** The documented order of operations, one row and one lane at a time: lane l of the dot product
 *  sums the columns j ≡ l (mod 4) in order, the lanes as (l0 + l1) + (l2 + l3), then the leftover
 *  columns in order; σ and softplus from simd.h's e^x and log1p; each gradient coordinate and the
 *  loss summed over the rows in order. The kernel must give these bytes whatever its blocking and
 *  grouping of rows (the schedule may change, the arithmetic may not). */
Result documentedOrder(const Data &d, const Case &c)
{
    Result r;
    r.grad.assign(static_cast<std::size_t>(c.cols), 0.25);
    const std::ptrdiff_t vcols = c.cols & ~std::ptrdiff_t(3);
    for (std::ptrdiff_t k = 0; k < c.rows; ++k) {
        const double *x = d.X.data() + k * c.cols;
        double lane[4] = {0.0, 0.0, 0.0, 0.0};
        for (std::ptrdiff_t j = 0; j < vcols; ++j)
            lane[j % 4] += x[j] * d.theta[static_cast<std::size_t>(j)];
        double z = (lane[0] + lane[1]) + (lane[2] + lane[3]);
        for (std::ptrdiff_t j = vcols; j < c.cols; ++j)
            z += x[j] * d.theta[static_cast<std::size_t>(j)];
        const double y = d.y[static_cast<std::size_t>(k)];
        r.pass.correct += (z >= 0.0 ? 1.0 : -1.0) == y;
        const double u = -(y * z);
        const double e = simd::expNonPositive(simd::splat(-std::abs(u)))[0];
        r.pass.loss += (u > 0.0 ? u : 0.0) + simd::log1pUnit(simd::splat(e))[0];
        const double s = (u >= 0.0 ? 1.0 : e) / (1.0 + e);
        const double coefficient = -(y * s) * 0.125;
        for (std::ptrdiff_t j = 0; j < c.cols; ++j)
            r.grad[static_cast<std::size_t>(j)] += coefficient * x[j];
    }
    return r;
}

TEST(Kernels, LogisticPassGivesTheBytesOfTheDocumentedOrder)
{
#if defined(__FMA__)
    GTEST_SKIP() << "built with FMA (-DDPLAB_NATIVE=ON): the reference's a·b + c may be contracted, the kernel's never";
#endif
    // Shapes around the block (up to 128 rows) and group (8 rows) boundaries and every cols mod 4.
    std::vector<Case> cases(std::begin(kCases), std::end(kCases));
    for (std::ptrdiff_t rows : {8, 9, 127, 128, 129, 300})
        for (std::ptrdiff_t cols : {2, 6, 10, 33, 35, 112, 113})
            cases.push_back({rows, cols, cols == 35 ? 200.0 : 1.0});
    for (kernels::Isa isa : levels()) {
        for (const Case &c : cases) {
            const Data d = makeData(c, 11u + static_cast<unsigned>(c.rows * 7 + c.cols));
            const Result got = run(d, c, isa);
            const Result want = documentedOrder(d, c);
            SCOPED_TRACE(testing::Message() << c.rows << " × " << c.cols << ", spread " << c.spread << ", "
                                            << simd::isaName(isa));
            EXPECT_TRUE(sameBytes(got.pass.loss, want.pass.loss)) << got.pass.loss << " vs " << want.pass.loss;
            EXPECT_EQ(got.pass.correct, want.pass.correct);
            for (std::size_t j = 0; j < want.grad.size(); ++j)
                ASSERT_TRUE(sameBytes(got.grad[j], want.grad[j])) << "coordinate " << j;
        }
    }
}

TEST(Kernels, ProductInEigenOrderGivesEigensBytes)
{
#if defined(__AVX__) || defined(__FMA__)
    GTEST_SKIP() << "built for AVX or FMA (-DDPLAB_NATIVE=ON): Eigen's product then has another order";
#endif
    // Every shape class of Eigen's blocked product: two-packet, one-packet and scalar rows, full
    // and partial panels of columns, depths below, at and above the peeling by eight; zeros and
    // −0 among the terms; strided A, B and C. Shapes where Eigen takes another path are refused.
    std::mt19937_64 gen(9);
    std::normal_distribution<double> normal(0.0, 1.0);
    int used = 0;
    for (int m = 1; m <= 19; ++m)
        for (int k : {1, 2, 6, 7, 8, 9, 10, 15, 16, 17, 33, 64, 100})
            for (int n : {1, 2, 3, 4, 5, 9, 10, 13, 64, 112, 640}) {
                Eigen::MatrixXd A(m + 3, k), B(k + 2, n), got = Eigen::MatrixXd::Constant(m + 1, n, 42.0);
                for (Eigen::Index i = 0; i < A.size(); ++i)
                    A.data()[i] = gen() % 7 == 0 ? 0.0 : normal(gen);
                for (Eigen::Index i = 0; i < B.size(); ++i)
                    B.data()[i] = gen() % 7 == 0 ? -0.0 : normal(gen);
                Eigen::MatrixXd want(m + 1, n);
                want.topRows(m).noalias() = A.topRows(m) * B.topRows(k);
                for (kernels::Isa isa : levels()) {
                    const bool done = kernels::productInEigenOrder(A.data(), A.outerStride(), B.data(), B.outerStride(),
                                                                   got.data(), got.outerStride(), m, k, n, isa);
                    EXPECT_EQ(done, m >= 2 && n >= 2 && k + m + n >= 20) << m << " × " << k << " × " << n;
                    if (!done)
                        continue;
                    ++used;
                    for (Eigen::Index c = 0; c < n; ++c)
                        ASSERT_EQ(std::memcmp(&got(0, c), &want(0, c), sizeof(double) * static_cast<std::size_t>(m)), 0)
                            << m << " × " << k << " × " << n << ", column " << c;
                    for (Eigen::Index c = 0; c < n; ++c)
                        ASSERT_EQ(got(m, c), 42.0) << "wrote below the block";
                }
            }
    EXPECT_GT(used, 1000);
}

TEST(Kernels, ExpAndLogMatchLibmToAboutAnUlp)
{
    const double xs[] = {0.0, -1e-300, -1e-17, -0.3, -0.5 * std::log(2.0), -1.0, -7.25, -100.0,
                         -700.0, -708.5, -740.0, -745.0, -745.2, -800.0};
    for (double x : xs) {
        const simd::V4d e = simd::expNonPositive(simd::splat(x));
        const double want = std::exp(x);
        EXPECT_NEAR(e[0], want, 2.5e-16 * want + 1e-323) << "exp(" << x << ")";
    }
    EXPECT_TRUE(std::isnan(simd::expNonPositive(simd::splat(std::numeric_limits<double>::quiet_NaN()))[0]));
    EXPECT_EQ(simd::expNonPositive(simd::splat(-std::numeric_limits<double>::infinity()))[0], 0.0);
    for (double e : {0.0, 1e-300, 1e-17, 1e-9, 0.01, 0.25, 0.5, 0.999, 1.0}) {
        const double got = simd::log1pUnit(simd::splat(e))[0];
        EXPECT_NEAR(got, std::log1p(e), 2.5e-16 * std::log1p(e) + 1e-323) << "log1p(" << e << ")";
    }
}

TEST(Kernels, ElementwiseExpAndLog1pEveryLevelGivesTheBytesOfSse2)
{
    if (levels().size() < 2)
        GTEST_SKIP() << "this CPU has no AVX2: only the SSE2 version can run here";
    std::mt19937_64 gen(3);
    std::normal_distribution<double> normal(0.0, 30.0);
    for (std::ptrdiff_t size : {1, 3, 4, 5, 7, 8, 9, 15, 16, 37, 1000}) {
        std::vector<double> z(static_cast<std::size_t>(size));
        for (double &v : z)
            v = normal(gen);
        z[0] = -800.0; // saturated: e^x is +0
        std::vector<double> a(z.size()), b(z.size());
        kernels::expMinusAbs(z.data(), a.data(), size, kernels::Isa::Sse2);
        for (std::size_t k = 0; k < z.size(); ++k)
            ASSERT_NEAR(a[k], std::exp(-std::abs(z[k])), 2.5e-16 * a[k] + 1e-323);
        for (kernels::Isa isa : levels()) {
            SCOPED_TRACE(testing::Message() << "size " << size << ", " << simd::isaName(isa));
            kernels::expMinusAbs(z.data(), b.data(), size, isa);
            ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << "exp";
            std::vector<double> a1 = a;
            kernels::log1pUnitInPlace(a1.data(), size, kernels::Isa::Sse2);
            kernels::log1pUnitInPlace(b.data(), size, isa);
            ASSERT_EQ(std::memcmp(a1.data(), b.data(), a.size() * sizeof(double)), 0) << "log1p";
        }
    }
}
