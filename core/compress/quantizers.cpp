// SPDX-License-Identifier: GPL-3.0-or-later
//
// The quantizers: paper 001's dithered b-bit quantizer (C2) and norm-sign compressor (C3),
// QSGD with s levels, and the scaled sign of EF-SignSGD.
//
// Constants of paper 001's Assumption 5, E‖C(x)/r − x‖² ≤ (1 − φ)‖x‖² (derivations next to each
// class), with ω_s(d) = min(d/s², √d/s):
//
//   compressor          φ                                 r      bits per message
//   dithered-quantizer  1/ξ, ξ = 1 + ω_s(d), s = 2^(b−1)  1      32 + d·(b + 1)
//   qsgd                1/ξ, ξ = 1 + ω_s(d)               ξ      32 + d·(1 + ⌈log2(s + 1)⌉)
//   norm-sign           1/d²                              d/2    32 + d
//   sign                1/d                               1      32 + d
//
// Bits: one 32-bit real (the scale: ‖x‖, ‖x‖_∞ or ‖x‖₁/d) plus, per coordinate, one sign bit
// and, for the level quantizers, a fixed-length level code (no entropy coding). sign(0) = 0 as
// in the paper; a coordinate that is exactly 0 (probability zero once Laplace noise has been
// added) is still charged one sign bit (the count never depends on the values).
//
// Random draws: the level quantizers draw exactly d numbers rng.uniform01() per message, in
// coordinate order, whatever x is (also for x = 0), so a stream advances by the same amount for
// every message. norm-sign and sign draw nothing.
//
// Aliasing: `out` may be the same vector as `x` (the norms are computed before any write, and
// out_i depends only on x_i and the norms).
#include "compress/builtin.h"

#include <algorithm>
#include <cmath>

namespace dplab {

namespace {

constexpr long long kMaxBits = 30;       // b ≤ 30: 2^29 + 1 levels, exact in a double
constexpr long long kMaxLevels = 1LL << 30;

double signOf(double v)
{
    return static_cast<double>((v > 0.0) - (v < 0.0));
}

/** out = c · sign(x) (the message of norm-sign and sign; c is computed from x before any write,
 *  so out may alias x). Bits: 32 for c plus one sign bit per coordinate = 32 + d. */
std::uint64_t scaledSign(const Eigen::Ref<const Eigen::VectorXd> &x,
                         Eigen::Ref<Eigen::VectorXd> out, double c)
{
    for (Eigen::Index i = 0; i < x.size(); ++i)
        out[i] = c * signOf(x[i]);
    return kValueBits + static_cast<std::uint64_t>(x.size());
}

/** ω_s(d) = min(d/s², √d/s): the variance bound of s-level stochastic rounding,
 *  E‖Q(x) − x‖² ≤ ω‖x‖² (Alistarh et al. 2017, Lemma 3.1; Koloskova et al. 2020). */
double roundingVariance(double s, int d)
{
    assert(d >= 1 && "d must be at least 1");
    return std::min(d / (s * s), std::sqrt(static_cast<double>(d)) / s);
}

/** s-level stochastic rounding of x/‖x‖ (the shared core of C2 and QSGD):
 *      out_i = factor · ‖x‖ · sign(x_i) · ℓ_i / s,   ℓ_i = min(⌊s|x_i|/‖x‖ + u_i⌋, s),
 *  u_i = rng.uniform01() drawn for i = 0, …, d−1 in order (d draws, also when x = 0).
 *  Since u_i is uniform, ℓ_i = ⌊a_i⌋ + 1 with probability frac(a_i) and ⌊a_i⌋ otherwise
 *  (a_i = s|x_i|/‖x‖ ∈ [0, s]), so E ℓ_i = a_i and E out = factor · x. The clamp at s only
 *  guards against round-off in a_i + u_i; mathematically ℓ_i ≤ s already. */
void stochasticRound(const Eigen::Ref<const Eigen::VectorXd> &x, Eigen::Ref<Eigen::VectorXd> out,
                     Rng &rng, double s, double factor)
{
    const double norm = x.norm();
    const double scale = factor * norm / s;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double u = rng.uniform01();
        if (norm == 0.0) {
            out[i] = 0.0;
            continue;
        }
        const double a = s * std::abs(x[i]) / norm;
        const double level = std::min(std::floor(a + u), s);
        out[i] = scale * signOf(x[i]) * level;
    }
}

/** Bits of a level-quantized message: 32 for the norm, then per coordinate one sign bit and a
 *  fixed-length code for one of the s + 1 levels {0, …, s}. */
std::uint64_t levelMessageBits(Eigen::Index d, long long s)
{
    const std::uint64_t levelBits = compressorCeilLog2(static_cast<std::uint64_t>(s) + 1);
    return kValueBits + static_cast<std::uint64_t>(d) * (1 + levelBits);
}

// --- dithered-quantizer (C2) -----------------------------------------------------------------

/** Paper 001's biased b-bit quantizer C2 (Koloskova et al. [31]):
 *      C2(x) = (‖x‖/ξ) · sign(x) · 2^{−(b−1)} ∘ ⌊2^{b−1}|x|/‖x‖ + u⌋,
 *      ξ = 1 + min{d/2^{2(b−1)}, √d/2^{b−1}},   u ~ U[0,1]^d fresh per call,   C2(0) = 0.
 *
 *  With s = 2^{b−1}, C2 = Q/ξ where Q(x) = ‖x‖ sign(x) ℓ/s is s-level stochastic rounding
 *  (unbiased, E‖Q(x) − x‖² ≤ ω‖x‖², ω = ξ − 1; see stochasticRound and QsgdCompressor).
 *  Assumption 5 with r = 1: using E Q = x and E‖Q‖² = ‖x‖² + E‖Q − x‖² ≤ ξ‖x‖²,
 *      E‖Q/ξ − x‖² = E‖Q‖²/ξ² − 2‖x‖²/ξ + ‖x‖² ≤ (1/ξ − 2/ξ + 1)‖x‖² = (1 − 1/ξ)‖x‖²,
 *  so (φ, r) = (1/ξ, 1), as spec note §3.2 says (d = 10, b = 2: ξ = 2.5811, φ ≈ 0.387).
 *
 *  Levels: a_i = s|x_i|/‖x‖ ∈ [0, s] and u_i < 1, so ℓ_i ∈ {0, 1, …, s}: 2^{b−1} + 1 levels
 *  (b = 2: {0, 1, 2}), coded in ⌈log2(2^{b−1} + 1)⌉ = b bits, plus one sign bit per
 *  coordinate and 32 bits for ‖x‖: bits = 32 + d·(b + 1).
 *
 *  Cost O(d), d uniform draws. */
class DitheredQuantizer final : public Compressor
{
public:
    explicit DitheredQuantizer(long long b) : mB(b), mLevels(1LL << (b - 1)) {}

