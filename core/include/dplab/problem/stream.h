// SPDX-License-Identifier: GPL-3.0-or-later
//
// Online data streams (papers 000 and 002): every learner i owns a sequence of samples
// ξ_0^i, ξ_1^i, ... (rows of a shared data pool, in arrival order) and receives
// `samplesPerIteration` new ones per iteration. After iteration t it has received the first
// K(t) = (t+1)·samplesPerIteration samples of its sequence, and its local objective at t is
//
//   Cumulative (paper 000 eq. (3), Algorithm 1 line 3 — exact):
//       f_t^i(θ) = (1/K(t)) Σ_{k<K(t)} l(θ, ξ_k^i)
//   Window (a documented DEVIATION, for speed / minibatch training):
//       f_t^i(θ) = (1/W) Σ_{K(t)−W ≤ k < K(t)} l(θ, ξ_k^i)      (W = samplesPerIteration: the
//       fresh minibatch of the current iteration)
//
// with a per-sample loss l that includes the ridge term (r/2)‖θ‖² (paper 000 §VI-A reading, spec
// §8.8). Optional per-sample gradient clipping to an ℓ1 ball of radius c_l,
//       ∇l ← ∇l · min(1, c_l / ‖∇l‖_1),
// makes paper 000's Assumption 5 (‖∇l‖_1 ≤ c_l) hold by construction, so its accountant is valid.
// The clip acts on the whole per-sample gradient, ridge included.
//
// A sequence shorter than the run wraps around (sample k is sequence[k mod L]); generate
// sequences at least as long as the horizon to avoid repeats.
//
// Cost: the cumulative average is kept exact without touching every past sample: each learner's
// distinct rows are stored once in first-arrival order with their arrival positions, so
// the set received by time t is a prefix of them and each row's multiplicity is a binary search.
// A gradient costs O(P·d) per learner, P = min(K(t), distinct rows) — for i.i.d. draws from a
// pool of N samples that is at most N whatever t is.
//
// The global objective (what x* and the optimality gap use) is the population objective:
//   Pool      F(θ) = (1/N) Σ_{j<N} l(θ, pool_j)   (i.i.d. sampling from the whole pool; paper 000's
//             mushrooms setting: "randomly selected ... from the dataset")
//   Sequence  F(θ) = (1/m) Σ_i (1/L_i) Σ_{k<L_i} l(θ, ξ_k^i)   (each learner's own sequence)
//
// Threading: immutable after construction; every const method derives what it needs from t and
// uses local temporaries only, so one instance may serve all repetitions in parallel.
#pragma once

#include "dplab/problem/objectives.h"
#include "dplab/problem/problem.h"

#include <Eigen/Core>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dplab {

/** The per-sample loss l(θ; a, b) of an online stream. */
enum class SampleLoss {
    /** l = log(1 + e^{aᵀθ}) − b aᵀθ + (r/2)‖θ‖², b ∈ {0, 1} (paper 000 §VI-A: the cross-entropy
     *  (1 − b) aᵀθ − log s(aᵀθ)). Labels −1 are read as 0. */
    Logistic,
    /** l = ½ (aᵀθ − b)² + (r/2)‖θ‖². */
    LeastSquares,
    /** Multiclass cross-entropy l = −log softmax(Θᵀa)_b + (r/2)‖Θ‖², b ∈ {0..K−1}; θ is Θ (d×K)
     *  flattened column by column: θ[c·d + j] = Θ(j, c). */
    Softmax
};

/** Which samples the gradient at iteration t averages. */
enum class StreamGradient {
    Cumulative, ///< all samples received so far (paper 000 Algorithm 1 line 3; exact)
    Window      ///< the last `window` samples received (deviation; fresh minibatch by default)
};

/** What the global objective F (reference solution, optimality gap) averages. */
enum class StreamPopulation {
    Pool,    ///< the whole pool, uniformly (i.i.d. sampling from one data set)
    Sequence ///< every learner's own sequence, with multiplicity, then the mean over learners
};

struct StreamOptions {
    SampleLoss loss = SampleLoss::Logistic;
    /** Ridge r ≥ 0 inside every per-sample loss. Default: 0. */
    double ridge = 0.0;
    /** New samples per learner per iteration (paper 000 Fig. 2: 1). REQUIRES: ≥ 1. */
    int samplesPerIteration = 1;
    StreamGradient gradient = StreamGradient::Cumulative;
    /** Window mode: number of latest samples averaged; 0 = samplesPerIteration. */
    int window = 0;
    /** Per-sample ℓ1 clipping bound c_l (paper 000 Assumption 5); 0 = no clipping. */
    double clipL1 = 0.0;
    StreamPopulation population = StreamPopulation::Pool;
    /** Softmax: number of classes K (0 = 1 + the largest label). Ignored otherwise. */
    int classes = 0;
    /** Logistic / Softmax: 0 = no closed form (the engine solves for x* itself, Newton or
     *  L-BFGS to ‖∇F‖ ≤ 1e-10); k > 0 = closedFormOptimum() returns an APPROXIMATE x* after at most
     *  k accelerated-gradient (FISTA, backtracked step) iterations from 0, for pools too large for
     *  the engine's solvers within a desktop budget. Ignored for LeastSquares (exact). */
    int referenceIterations = 0;
};

