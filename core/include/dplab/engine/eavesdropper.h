// SPDX-License-Identifier: GPL-3.0-or-later
//
// The eavesdropper of the teaching demo: an observer who wiretaps every link of one agent i (it
// sees what i sends and what i receives, i.e. the messages of i's in-neighbours) and knows the
// public protocol — the weights and the step-size schedule — reconstructs i's local gradients
// from the messages alone, and, when i holds a single sample of a linear or logistic model, the
// sample itself (a gradient-inversion attack in the spirit of "Deep Leakage from Gradients",
// which paper 000 runs against its baselines; here the inversion is exact, in closed form).
//
// Gradient reconstruction (m^c_j(k) = the value agent j sent on channel c in iteration k, which
// is what the wire carries: clean value + DP noise, then compressed):
//   DGD            x_i(k+1) = W_ii x_i(k) + Σ_{j≠i} W_ij m^x_j(k) − α_k g_i(k)
//                  ⇒ ĝ_i(k) = (W_ii m^x_i(k) + Σ_{j≠i} W_ij m^x_j(k) − m^x_i(k+1)) / α_k
//   DIGing, Push-Pull
//                  y_i(k+1) = M_ii y_i(k) + Σ_{j≠i} M_ij m^y_j(k) + g_i(k+1) − g_i(k), y_i(0) = g_i(0)
//                  ⇒ ĝ_i(0) = m^y_i(0),
//                    ĝ_i(k+1) = ĝ_i(k) + m^y_i(k+1) − M_ii m^y_i(k) − Σ_{j≠i} M_ij m^y_j(k)
//                  (M = W for DIGing, M = C for Push-Pull; DP noise accumulates in ĝ)
//   LDP-GT         s_i(t+1) = C_ii s_i(t) + Σ_{j≠i} C_ij m^s_j(t) + λ_t g_i(t)   (paper 000, line 5)
//                  ⇒ ĝ_i(t) = (m^s_i(t+1) − C_ii m^s_i(t) − Σ_{j≠i} C_ij m^s_j(t)) / λ_t
// The decision x_i(k) at which g_i(k) was taken is read from i's decision message m^x_i(k).
// Without noise and compression every m equals the clean value, so ĝ_i = g_i to round-off.
//
// Gradient inversion (one sample; the regulariser (λ/2)‖x‖² is public, so r = ĝ − λ x̂):
//   logistic, labels ±1: f(x) = log(1 + e^(−y aᵀx)), ∇f = −σ(−bᵀx) b with b = y·a. So r is a
//     negative multiple of b: b = β u with u = −r/‖r‖ and β > 0 solving β σ(−β uᵀx) = ‖r‖.
//     For uᵀx ≤ 0 the root is unique and lies in [‖r‖, 2‖r‖]; for uᵀx > 0 there may be two,
//     and the first reconstructed gradient (the anchor) picks the one that explains it.
//     (a, y) and (−a, −y) give the same loss, so b = y·a is what any attack can learn; with a
//     bias feature (last coordinate 1) y = sign(b_last) and a = b / y.
//   least squares / ridge: f(x) = ½(aᵀx − y)², ∇f = (aᵀx − y) a. Two gradients r₁, r₂ at x₁, x₂
//     give u = r₁ − r₂ = (aᵀδ) a with δ = x₁ − x₂, so δᵀu = (aᵀδ)² and a = ±u / √(δᵀu);
//     then y = aᵀx₁ − r₁ᵀa / ‖a‖². The pair (a, y) is known up to the same global sign. The
//     attack pairs the newest gradient with the anchor.
// attack_error = ‖b̂ − b‖ / ‖b‖ (logistic), min_± ‖(â, ŷ) ∓ (a, y)‖ / ‖(a, y)‖ (least squares),
// or, for other problems, the relative gradient error ‖ĝ_i − ∇f_i(x_i)‖ / ‖∇f_i(x_i)‖ — of the
// newest reconstruction after the iterations observed so far. The truth it is scored against
// (the clean messages, the problem's data) is never used by the reconstruction.
//
// Threading: one instance per repetition, used by one thread.
#pragma once

#include "dplab/algo/algorithm.h"
#include "dplab/common/schedule.h"

