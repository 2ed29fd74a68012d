// SPDX-License-Identifier: GPL-3.0-or-later
//
// Identity and the two sparsifiers, top-k and rand-k.
//
// Constants of paper 001's Assumption 5, E‖C(x)/r − x‖² ≤ (1 − φ)‖x‖², with k_eff = min(k, d):
//
//   identity           φ = 1          r = 1          bits = 32·d
//   top-k              φ = k_eff/d    r = 1          bits = min(k_eff·(32 + ⌈log2 d⌉), 32·d)
//   rand-k, biased     φ = k_eff/d    r = 1          bits = min(k_eff·(32 + ⌈log2 d⌉), 32·d)
//   rand-k, unbiased   φ = k_eff/d    r = d/k_eff    bits = min(k_eff·(32 + ⌈log2 d⌉), 32·d)
//
// k larger than d is clamped to d (the compressor then sends x unchanged, as dense values):
// a compressor is built before the problem dimension is known, so k ≥ d is not an error.
// The sparse form sends each kept value (32 bits) with its index (⌈log2 d⌉ bits); when that is
// longer than the dense form (all d values, 32·d bits) the dense form is sent. Both ends know k
// and d, so no flag bit is needed. Indices are sent explicitly also for rand-k (no shared seed).
//
// Aliasing: `out` may be the same vector as `x` (every compressor here reads what it needs
// before it writes).
#include "compress/builtin.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <vector>

namespace dplab {

namespace {

constexpr long long kMaxK = 1000000000;

// --- identity --------------------------------------------------------------------------------

class IdentityCompressor final : public Compressor
{
public:
    std::string id() const override { return "identity"; }

    /** out = x; bits = 32·d. */
    std::uint64_t compress(const Eigen::Ref<const Eigen::VectorXd> &x,
                           Eigen::Ref<Eigen::VectorXd> out, Rng &) const override
    {
        compressorCheckSizes(x, out);
        out = x;
        return fullVectorBits(x.size());
    }
    double phi(int) const override { return 1.0; }
    double r(int) const override { return 1.0; }
    bool isRandom() const override { return false; }
    bool isIdentity() const override { return true; }
    Json toJson() const override { return compressorSpecJson(id(), Json::object()); }
};

// --- the sparsifiers' common part ---------------------------------------------------------------

/** What top-k and rand-k share: k, the kept count k_eff = min(k, d), φ = k_eff/d, and the
 *  message of k_eff = d, x unchanged as dense values (no draws). For k_eff < d,
 *  Derived::sparsify(x, out, k_eff, rng) writes C(x) into out; the message costs
 *  compressorSparseBits(k_eff, d). (CRTP: sparsify() is called without a virtual dispatch.) */
template <class Derived>
class Sparsifier : public Compressor
{
public:
    explicit Sparsifier(long long k) : mK(k) {}

    std::uint64_t compress(const Eigen::Ref<const Eigen::VectorXd> &x,
                           Eigen::Ref<Eigen::VectorXd> out, Rng &rng) const final
    {
        compressorCheckSizes(x, out);
        const Eigen::Index d = x.size();
        const Eigen::Index kept = keptCount(d);
        if (kept == d) {
            out = x;
            return fullVectorBits(d);
        }
        static_cast<const Derived &>(*this).sparsify(x, out, kept, rng);
        return compressorSparseBits(kept, d);
    }
    double phi(int d) const final
    {
        assert(d >= 1 && "phi: d must be at least 1");
        return static_cast<double>(keptCount(d)) / d;
    }

protected:
    Eigen::Index keptCount(Eigen::Index d) const { return std::min<Eigen::Index>(mK, d); }
    long long k() const { return mK; }

private:
    long long mK;
};

// --- top-k -----------------------------------------------------------------------------------

// Scratch for the selection, reused across calls on the same thread so that compress() does not
// allocate in the hot loop once it has seen the largest d. Holds no state between calls (it is
// overwritten before every use), so the compressor stays immutable.
struct TopKScratch {
    std::vector<std::uint64_t> keys; ///< magnitudeKey(x_i), in index order
    std::vector<std::uint64_t> work; ///< the same keys, reordered by the selection
};

TopKScratch &topKScratch()
{
    thread_local TopKScratch scratch;
    return scratch;
}

/** |v| as an integer with the order of the magnitudes: the bits of a non-negative double
 *  compare as unsigned integers the way the numbers do (+0 and −0 both give 0), and NaN counts
 *  as +∞ (so divergence stays visible). */
inline std::uint64_t magnitudeKey(double v)
{
    constexpr std::uint64_t Infinity = 0x7ff0000000000000ULL;
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    b &= 0x7fffffffffffffffULL;
    return b > Infinity ? Infinity : b;
}

/** The kept-th largest of keys (counting equal keys separately), 1 ≤ kept ≤ keys.size(). For a
 *  small kept, the kept largest so far stay sorted in `work` and a key enters only when it
 *  beats the smallest of them (one well-predicted comparison for most keys); otherwise a
 *  selection. */
std::uint64_t kthLargest(const std::vector<std::uint64_t> &keys, std::size_t kept, std::vector<std::uint64_t> &work)
{
    if (kept > 32) {
        work.assign(keys.begin(), keys.end());
        const auto nth = work.begin() + static_cast<std::ptrdiff_t>(kept - 1);
        std::nth_element(work.begin(), nth, work.end(), std::greater<std::uint64_t>());
        return *nth;
    }
    work.resize(kept);
    std::size_t filled = 0;
    for (const std::uint64_t key : keys) {
        std::size_t at;
        if (filled < kept) {
            at = filled++;
        } else {
            if (key <= work[kept - 1])
                continue;
            at = kept - 1;
        }
        for (; at > 0 && work[at - 1] < key; --at)
            work[at] = work[at - 1];
        work[at] = key;
    }
    return work[kept - 1];
}

/** Greedy top-k (paper 001's C1, Beznosikov et al. [46]): keeps the k_eff = min(k, d)
 *  coordinates of largest magnitude, sets the others to 0. Ties are broken towards the lowest
 *  index; a NaN coordinate counts as larger than any number (so divergence stays visible).
 *  Deterministic: the kept set is defined by the order (larger magnitude first, then lower
 *  index), so any way of finding it gives the same output.
 *
 *  Assumption 5 with r = 1, φ = k_eff/d: ‖C(x) − x‖² is the sum of the d − k_eff smallest
 *  squares x_i², which is at most the average square times (d − k_eff), i.e.
 *  ≤ (1 − k_eff/d)‖x‖² (equality when all |x_i| are equal).
 *
 *  Cost O(d) for a small k_eff: the k_eff-th largest magnitude T over integer keys (no index and
 *  no tie rule in the comparisons; kthLargest), then one pass that keeps every |x_i| > T and, in index
 *  order, as many |x_i| = T as are still missing. */
class TopKCompressor final : public Sparsifier<TopKCompressor>
{
public:
    explicit TopKCompressor(long long k) : Sparsifier(k) {}

