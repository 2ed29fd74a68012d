// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/privacy/paper003accountant.h"

#include <cassert>
#include <cmath>
#include <limits>
#include <sstream>

namespace dplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// num / den with the conventions of a privacy cost: nothing released costs nothing (0/0 = 0),
// a nonzero sensitivity without noise costs +inf.
double cost(double num, double den)
{
    if (num == 0.0)
        return 0.0;
    return den > 0.0 ? num / den : kInf;
}

// |c(j)| of the negative coefficients c_{k,k−j}, j = 1, 2, ... (c(1) = −1; c(j) =
// w^{j−2}(j(1−w) − 1) < 0 while j(1−w) < 1).
std::vector<double> negativeCoefficients(double w)
{
    std::vector<double> neg{1.0};
    for (int j = 2; j * (1.0 - w) < 1.0; ++j)
        neg.push_back(std::pow(w, j - 2) * (1.0 - j * (1.0 - w)));
    return neg;
}

// One agent's S_k, Y_k recursions (see the header).
class AgentTrack
{
public:
    explicit AgentTrack(double w) : mW(w), mNeg(negativeCoefficients(w)) {}

    // X_k = Σ_t |c_{k,t}| γ_t for the current k, given γ_0..γ_{k−1} in `gammas`.
    double x(const std::vector<double> &gammas, long long k) const
    {
        double negative = 0.0;
        for (std::size_t j = 1; j <= mNeg.size() && static_cast<long long>(j) <= k; ++j)
            negative += mNeg[j - 1] * gammas[static_cast<std::size_t>(k) - j];
        return mY + 2.0 * negative;
    }
    double s() const { return mS; }
    // k → k + 1 with γ_k.
    void advance(double gammaK)
    {
        const double sOld = mS;
        mS = mW * mS + gammaK;
        mY = mW * mY + (1.0 - mW) * sOld - gammaK;
    }

private:
    double mW;
    std::vector<double> mNeg;
    double mS = 0.0;
    double mY = 0.0;
};

double roundCost(const Paper003PrivacySetup &setup, double s, double x, double beta)
{
    const double d = setup.sensitivity;
    return cost(d * s, beta * setup.noiseS) + cost(d * setup.alpha * x, beta * setup.noiseX);
}

void checkWeight(double w)
{
    assert(w >= 0.0 && w < 1.0 && "paper 003 accountant: self-weight must be in [0, 1)");
    (void)w;
}

} // namespace

double gradientSensitivity(int dimension, double gradientBound)
{
    return 2.0 * std::sqrt(static_cast<double>(dimension)) * gradientBound;
}

double paper003Epsilon(double selfWeight, const Paper003PrivacySetup &setup, long long K)
{
    checkWeight(selfWeight);
    AgentTrack track(selfWeight);
    std::vector<double> gammas;
    gammas.reserve(static_cast<std::size_t>(std::max<long long>(K, 0)));
    double total = 0.0;
    for (long long k = 0; k <= K; ++k) {
        if (k >= 1)
            total += roundCost(setup, track.s(), track.x(gammas, k), setup.beta.at(k));
        const double g = setup.gamma.at(k);
        gammas.push_back(g);
        track.advance(g);
    }
    return total;
}

double paper003NetworkEpsilon(const Eigen::Ref<const Eigen::VectorXd> &selfWeights,
                              const Paper003PrivacySetup &setup, long long K)
{
    double best = 0.0;
    for (Eigen::Index i = 0; i < selfWeights.size(); ++i) {
        bool seen = false; // agents with the same w_ii have the same ε
        for (Eigen::Index j = 0; j < i && !seen; ++j)
            seen = selfWeights[j] == selfWeights[i];
        if (!seen)
            best = std::max(best, paper003Epsilon(selfWeights[i], setup, K));
    }
    return best;
}

