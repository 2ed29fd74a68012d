// SPDX-License-Identifier: GPL-3.0-or-later
//
// Privacy of paper 001 (Xie, Yi, Wang, Cao, Ren: "Differentially private and communication-
// efficient distributed nonconvex optimization algorithms"), per agent i0, for PGTC (Algorithm 1)
// and PPDC (Algorithm 2) with Laplace noise of scale s·q^k at iteration k:
//
//  Finite horizon, Assumption 7 (‖∇f_i‖ ≤ M), Theorem 3 (eq. 25) / Theorem 6 (eq. 35):
//     ε_PGTC(K) = 4 √d M Σ_{k=0}^{K} ( √η / (s_x q^k) + 1 / (s_y q^k) )
//     ε_PPDC(K) = 2 √d M Σ_{k=0}^{K} ( √η / (s_x q^k) + 2 / (ω s_v q^k) )
//   The printed √η (rather than η, which (67) Δx_{k+1} = −η Δy_k suggests) is kept as printed.
//   The sum grows geometrically with ratio 1/q: ε(K) → ∞ (Remark 5).
//
//  Infinite horizon, Assumption 6 (the two versions of f_{i0} differ by a linear term),
//  Proposition 1 (eq. 24) / Proposition 2 (eq. 34), when η < 1/(2 L_f) and
//  q ∈ ((η L_f + √(η² L_f² + 4 η L_f))/2, 1):
//     ε = τ q² δ / (q² − η L_f − q η L_f),  τ_PGTC = η/s_x + 1/s_y,  τ_PPDC = 1/s_x + 1/(η s_v).
//   δ is not defined in paper 001. Reading used here (as in DiaDSP [21], whose Assumption 6 this
//   is): δ bounds the ℓ1 norm of the gradient difference of the two adjacent versions of f_{i0},
//   ‖∇f^(1)_{i0}(x) − ∇f^(2)_{i0}(x)‖_1 ≤ δ, which Assumption 6 makes independent of x.
//
// Accounting over a run: Algorithm 1 releases messages at k = 0..K−1 while (25)/(35) sum to
// k = K. The accountant charges exactly the releases made: after t iterations it reports
// (25)/(35) with upper index K = t − 1 (0 before any iteration) — DPLab's time convention, "ε after
// t iterations covers every message sent in iterations 0..t−1". Read literally with K = t (the
// printed index equal to the iterations run) the bound adds one more term, a factor up to 1/q
// larger (5× at q = 0.2); that reading is offered as an alternative curve ("as printed").
// The functions below evaluate the formulas exactly as printed for the K passed in.
//
// Both bounds scale as 1/s when all noise scales are multiplied by the same factor, which is
// what calibration uses.
//
// Threading: functions are pure; an accountant is owned by one algorithm instance.
#pragma once

#include "dplab/privacy/accountant.h"

#include <optional>
#include <string>
#include <vector>

namespace dplab {

/** Which of paper 001's algorithms a bound is for. */
enum class Paper001Method { Pgtc, Ppdc };

/** Which bound: Theorem 3/6 (finite horizon, M) or Proposition 1/2 (infinite horizon, δ, L_f). */
enum class Paper001Bound { FiniteHorizon, InfiniteHorizon };

/** The inputs of paper 001's bounds for one agent i0. */
struct Paper001PrivacyInputs {
    Paper001Method method = Paper001Method::Pgtc;
    int dimension = 1;        ///< d
    double stepsize = 0.1;    ///< η
    double omega = 1.0;       ///< ω (PPDC only)
    double gradientBound = 0; ///< M of Assumption 7 (Theorems 3/6)
    double smoothness = 0;    ///< L_f of Assumption 1 (Propositions 1/2)
    double delta = 1.0;       ///< δ (Propositions 1/2), the ℓ1 bound of the gradient difference
    double sx = 0;            ///< s_{ξx_{i0}}: scale of the noise on x at k = 0
    double s2 = 0;            ///< s_{ξy_{i0}} (PGTC) or s_{ξv_{i0}} (PPDC)
    double q = 0.5;           ///< q_{i0}: decay of the noise scale, s q^k
};

/** The per-iteration factor of (25)/(35): 4√d M (√η/s_x + 1/s_y), resp. 2√d M (√η/s_x + 2/(ω s_v)).
 *  ε(K) = prefactor · Σ_{k=0}^{K} q^{−k}. REQUIRES: s_x, s2 > 0. */
double paper001TheoremPrefactor(const Paper001PrivacyInputs &in);

/** Σ_{k=0}^{K} q^{−k} (K + 1 terms; K + 1 when q = 1; +∞ on overflow). */
double paper001GeometricSum(double q, long long K);

/** ε of Theorem 3 (PGTC, eq. 25) or Theorem 6 (PPDC, eq. 35), as printed, for the index K. */
double paper001TheoremEpsilon(const Paper001PrivacyInputs &in, long long K);

/** The lower end of the q interval of Propositions 1/2: (η L_f + √(η² L_f² + 4 η L_f)) / 2. */
double paper001PropositionThreshold(double stepsize, double smoothness);

/** Why Propositions 1/2 do not apply (η ≥ 1/(2L_f), q outside the interval, L_f or δ unknown),
 *  or an empty string when they do. */
std::string paper001PropositionViolation(const Paper001PrivacyInputs &in);

/** ε of Proposition 1 (PGTC, eq. 24) or Proposition 2 (PPDC, eq. 34), constant over time;
 *  nullopt when its conditions fail. */
std::optional<double> paper001PropositionEpsilon(const Paper001PrivacyInputs &in);

/** Calibration: the common noise scale s (used for s_x and s_y, resp. s_x and s_v) with which
 *  the chosen bound equals `targetEpsilon` (at index K for the finite-horizon bound; K is
 *  ignored for the infinite-horizon one). ε ∝ 1/s, so s = ε(s = 1) / target. Returns nullopt when
 *  the bound is unavailable (proposition conditions fail) or the target is not positive. */
std::optional<double> paper001CalibrateNoiseScale(const Paper001PrivacyInputs &in, Paper001Bound bound,
                                                  double targetEpsilon, long long K);

/** The accountant of a PGTC / PPDC run: per agent, after t iterations, ε_i(t) = (25)/(35) with
 *  K = t − 1 (finite horizon), or the constant (24)/(34) for t ≥ 1 (infinite horizon).
 *  Each agent's inputs may differ (per-agent s and q). */
class Paper001Accountant : public PrivacyAccountant
{
public:
    /** REQUIRES: for the infinite-horizon bound, every agent's proposition conditions hold. */
    Paper001Accountant(Paper001Bound bound, std::vector<Paper001PrivacyInputs> agents);

    std::string name() const override;
    const Eigen::VectorXd &epsilon() const override { return mEpsilon; }
    std::vector<std::string> assumptions() const override;
    /** Finite horizon: (25)/(35) with K = t (the printed index read as the iterations run). */
    std::vector<AlternativeBound> alternatives() const override;

    /** Accounts one more iteration (the releases of iteration t, t = 0, 1, ...). */
    void advance();
    /** Iterations accounted so far. */
    long long iterations() const { return mIterations; }
    Paper001Bound bound() const { return mBound; }

private:
    Paper001Bound mBound;
    std::vector<Paper001PrivacyInputs> mAgents;
    Eigen::VectorXd mPrefactor;
    Eigen::VectorXd mEpsilon;
    Eigen::VectorXd mLiteral;
    long long mIterations = 0;
};

} // namespace dplab