    std::string id() const override { return "dithered-quantizer"; }

    std::uint64_t compress(const Eigen::Ref<const Eigen::VectorXd> &x,
                           Eigen::Ref<Eigen::VectorXd> out, Rng &rng) const override
    {
        compressorCheckSizes(x, out);
        const auto d = static_cast<int>(x.size());
        stochasticRound(x, out, rng, static_cast<double>(mLevels), 1.0 / xi(d));
        return levelMessageBits(x.size(), mLevels);
    }
    double phi(int d) const override { return 1.0 / xi(d); }
    double r(int) const override { return 1.0; }
    bool isRandom() const override { return true; }
    Json toJson() const override { return compressorSpecJson(id(), Json{{"b", mB}}); }

private:
    double xi(int d) const { return 1.0 + roundingVariance(static_cast<double>(mLevels), d); }

    long long mB;
    long long mLevels; // s = 2^{b−1}
};

// --- qsgd ------------------------------------------------------------------------------------

/** QSGD with s levels (Alistarh et al. 2017): Q(x) = ‖x‖ sign(x) ℓ/s with ℓ the unbiased
 *  stochastic rounding of s|x|/‖x‖ (stochasticRound with factor 1); Q(0) = 0.
 *
 *  Unbiased, with E‖Q(x) − x‖² = (‖x‖²/s²) Σ_i p_i(1 − p_i), p_i = frac(a_i), which is at most
 *  ω‖x‖², ω = min(d/s², √d/s) (Alistarh et al., Lemma 3.1: p(1−p) ≤ 1/4 gives d/(4s²) ≤ d/s²,
 *  and p(1−p) ≤ min(1/4, a_i) ≤ a_i with Σ a_i = s‖x‖₁/‖x‖ ≤ s√d gives √d/s). The published ω
 *  is used, so that QSGD with s = 2^{b−1} is exactly ξ·C2 with the same ξ.
 *  Assumption 5 for any unbiased C with variance ω‖x‖²: for r > 0,
 *      E‖C(x)/r − x‖² = E‖C‖²/r² − 2‖x‖²/r + ‖x‖² ≤ ((1 + ω)/r² − 2/r + 1)‖x‖²,
 *  minimised at r = 1 + ω with value (1 − 1/(1 + ω))‖x‖²  ⇒  (φ, r) = (1/(1 + ω), 1 + ω).
 *
 *  Bits: 32 for ‖x‖ + d·(1 sign bit + ⌈log2(s + 1)⌉ level bits), fixed-length codes (QSGD's
 *  Elias coding would be shorter for sparse level vectors; not modelled).
 *
 *  Cost O(d), d uniform draws. */
class QsgdCompressor final : public Compressor
{
public:
    explicit QsgdCompressor(long long s) : mS(s) {}