    std::string id() const override { return "top-k"; }

    /** C(x) for k_eff = kept < d (Sparsifier::compress). */
    void sparsify(const Eigen::Ref<const Eigen::VectorXd> &x, Eigen::Ref<Eigen::VectorXd> out,
                  Eigen::Index kept, Rng &) const
    {
        const Eigen::Index d = x.size();
        auto &scratch = topKScratch();
        const auto size = static_cast<std::size_t>(d);
        scratch.keys.resize(size);
        for (std::size_t i = 0; i < size; ++i)
            scratch.keys[i] = magnitudeKey(x[static_cast<Eigen::Index>(i)]);
        const std::uint64_t threshold = kthLargest(scratch.keys, static_cast<std::size_t>(kept), scratch.work);
        Eigen::Index above = 0;
        for (std::size_t i = 0; i < size; ++i)
            above += scratch.keys[i] > threshold;
        Eigen::Index ties = kept - above; // ≥ 1: the threshold's own entry
        for (std::size_t i = 0; i < size; ++i) {
            const std::uint64_t key = scratch.keys[i];
            const bool keep = key > threshold || (key == threshold && ties-- > 0);
            const auto at = static_cast<Eigen::Index>(i);
            out[at] = keep ? x[at] : 0.0; // reads x_i before writing out_i: out may alias x
        }
    }
    double r(int) const override { return 1.0; }
    bool isRandom() const override { return false; }
    Json toJson() const override { return compressorSpecJson(id(), Json{{"k", k()}}); }
};

// --- rand-k ----------------------------------------------------------------------------------

/** Random-k sparsifier: keeps k_eff = min(k, d) coordinates chosen uniformly at random without
 *  replacement, sets the others to 0. "biased" keeps the values as they are; "unbiased"
 *  multiplies them by d/k_eff so that E C(x) = x.
 *
 *  The k_eff-subset S is drawn by selection sampling (Knuth's Algorithm S): coordinate i is
 *  taken with probability (still needed)/(d − i), with rng.below(d − i) < still-needed, which is
 *  exact and uniform over all subsets; every coordinate is in S with probability k_eff/d.
 *  No draws are made when k_eff = d (C = identity).
 *
 *  Assumption 5. Let p = k_eff/d and 1_S the indicator of S; E 1_S(i) = p.
 *   - biased (C(x) = x∘1_S), r = 1:
 *       E‖C(x) − x‖² = Σ_i (1 − p) x_i² = (1 − p)‖x‖²          ⇒ φ = p (equality for every x).
 *   - unbiased (C(x) = (1/p) x∘1_S). For a general r,
 *       E‖C(x)/r − x‖² = Σ_i x_i² [p (1/(rp) − 1)² + (1 − p)] = (1/(r²p) − 2/r + 1)‖x‖²,
 *     minimised at r = 1/p = d/k_eff, where it equals (1 − p)‖x‖²   ⇒ (φ, r) = (k_eff/d, d/k_eff),
 *     again with equality. (With r = 1 it would be (1/p − 1)‖x‖², not contractive for p < 1/2.)
 *
 *  Cost O(d) and at most d draws of rng.below(). */
class RandKCompressor final : public Sparsifier<RandKCompressor>
{
public:
    RandKCompressor(long long k, bool unbiased) : Sparsifier(k), mUnbiased(unbiased) {}

