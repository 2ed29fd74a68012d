// SPDX-License-Identifier: GPL-3.0-or-later
//
// Pieces shared by paper 001's PGTC (pgtc.cpp) and PPDC (ppdc.cpp): the geometrically decaying
// Laplace noise s_i q_i^k, the privacy parameter specs, the accountant set-up, the warnings and
// the base class with what Algorithms 1 and 2 set up alike (steps 5–7 for x). Private to
// core/algo.
//
// Threading: owned by one algorithm instance; not thread-safe.
#pragma once

#include "dplab/algo/algorithm.h"
#include "dplab/algo/referencechannel.h"
#include "dplab/privacy/paper001accountant.h"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dplab::paper001 {

/** Laplace noise ξ_{i,k} ~ Lap_d(s_i q_i^k), one stream per agent. */
class GeometricNoise
{
public:
    GeometricNoise() = default;
    GeometricNoise(const NoiseSource &source, RngPurpose purpose, Eigen::VectorXd scale, Eigen::VectorXd decay,
                   int d);

    /** Draws ξ_k for every agent into noise(): d i.i.d. Laplace(s_i q_i^k) entries, block k of
     *  agent i's NoiseStream; an agent with s_i = 0 gets zeros. */
    void draw(long long k);
    const Eigen::MatrixXd &noise() const { return mNoise; }
    /** s_i q_i^k, the scale used for agent i at iteration k. */
    double scaleAt(int agent, long long k) const;

private:
    Eigen::VectorXd mScale;
    Eigen::VectorXd mDecay;
    std::vector<NoiseStream> mStreams;
    Eigen::MatrixXd mNoise;
    Eigen::VectorXd mRow;
};

/** The Laplacian L = D − W_o of the weights' off-diagonal part W_o (D = diag of W_o's row sums;
 *  L = I − W for a stochastic W, whatever its diagonal): the self weight never enters. */
class OffDiagonalLaplacian
{
public:
    OffDiagonalLaplacian() = default;
    explicit OffDiagonalLaplacian(const Eigen::MatrixXd &w);

    /** out = −L v: row i is Σ_{j≠i} w_ij (v_j − v_i). out must not alias v. */
    void applyNegative(const Eigen::MatrixXd &v, Eigen::MatrixXd &out) const
    {
        out.noalias() = mOff * v;
        out -= mRowSum.asDiagonal() * v;
    }
    /** out = L v: row i is Σ_{j≠i} w_ij (v_i − v_j). out must not alias v. */
    void apply(const Eigen::MatrixXd &v, Eigen::MatrixXd &out) const
    {
        out.noalias() = mRowSum.asDiagonal() * v;
        out.noalias() -= mOff * v;
    }

private:
    Eigen::SparseMatrix<double, Eigen::RowMajor> mOff;
    Eigen::VectorXd mRowSum;
};

/** The states a compressed channel of variable `v` ("x", "y") exposes: "v_ref" (the reference
 *  points), "v_hat" (the reconstructions), "noise_v" (the last noise), "residual_v" (the error
 *  feedback memory); null for any other name. */
const Eigen::MatrixXd *channelState(const std::string &name, const std::string &v,
                                    const ReferenceChannel &channel, const GeometricNoise &noise);

/** "error_feedback": the residual memory of EF-SGD, which paper 001 does not use. */
ParamSpec errorFeedbackParam();
/** A reference-point step of eq. (16)/(17): state^c ← (1 − α) state^c + α estimate. */
struct ReferenceStep {
    std::string key;        ///< "alpha_x", "alpha_y"
    std::string symbol;     ///< "α_x"
    std::string state;      ///< "x"
    std::string estimate;   ///< "x̂"
    std::string equation;   ///< "(16)"
    double tableValue = 0;  ///< Table I's value, the default
    std::string condition;  ///< where the paper bounds α in (0, 1/r): "Lemma 1"
};
/** The parameter of a reference step, its help and condition composed from `step`. */
ParamSpec referenceStepParam(const ReferenceStep &step);