#include <Eigen/Core>

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dplab {

/** The experiment file's "eavesdropper" object: {"agent": i}. */
struct EavesdropperSpec {
    int agent = 0; ///< the agent whose links are wiretapped
};

/** Validates an "eavesdropper" object for `agents` agents; errors name `path`. */
Result<EavesdropperSpec> parseEavesdropper(const Json &json, const std::string &path, int agents);
Json eavesdropperToJson(const EavesdropperSpec &spec);

/** Logistic inversion: the candidates for b = y·a given r = −σ(−bᵀx) b at x (one or two). */
std::vector<Eigen::VectorXd> invertLogisticGradient(const Eigen::VectorXd &r, const Eigen::VectorXd &x);
/** Least-squares inversion: (a, y) stacked (length d + 1) from r₁ at x₁ and r₂ at x₂; nullopt
 *  when δᵀu = 0 (the two points do not separate a). */
std::optional<Eigen::VectorXd> invertLinearGradients(const Eigen::VectorXd &r1, const Eigen::VectorXd &x1,
                                                     const Eigen::VectorXd &r2, const Eigen::VectorXd &x2);

/** The ids of the algorithms that have an attack surface, comma-separated. */
std::string attackableAlgorithms();

class Eavesdropper
{
public:
    enum class Target { Gradient, LogisticSample, LinearSample };

    /** An eavesdropper on `agent` for a run of `algorithm` reset with `context`. Errors
     *  (Unsupported) say why the attack does not apply. */
    static Result<std::unique_ptr<Eavesdropper>> create(const AlgorithmDescriptor &algorithm,
                                                        const RunContext &context, int agent);

    /** Feeds the messages every agent sent in iteration k (k = 0, 1, ... in order). */
    void observe(long long k, const std::vector<Message> &messages);

    Target target() const { return mTarget; }
    /** One sentence: what is reconstructed, for the help text and the CLI. */
    std::string description() const;
    int agent() const { return mAgent; }

    /** attack_error of the newest reconstruction (NaN before the first). */
    double error() const;
    /** The iteration k of the newest reconstructed gradient (−1 before the first). */
    long long reconstructedIteration() const { return mNewest; }
    double gradientError() const { return mGradientError; }
    const Eigen::VectorXd &gradientEstimate() const { return mGradient; }
    const Eigen::VectorXd &gradientTruth() const { return mGradientTrue; }
    /** The reconstructed data point (b = y·a, or (a, y)) and the truth (empty for Gradient). */
    const Eigen::VectorXd &dataEstimate() const { return mData; }
    const Eigen::VectorXd &dataTruth() const { return mDataTrue; }

private:
    Eavesdropper() = default;
    const Message *find(const std::vector<Message> &messages, int sender, const std::string &channel) const;
    /** Σ_j M_ij m_j over the agent's row (own term with its sent value). */
    Eigen::VectorXd mixRow(const std::vector<Message> &messages, const std::string &channel) const;
    void reconstructed(long long k, const Eigen::VectorXd &gradient, const Eigen::VectorXd &decision,
                       const Eigen::VectorXd &truth);

    AttackSurface mSurface;
    Target mTarget = Target::Gradient;
    std::string mAlgorithm;
    std::string mModel;
    int mAgent = 0;
    int mAgents = 0;
    Eigen::VectorXd mRow; ///< row `agent` of the mixing matrix the reconstruction uses
    Schedule mStep;
    double mLambda = 0.0;
    std::shared_ptr<const Problem> mProblem;

    // Reconstruction state (from sent values only).
    long long mObserved = -1;
    Eigen::VectorXd mPrevSent;  ///< agent's sent decision of the previous iteration
    Eigen::VectorXd mPrevMix;   ///< Σ_j M_ij m_j of the previous iteration (decision or tracker)
    Eigen::VectorXd mTracked;   ///< ĝ(k) of TrackerDifference
    // Scoring state (truth).
    Eigen::MatrixXd mCleanX, mTrueGrad;
    Eigen::VectorXd mPrevTrue;

    long long mNewest = -1;
    Eigen::VectorXd mGradient, mGradientTrue, mData, mDataTrue;
    double mGradientError = std::numeric_limits<double>::quiet_NaN();
    double mDataError = std::numeric_limits<double>::quiet_NaN();
    bool mHaveAnchor = false;
    Eigen::VectorXd mAnchorR, mAnchorX;
};

} // namespace dplab