    std::string id() const override { return "qsgd"; }

    std::uint64_t compress(const Eigen::Ref<const Eigen::VectorXd> &x,
                           Eigen::Ref<Eigen::VectorXd> out, Rng &rng) const override
    {
        compressorCheckSizes(x, out);
        stochasticRound(x, out, rng, static_cast<double>(mS), 1.0);
        return levelMessageBits(x.size(), mS);
    }
    double phi(int d) const override { return 1.0 / r(d); }
    double r(int d) const override { return 1.0 + roundingVariance(static_cast<double>(mS), d); }
    bool isRandom() const override { return true; }
    Json toJson() const override { return compressorSpecJson(id(), Json{{"s", mS}}); }

private:
    long long mS;
};

// --- norm-sign (C3) --------------------------------------------------------------------------

/** Paper 001's norm-sign compressor C3 (Yi et al. [37]): C3(x) = (‖x‖_∞/2) · sign(x),
 *  sign(0) = 0. Deterministic.
 *
 *  Assumption 5 with r = d/2, φ = 1/d² (derived here): C3(x)/r = c·sign(x)
 *  with c = ‖x‖_∞/d. With m ≤ d the number of non-zero coordinates,
 *      ‖c·sign(x) − x‖² = ‖x‖² − 2c‖x‖₁ + c²m
 *                       ≤ ‖x‖² − 2‖x‖_∞²/d + ‖x‖_∞²/d          (‖x‖₁ ≥ ‖x‖_∞, m ≤ d)
 *                       = ‖x‖² − ‖x‖_∞²/d ≤ (1 − 1/d²)‖x‖²       (‖x‖_∞² ≥ ‖x‖²/d).
 *  r = 1 does not work for d > 4: x = (1, ε, …, ε) gives ‖C3(x) − x‖² ≈ d/4 > ‖x‖² ≈ 1.
 *  The constants are loose (the two inequalities are not tight together) but valid.
 *  d = 1: r = 1/2, φ = 1, and C3(x)/r = x exactly.
 *
 *  Bits: 32 for ‖x‖_∞ + one sign bit per coordinate = 32 + d. Cost O(d). */
class NormSignCompressor final : public Compressor
{
public:
    std::string id() const override { return "norm-sign"; }

    std::uint64_t compress(const Eigen::Ref<const Eigen::VectorXd> &x,
                           Eigen::Ref<Eigen::VectorXd> out, Rng &) const override
    {
        compressorCheckSizes(x, out);
        // PropagateNaN: a diverged state stays visible in the message.
        return scaledSign(x, out, 0.5 * x.cwiseAbs().maxCoeff<Eigen::PropagateNaN>());
    }
    double phi(int d) const override
    {
        assert(d >= 1 && "phi: d must be at least 1");
        return 1.0 / (static_cast<double>(d) * d);
    }
    double r(int d) const override
    {
        assert(d >= 1 && "r: d must be at least 1");
        return 0.5 * d;
    }
    bool isRandom() const override { return false; }
    Json toJson() const override { return compressorSpecJson(id(), Json::object()); }
};

// --- sign ------------------------------------------------------------------------------------

/** Scaled sign of EF-SignSGD (Karimireddy et al. 2019): C(x) = (‖x‖₁/d) · sign(x), sign(0) = 0.
 *  Deterministic.
 *
 *  Assumption 5 with r = 1: with c = ‖x‖₁/d and m ≤ d non-zero coordinates,
 *      ‖C(x) − x‖² = ‖x‖² − 2c‖x‖₁ + c²m ≤ ‖x‖² − 2‖x‖₁²/d + ‖x‖₁²/d = (1 − φ(x))‖x‖²,
 *      φ(x) = ‖x‖₁²/(d‖x‖²) ≥ 1/d   (‖x‖₁ ≥ ‖x‖),
 *  so the worst-case constant is φ = 1/d (approached by x = (1, ε, …, ε) as ε → 0; the
 *  per-vector φ(x) reaches 1 when all |x_i| are equal, where C(x) = x).
 *
 *  Bits: 32 for ‖x‖₁/d + one sign bit per coordinate = 32 + d. Cost O(d). */
class SignCompressor final : public Compressor
{
public:
    std::string id() const override { return "sign"; }