/** One compressor stream per agent: noise.stream(i, RngPurpose::Compressor). */
std::vector<Rng> compressorStreams(const NoiseSource &noise, int n);

/** The privacy parameters: s_x, `secondKey` ("s_y" or "s_v"), q, bound, gradient_bound, delta,
 *  smoothness, epsilon (target). */
std::vector<ParamSpec> privacyParams(Paper001Method method);

/** privacy.epsilon > 0: multiplies agent i's s_x and second scale (s_y / s_v) by the factor that
 *  makes its ε_i under the selected bound equal the target at the run's horizon (K = T − 1, the
 *  rounds actually sent). Fails naming the field when the bound is unavailable. */
Status calibrate(const RunContext &ctx, Paper001Method method, double stepsize, double omega, Eigen::VectorXd &sx,
                 Eigen::VectorXd &s2);

/** The accountant of a run with the scales actually used, or null (with the reason appended to
 *  `warnings`) when the noise is off or the chosen bound is unavailable. */
std::unique_ptr<Paper001Accountant> makeAccountant(const RunContext &ctx, Paper001Method method, double stepsize,
                                                   double omega, const Eigen::VectorXd &sx,
                                                   const Eigen::VectorXd &s2, std::vector<std::string> &warnings);

/** Warns when α is outside (0, 1/r) of Assumption 5 for the run's compressor. */
void checkAlpha(const RunContext &ctx, double alpha, const std::string &symbol, std::vector<std::string> &warnings);

/** Warns when some q_i ≥ 1 (the paper needs 0 < q_i < 1). */
void checkDecay(const Eigen::VectorXd &q, std::vector<std::string> &warnings);

/** A reference step α of a channel and the symbol the warnings call it ("α_x"). */
struct ChannelStep {
    double alpha = 0.0;
    const char *symbol = "";
};

/** What Algorithms 1 (PGTC) and 2 (PPDC) share, steps 5–7 for x: the step η, the consensus weight
 *  γ, the Laplacian of W, the noise ξ_x on x and a second noise (ξ_y of PGTC, ξ_v of PPDC) with
 *  their scales s_x q^k, the compressor streams and the compressed channel of x. Each algorithm
 *  adds its own variables and writes its update in iterate(). */
class CompressedPrivateAlgorithm : public AccountedAlgorithm<Paper001Accountant>
{
protected:
    /** Reads η ("stepsize"), γ ("gamma"), α_x ("alpha_x") and "error_feedback"; builds L; draws ξ_x
     *  (DecisionNoise) and `second` (`secondPurpose`) with s_x and the second scale calibrated to
     *  privacy.epsilon when set (PPDC sets mOmega first); one compressor stream per agent; the x
     *  channel; x = x0, x^a and ∇f sized n×d. */
    Status startShared(const RunContext &ctx, Paper001Method method, RngPurpose secondPurpose,
                       GeometricNoise &second);
    /** The warnings on α_x and each further channel's α (`moreSteps`, in order) and on q, then the
     *  method's own (`ownWarning`, if any), then the accountant of the run (or why there is none). */
    void finishShared(const RunContext &ctx, std::initializer_list<ChannelStep> moreSteps,
                      const std::optional<std::string> &ownWarning = std::nullopt);

    double mEta = 0.1;
    double mGamma = 0.2;
    double mOmega = 1.0; ///< ω of PPDC's (31)–(32); 1 for PGTC, whose bounds have no ω
    bool mFeedback = false; ///< error feedback on every compressed channel (not in paper 001)
    OffDiagonalLaplacian mLaplacian;
    GeometricNoise mNoiseX;
    std::vector<Rng> mCompressorRng;
    ReferenceChannel mChannelX;
    Eigen::MatrixXd mX, mXa, mGrad;

private:
    Paper001Method mMethod = Paper001Method::Pgtc;
    double mAlphaX = 0.5;
    Eigen::VectorXd mDecay, mScaleX, mScale2; ///< q, s_x and the second scale, as calibrated
};

} // namespace dplab::paper001