double paper003CalibrationFactor(const Eigen::Ref<const Eigen::VectorXd> &selfWeights,
                                 const Paper003PrivacySetup &setup, long long K,
                                 double targetEpsilon)
{
    assert(targetEpsilon > 0 && "paper003CalibrationFactor: target ε must be > 0");
    // ε(c b_η, c b_ξ) = ε(b_η, b_ξ) / c.
    return paper003NetworkEpsilon(selfWeights, setup, K) / targetEpsilon;
}

double eulerianPolynomial(int n, double w)
{
    assert(n >= 0 && n <= 20 && "eulerianPolynomial: order must be in [0, 20]");
    if (n == 0)
        return 1.0;
    // Row recurrence ⟨n, j⟩ = (j + 1)⟨n−1, j⟩ + (n − j)⟨n−1, j−1⟩, exact in doubles for n ≤ 20.
    std::vector<double> row{1.0}; // n = 1
    for (int order = 2; order <= n; ++order) {
        std::vector<double> next(static_cast<std::size_t>(order), 0.0);
        for (int j = 0; j < order; ++j) {
            const double keep = j < order - 1 ? (j + 1) * row[static_cast<std::size_t>(j)] : 0.0;
            const double shift = j > 0 ? (order - j) * row[static_cast<std::size_t>(j - 1)] : 0.0;
            next[static_cast<std::size_t>(j)] = keep + shift;
        }
        row = std::move(next);
    }
    double value = 0.0;
    for (auto it = row.rbegin(); it != row.rend(); ++it)
        value = value * w + *it;
    return value;
}

double zetaTail(double s, long long m)
{
    assert(s > 1.0 && "zetaTail: exponent must be > 1");
    // Direct sum up to N − 1, Euler–Maclaurin for k ≥ N.
    const long long first = m + 1;
    const long long N = std::max<long long>(first, 200);
    double sum = 0.0;
    for (long long k = N - 1; k >= first; --k) // small terms first
        sum += std::pow(static_cast<double>(k), -s);
    const double n = static_cast<double>(N);
    const double tail = std::pow(n, 1.0 - s) / (s - 1.0) + std::pow(n, -s) / 2.0
                        + s * std::pow(n, -s - 1.0) / 12.0
                        - s * (s + 1) * (s + 2) * std::pow(n, -s - 3.0) / 720.0
                        + s * (s + 1) * (s + 2) * (s + 3) * (s + 4) * std::pow(n, -s - 5.0) / 30240.0;
    return sum + tail;
}

Result<double> paper003InfiniteHorizonEpsilon(double selfWeight, double alpha, double gammaScale,
                                              long long m, double p, double q, double noiseS,
                                              double noiseX, double sensitivity, bool asPrinted,
                                              const std::string &path)
{
    if (!(p - q > 2.0))
        return Error::invalid(path, "Corollary 3 needs q < p − 2 (the sums of (23) diverge "
                                    "otherwise); p − q = " + std::to_string(p - q));
    if (m < 1)
        return Error::invalid(path, "Corollary 3 needs an integer m ≥ 1 (γ_k = γ/(m+k)^p)");
    if (!(selfWeight > 0.0 && selfWeight < 1.0))
        return Error::invalid(path, "Corollary 3 needs 0 < w_ii < 1 (Assumption 4)");
    if (!(noiseS > 0.0 && noiseX > 0.0))
        return Error::invalid(path, "Corollary 3 needs Laplace scales b_η, b_ξ > 0");
    const int ceilP = static_cast<int>(std::ceil(p));
    if (ceilP > 20)
        return Error::invalid(path, "Corollary 3 is evaluated for p ≤ 20 only");
    const double w = selfWeight;
    const double prefactor = sensitivity * gammaScale * eulerianPolynomial(ceilP, w)
                             / (std::pow(static_cast<double>(m), p) * std::pow(1.0 - w, ceilP + 1));
    const double first = zetaTail(p - q, m);
    const double second = zetaTail(p - q - 1.0, m);
    const double wm = std::pow(w, static_cast<double>(m));
    const double sTerm = asPrinted ? first : first / (noiseS * wm);
    const double xTerm = alpha * second / (noiseX * wm * w);
    return prefactor * (sTerm + xTerm);
}