class OnlineStreamProblem : public Problem
{
public:
    /** Builds a stream problem.
     *  features: N×d pool (one sample per row); labels: N (see SampleLoss);
     *  sequences: one per learner, pool row indices in arrival order (each non-empty);
     *  testFeatures/testLabels: optional held-out split for accuracy(x, true);
     *  id: the registry id reported by id() ("" = "online-" + loss name).
     *  Errors name `path` (e.g. "problem.labels: logistic labels must be 0/1 or ±1"). */
    static Result<std::shared_ptr<const OnlineStreamProblem>>
    create(Eigen::MatrixXd features, Eigen::VectorXd labels, std::vector<std::vector<int>> sequences,
           const StreamOptions &options, const std::string &path = "problem",
           Eigen::MatrixXd testFeatures = {}, Eigen::VectorXd testLabels = {}, std::string id = {});

    /** Convenience: learner i's samples are the rows of features[i] (labels[i]), in order. The
     *  pool is their concatenation. */
    static Result<std::shared_ptr<const OnlineStreamProblem>>
    fromAgentSamples(const std::vector<Eigen::MatrixXd> &features,
                     const std::vector<Eigen::VectorXd> &labels, const StreamOptions &options,
                     const std::string &path = "problem");

    /** i.i.d. sequences of pool rows drawn uniformly with replacement, learner i's from
     *  Rng::stream(seed, 0, 0, i, RngPurpose::Stream). Cost O(agents·length). */
    static std::vector<std::vector<int>> iidSequences(int poolSize, int agents, long long length,
                                                      std::uint64_t seed);

    std::string id() const override { return mId; }
    int agentCount() const override { return static_cast<int>(mAgents.size()); }
    int dimension() const override { return mDimension; }
    bool isOnline() const override { return true; }

    /** out(i) = f_t^i(X.row(i)). */
    void values(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                long long t = 0) const override;
    /** out.row(i) = ∇f_t^i(X.row(i)) (clipped per sample when clipL1 > 0). */
    void gradients(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::MatrixXd> out,
                   long long t = 0) const override;

    /** out(r) = Σ_j f_t^j(X.row(r)) for any number of rows. Σ_j f_t^j is linear in the agents'
     *  sample weights, so the agents' weighted sets are merged over the pool rows (weights added)
     *  and every row of X is scored with one matrix product over the merged rows:
     *  O(P·d·rows) for P distinct pool rows in use, instead of rows·n evaluations. */
    void crossValues(const Eigen::Ref<const Eigen::MatrixXd> &X, Eigen::Ref<Eigen::VectorXd> out,
                     long long t) const override;

    /** The population objective F (see the header comment); never clipped. */
    double globalValue(const Eigen::VectorXd &x) const override;
    Eigen::VectorXd globalGradient(const Eigen::VectorXd &x) const override;
    /** ∇²F for Logistic and LeastSquares; nullopt for Softmax. */
    std::optional<Eigen::MatrixXd> globalHessian(const Eigen::VectorXd &x) const override;
    /** LeastSquares: the solution of the normal equations of F. Others: nullopt, unless
     *  options().referenceIterations > 0 (then the approximate FISTA solution, see there; cost
     *  per iteration a few F and ∇F evaluations, O(N·d) each). */
    std::optional<Eigen::VectorXd> closedFormOptimum() const override;
    /** Classifiers: accuracy on the pool (test = false) or the held-out split. */
    std::optional<double> accuracy(const Eigen::VectorXd &x, bool test) const override;
    /** type, loss, options, pool size, plus "gradient_l1_bound" (c_l of Assumption 5, when it
     *  holds: the clip, or max‖a‖_1 for unregularised logistic) and "lipschitz" (L of
     *  Assumption 3(iii), doubled when clipping, since radial ℓ1 clipping is 2-Lipschitz). */
    Json describe() const override;