    std::uint64_t compress(const Eigen::Ref<const Eigen::VectorXd> &x,
                           Eigen::Ref<Eigen::VectorXd> out, Rng &) const override
    {
        compressorCheckSizes(x, out);
        return scaledSign(x, out, x.lpNorm<1>() / static_cast<double>(x.size()));
    }
    double phi(int d) const override
    {
        assert(d >= 1 && "phi: d must be at least 1");
        return 1.0 / d;
    }
    double r(int) const override { return 1.0; }
    bool isRandom() const override { return false; }
    Json toJson() const override { return compressorSpecJson(id(), Json::object()); }
};

} // namespace

CompressorEntry ditheredQuantizerEntry()
{
    const Descriptor desc{
        .id = "dithered-quantizer",
        .name = "Dithered b-bit quantizer (C2)",
        .reference = "Paper 001, Sec. V, C2; Koloskova, Lin, Stich, Jaggi, \"Decentralized deep "
                     "learning with arbitrary communication compression\", ICLR 2020",
        .explanation =
            "C2(x) = (‖x‖/ξ)·sign(x)·2^(1−b)·⌊2^(b−1)|x|/‖x‖ + u⌋ with a fresh dither u ~ U[0,1]^d "
            "per message and ξ = 1 + min(d/4^(b−1), √d/2^(b−1)): unbiased stochastic rounding to "
            "2^(b−1) + 1 levels, divided by ξ. Assumption 5 holds with r = 1 and phi = 1/ξ. "
            "Bits per message: 32 (norm) + d·(b + 1) (sign and level of each coordinate).",
        .params = {compressorParam(
            intParam("b", "Bits b", 2, 1, kMaxBits,
                     "Quantization bits b: each coordinate is rounded to one of 2^(b−1) + 1 "
                     "levels, sent with b level bits and one sign bit (paper 001 uses b = 2)."),
            "bits", "Assumption 5 (paper 001): phi = 1/xi, xi = 1 + min(d/4^(b-1), sqrt(d)/2^(b-1))")}};
    return {desc, [](const Json &p) { return std::make_shared<DitheredQuantizer>(paramInt(p, "b")); }};
}

CompressorEntry qsgdCompressorEntry()
{
    const Descriptor desc{
        .id = "qsgd",
        .name = "QSGD (s levels)",
        .reference = "Alistarh, Grubic, Li, Tomioka, Vojnovic, \"QSGD: Communication-efficient SGD "
                     "via gradient quantization and encoding\", NeurIPS 2017",
        .explanation =
            "Q(x) = ‖x‖·sign(x)·ℓ/s, where ℓ rounds s|x|/‖x‖ randomly to a neighbouring integer so "
            "that E Q(x) = x. Variance at most ω‖x‖², ω = min(d/s², √d/s), so Assumption 5 holds "
            "with r = 1 + ω and phi = 1/(1 + ω). Bits per message: 32 (norm) + d·(1 + ⌈log2(s + 1)⌉) "
            "(sign and level of each coordinate, fixed-length codes).",
        .params = {compressorParam(intParam("s", "Levels s", 3, 1, kMaxLevels,
                                            "Number of quantization levels s above zero: levels "
                                            "{0, 1, …, s}. s = 2^m − 1 uses the m level bits fully."),
                                   "levels",
                                   "Assumption 5 (paper 001): r = 1 + min(d/s^2, sqrt(d)/s), phi = 1/r")}};
    return {desc, [](const Json &p) { return std::make_shared<QsgdCompressor>(paramInt(p, "s")); }};
}

CompressorEntry normSignCompressorEntry()
{
    return {{.id = "norm-sign",
             .name = "Norm-sign compressor (C3)",
             .reference = "Paper 001, Sec. V, C3; Yi, Zhang, Yang, Chai, Johansson, \"Communication "
                          "compression for distributed nonconvex optimization\", IEEE TAC 2022",
             .explanation = "C3(x) = (‖x‖_∞/2)·sign(x). Deterministic. Not contractive with r = 1 "
                            "for d > 4; Assumption 5 holds with r = d/2 and phi = 1/d². Bits per "
                            "message: 32 + d.",
             .params = {}},
            [](const Json &) { return std::make_shared<NormSignCompressor>(); }};
}

CompressorEntry signCompressorEntry()
{
    return {{.id = "sign",
             .name = "Scaled sign",
             .reference = "Karimireddy, Rebjock, Stich, Jaggi, \"Error feedback fixes SignSGD and "
                          "other gradient compression schemes\", ICML 2019",
             .explanation = "C(x) = (‖x‖₁/d)·sign(x). Deterministic and biased. Assumption 5 holds "
                            "with r = 1 and phi = ‖x‖₁²/(d‖x‖²) ≥ 1/d (the worst case 1/d is used). "
                            "Bits per message: 32 + d.",
             .params = {}},
            [](const Json &) { return std::make_shared<SignCompressor>(); }};
}

} // namespace dplab