    std::string id() const override { return "rand-k"; }

    /** C(x) for k_eff = kept < d (Sparsifier::compress). */
    void sparsify(const Eigen::Ref<const Eigen::VectorXd> &x, Eigen::Ref<Eigen::VectorXd> out,
                  Eigen::Index kept, Rng &rng) const
    {
        const Eigen::Index d = x.size();
        const double scale = mUnbiased ? static_cast<double>(d) / static_cast<double>(kept) : 1.0;
        Eigen::Index needed = kept;
        for (Eigen::Index i = 0; i < d; ++i) {
            const Eigen::Index left = d - i;
            bool take = false;
            if (needed == left)
                take = true;
            else if (needed > 0)
                take = rng.below(static_cast<std::uint64_t>(left))
                       < static_cast<std::uint64_t>(needed);
            if (take) {
                out[i] = scale * x[i];
                --needed;
            } else {
                out[i] = 0.0;
            }
        }
    }
    double r(int d) const override
    {
        assert(d >= 1 && "r: d must be at least 1");
        return mUnbiased ? static_cast<double>(d) / static_cast<double>(keptCount(d)) : 1.0;
    }
    bool isRandom() const override { return true; }
    Json toJson() const override
    {
        return compressorSpecJson(id(),
                                  Json{{"k", k()}, {"scaling", mUnbiased ? "unbiased" : "biased"}});
    }

private:
    bool mUnbiased;
};

ParamSpec kParam(const std::string &help)
{
    auto spec = intParam("k", "Kept coordinates k", 2, 1, kMaxK, help);
    spec.unit = "coordinates";
    spec.condition = "Assumption 5 (paper 001): phi = min(k, d)/d";
    return spec;
}

} // namespace

CompressorEntry identityCompressorEntry()
{
    return {{.id = "identity",
             .name = "Identity (no compression)",
             .reference = "",
             .explanation = "Sends the vector unchanged at full precision: C(x) = x, so Assumption 5 "
                            "of paper 001 holds with phi = r = 1. Costs 32·d bits per message.",
             .params = {}},
            [](const Json &) { return std::make_shared<IdentityCompressor>(); }};
}

CompressorEntry topKCompressorEntry()
{
    const Descriptor desc{
        .id = "top-k",
        .name = "Greedy top-k sparsifier (C1)",
        .reference = "Paper 001, Sec. V, C1; Beznosikov, Horváth, Richtárik, Safaryan, "
                     "\"On biased compression for distributed learning\", arXiv:2002.12410",
        .explanation =
            "Keeps the k coordinates of largest magnitude (ties: lowest index) and zeroes the rest. "
            "Deterministic. Assumption 5 holds with r = 1 and phi = k/d. k ≥ d sends the vector "
            "unchanged. Bits per message: k·(32 + ⌈log2 d⌉) (value and index of each kept "
            "coordinate), or 32·d if that is smaller.",
        .params = {kParam("Number of coordinates kept per message (paper 001 uses k = 2 with "
                          "d = 10). Values above d are clamped to d.")}};
    return {desc, [](const Json &p) { return std::make_shared<TopKCompressor>(paramInt(p, "k")); }};
}

CompressorEntry randKCompressorEntry()
{
    const Descriptor desc{
        .id = "rand-k",
        .name = "Random-k sparsifier",
        .reference = "Stich, Cordonnier, Jaggi, \"Sparsified SGD with memory\", NeurIPS 2018; "
                     "Beznosikov et al., arXiv:2002.12410",
        .explanation =
            "Keeps k coordinates chosen uniformly at random (a fresh choice for every message) and "
            "zeroes the rest. \"biased\" keeps the values (r = 1, phi = k/d); \"unbiased\" scales "
            "them by d/k so that E C(x) = x (r = d/k, phi = k/d). k ≥ d sends the vector unchanged. "
            "Bits per message: k·(32 + ⌈log2 d⌉) (explicit indices), or 32·d if that is smaller.",
        .params = {kParam("Number of coordinates kept per message. Values above d are clamped "
                          "to d."),
                   compressorParam(choiceParam("scaling", "Scaling", "unbiased", {"unbiased", "biased"},
                                               "unbiased: kept values multiplied by d/k, E C(x) = x, "
                                               "r = d/k. biased: kept values sent as they are, r = 1. "
                                               "phi = k/d for both."),
                                   "", "Assumption 5 (paper 001): r = d/k (unbiased) or 1 (biased)")}};
    return {desc, [](const Json &p) {
                return std::make_shared<RandKCompressor>(paramInt(p, "k"),
                                                         paramText(p, "scaling") == "unbiased");
            }};
}

} // namespace dplab
