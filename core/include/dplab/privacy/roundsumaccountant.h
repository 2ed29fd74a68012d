// SPDX-License-Identifier: GPL-3.0-or-later
//
// The common form of the observation-sensitivity accountants (DiaDSP, DPOP): every round k the
// agent's broadcasts are Laplace releases with ℓ1 sensitivities that are the same for every
// agent, so round k costs each of them c(k) = Σ_releases Δ/b and
//     ε(K) = Σ_{k=0}^{K} c(k)                    (the rounds 0..K).
// An accountant of this form adds c(0), c(1), ... in turn, one round per iteration; the free
// function gives the same sum ahead of a run, for calibrating the noise to a target ε.
//
// A baseline states its argument once, in a privacy set-up (DiaDspPrivacySetup,
// DpopPrivacySetup): the round cost roundEpsilon(k), the sensitivity 2√r·C, where the gradient
// bound must hold, the noise in words, the observation argument and the accountant's name.
// RoundSumAccountantOf<Setup> is its accountant, roundSumEpsilon and roundSumCalibrationFactor
// the sums ahead of a run.
//
// Iteration convention (as in paper003accountant.h): after T iterations the rounds 0..T−1 have
// been broadcast and the accountant reports ε(T − 1).
//
// Threading: plain functions are thread-safe; an accountant instance is owned by one algorithm.
#pragma once

#include "dplab/privacy/accountant.h"

#include <Eigen/Core>

#include <string>
#include <utility>
#include <vector>

namespace dplab {

/** ε of one Laplace release of ℓ1 sensitivity Δ at scale b: Δ/b. Nothing released (Δ = 0)
 *  costs 0; a nonzero sensitivity without noise (b ≤ 0) costs +inf. */
double laplaceCost(double sensitivity, double scale);

/** ε(K) = Σ_{k=0}^{K} roundCost(k), summed in round order. Cost O(K). */
template <class RoundCost>
double sumOfRounds(long long K, const RoundCost &roundCost)
{
    double total = 0.0;
    for (long long k = 0; k <= K; ++k)
        total += roundCost(k);
    return total;
}

/** "‖∇f_i(x)‖₂ ≤ C on <where>, sensitivity 2√r·C = <sensitivity>": the bound a round-sum
 *  argument rests on. */
std::string gradientBoundAssumption(const std::string &where, double sensitivity);

/** The factor c such that the noise scales times c give ε = targetEpsilon, for an accountant
 *  with ε ∝ 1/scale whose ε at the given scales is `epsilon`. targetEpsilon must be > 0. */
double calibrationFactor(double epsilon, double targetEpsilon);

class RoundSumAccountant : public PrivacyAccountant
{
public:
    const Eigen::VectorXd &epsilon() const final { return mEpsilon; }
    /** ownAssumptions(), then the notes given at construction. */
    std::vector<std::string> assumptions() const final;
    /** Accounts the broadcast of the iteration just done (rounds 0, 1, 2, ... in turn). */
    void advance();

protected:
    RoundSumAccountant(int agents, std::vector<std::string> notes);
    /** c(k), the cost of round k alone for every agent. */
    virtual double roundCost(long long k) const = 0;
    /** The assumptions of this accountant's argument, in plain words. */
    virtual std::vector<std::string> ownAssumptions() const = 0;

private:
    std::vector<std::string> mNotes;
    Eigen::VectorXd mEpsilon;
    long long mRounds = 0;
};

/** ε(K) = Σ_{k=0}^{K} setup.roundEpsilon(k) (the rounds 0..K). Cost O(K). */
template <class Setup>
double roundSumEpsilon(const Setup &setup, long long K)
{
    return sumOfRounds(K, [&](long long k) { return setup.roundEpsilon(k); });
}

/** The factor c such that the set-up's noise scales times c give ε(K) = targetEpsilon. */
template <class Setup>
double roundSumCalibrationFactor(const Setup &setup, long long K, double targetEpsilon)
{
    return calibrationFactor(roundSumEpsilon(setup, K), targetEpsilon);
}

/** The accountant of a privacy set-up: Setup::roundEpsilon(k) per round, named
 *  Setup::accountantName(); its assumptions are the gradient bound on Setup::boundHoldsOn with
 *  the sensitivity, noiseDescription(), paper 003 Proposition 1's argument (Setup::argument)
 *  and the iteration convention. */
template <class Setup>
class RoundSumAccountantOf final : public RoundSumAccountant
{
public:
    RoundSumAccountantOf(int agents, Setup setup, std::vector<std::string> notes = {})
        : RoundSumAccountant(agents, std::move(notes)), mSetup(std::move(setup))
    {
    }

    std::string name() const override { return Setup::accountantName(); }

private:
    double roundCost(long long k) const override { return mSetup.roundEpsilon(k); }
    std::vector<std::string> ownAssumptions() const override
    {
        return {gradientBoundAssumption(Setup::boundHoldsOn, mSetup.sensitivity),
                mSetup.noiseDescription(),
                std::string("observation-based DP (paper 003 Proposition 1)") + Setup::argument,
                "after T iterations the rounds 0..T−1 are counted"};
    }

    Setup mSetup;
};

} // namespace dplab