    const StreamOptions &options() const { return mOptions; }
    int poolSize() const { return static_cast<int>(mFeatures.rows()); }
    int featureCount() const { return static_cast<int>(mFeatures.cols()); }
    /** K(t) = (t+1)·samplesPerIteration: samples learner i has received after iteration t. */
    long long samplesReceived(long long t) const;
    /** c_l for paper 000's accountant, or nullopt when ‖∇l‖_1 is not bounded. */
    std::optional<double> gradientL1Bound() const;
    /** L of paper 000's Assumption 3(iii) (ℓ2 → ℓ2), doubled under clipping. */
    double lipschitz() const;
    /** Learner i's sequence (pool rows, arrival order). */
    const std::vector<int> &sequence(int agent) const { return mAgents[agent].sequence; }

    /** Per-sample loss value and gradient (unclipped) of sample (a, b) at θ; for tests and
     *  callers that stream their own samples. grad must have size dimension(). */
    double sampleLoss(const Eigen::Ref<const Eigen::VectorXd> &theta,
                      const Eigen::Ref<const Eigen::VectorXd> &a, double b,
                      Eigen::Ref<Eigen::VectorXd> grad) const;

private:
    struct AgentStream {
        std::vector<int> sequence;            ///< pool rows, arrival order (length L)
        std::vector<int> poolRows;            ///< pool row of each distinct row
        Eigen::MatrixXd rows;                 ///< distinct rows, first-arrival order (P×d_f)
        Eigen::VectorXd labels;               ///< their labels
        std::vector<long long> firstArrival;  ///< ascending
        std::vector<std::vector<long long>> arrivals; ///< every arrival position of row u
        std::vector<int> distinctAt;          ///< distinct row of each sequence position
        Eigen::VectorXd rowL1;                ///< ‖a_u‖_1 of every distinct row (clip bound)
    };

    OnlineStreamProblem() = default;
    /** Fills `weights` (head P; the vector may be longer) with the multiplicity share of every
     *  distinct row of learner i received within positions [0, K); returns P. The multiplicities
     *  are kept per thread between calls (a cumulative stream's K grows by samplesPerIteration
     *  per iteration, so each call only counts the new arrivals); the result is the same exact
     *  integer count / K whatever was asked before. */
    Eigen::Index cumulativeWeights(int i, long long K, Eigen::VectorXd &weights) const;
    /** f and ∇f of a weighted sample set: rows A (P×d_f), labels b, weights w (Σw = 1 for the
     *  average); clip applies per sample when clip > 0. grad may be null; with wantValue false
     *  the returned value is 0 (not computed). rowL1 (‖a_u‖_1 per row, may be null) lets the
     *  clip skip samples whose gradient norm provably stays under it. */
    double weightedLoss(const Eigen::Ref<const Eigen::MatrixXd> &A,
                        const Eigen::Ref<const Eigen::VectorXd> &b,
                        const Eigen::Ref<const Eigen::VectorXd> &w,
                        const Eigen::Ref<const Eigen::VectorXd> &theta, double clip,
                        Eigen::VectorXd *grad, const Eigen::VectorXd *rowL1 = nullptr,
                        bool wantValue = true) const;
    /** f_t^i and ∇f_t^i for learner i (grad may be null; see weightedLoss for wantValue). */
    double agentLoss(int i, const Eigen::Ref<const Eigen::VectorXd> &theta, long long t,
                     Eigen::VectorXd *grad, bool wantValue = true) const;

    /** Distinguishes instances in the per-thread multiplicity cache (never reused). */
    std::uint64_t mInstance = 0;
    std::string mId;
    StreamOptions mOptions;
    int mDimension = 0;
    int mClasses = 1;
    Eigen::MatrixXd mFeatures;
    Eigen::VectorXd mLabels;
    Eigen::MatrixXd mTestFeatures;
    Eigen::VectorXd mTestLabels;
    std::vector<AgentStream> mAgents;
    /** Sequence population: learner i's distinct rows weighted by multiplicity / L_i. */
    std::vector<Eigen::VectorXd> mPopulationWeights;
};

/** "logistic", "least-squares", "softmax". */
const char *sampleLossName(SampleLoss loss);

/** The "online-logistic" problem type (problem/streamfactory.cpp): the logistic problem's data
 *  object plus the stream keys (samples_per_iteration, gradient, window, clip_l1, sampling,
 *  stream_iterations, seed). */
ProblemEntry onlineLogisticProblemEntry();

/** The stream keys every online-stream problem type shares (samples_per_iteration, gradient,
 *  window, clip_l1, sampling, stream_iterations, seed), for the factories. */
std::vector<ParamSpec> onlineStreamParams();

/** The "online-softmax" problem type: paper 000's online streams (cumulative or window gradient,
 *  ℓ1 clipping, c_l and L for its accountant) with the multiclass softmax loss, on the data object
 *  of online-multiclass (e.g. Fashion-MNIST's IDX files), with an optional held-out test set. */
ProblemEntry onlineSoftmaxProblemEntry();

} // namespace dplab