Paper003Accountant::Paper003Accountant(const Eigen::Ref<const Eigen::VectorXd> &selfWeights,
                                       Paper003PrivacySetup setup, std::vector<std::string> notes)
    : mWeights(selfWeights), mSetup(std::move(setup)), mNotes(std::move(notes)),
      mEpsilon(Eigen::VectorXd::Zero(selfWeights.size())),
      mLast(Eigen::VectorXd::Zero(selfWeights.size())), mLiteral(Eigen::VectorXd::Zero(selfWeights.size())),
      mS(Eigen::VectorXd::Zero(selfWeights.size())), mY(Eigen::VectorXd::Zero(selfWeights.size()))
{
    std::size_t longest = 1;
    for (Eigen::Index i = 0; i < mWeights.size(); ++i) {
        checkWeight(mWeights[i]);
        mNegative.push_back(negativeCoefficients(mWeights[i]));
        longest = std::max(longest, mNegative.back().size());
    }
    mGamma.assign(longest, 0.0);
}

double Paper003Accountant::roundCost(Eigen::Index i, long long k) const
{
    if (k < 1)
        return 0.0;
    // X_k = Y_k + 2 Σ_{negative c} |c_{k,t}| γ_t.
    const auto &neg = mNegative[static_cast<std::size_t>(i)];
    double negative = 0.0;
    const auto ring = static_cast<long long>(mGamma.size());
    for (long long j = 1; j <= static_cast<long long>(neg.size()) && j <= k; ++j)
        negative += neg[static_cast<std::size_t>(j - 1)] * mGamma[static_cast<std::size_t>((k - j) % ring)];
    return dplab::roundCost(mSetup, mS[i], mY[i] + 2.0 * negative, mSetup.beta.at(k));
}

void Paper003Accountant::advance()
{
    const long long k = mRounds;
    for (Eigen::Index i = 0; i < mWeights.size(); ++i) {
        mLast[i] = roundCost(i, k);
        mEpsilon[i] += mLast[i];
    }
    const double g = mSetup.gamma.at(k);
    mGamma[static_cast<std::size_t>(k) % mGamma.size()] = g;
    for (Eigen::Index i = 0; i < mWeights.size(); ++i) {
        const double w = mWeights[i];
        const double sOld = mS[i];
        mS[i] = w * mS[i] + g;
        mY[i] = w * mY[i] + (1.0 - w) * sOld - g;
    }
    ++mRounds;
    // (18) read with K = iterations run: one more round (k + 1) than the rounds broadcast.
    for (Eigen::Index i = 0; i < mWeights.size(); ++i)
        mLiteral[i] = mEpsilon[i] + roundCost(i, mRounds);
}

std::vector<AlternativeBound> Paper003Accountant::alternatives() const
{
    return {AlternativeBound{"paper 003 Theorem 2, eq. (18) as printed, K = iterations (one more round)", mLiteral}};
}

std::vector<std::string> Paper003Accountant::assumptions() const
{
    std::ostringstream s;
    s << "Assumption 2: ‖∇f_i(x)‖₂ ≤ C on the iterates, sensitivity 2√r·C = " << mSetup.sensitivity;
    std::vector<std::string> out = {
        s.str(),
        "Laplace noise drawn once per message (Assumption 5), b_η = " + std::to_string(mSetup.noiseS)
            + ", b_ξ = " + std::to_string(mSetup.noiseX) + ", scaled by β_k = "
            + mSetup.beta.toString(),
        "adjacency: one agent's f_i changes (Definition 1); the adversary observes every "
        "message (Definition 2); ε_i depends only on w_ii, α, γ_t, β_k, b_η, b_ξ, r, C",
        "after T iterations the rounds 0..T−1 are counted: ε = (18) with K = T − 1"};
    out.insert(out.end(), mNotes.begin(), mNotes.end());
    return out;
}

} // namespace dplab
