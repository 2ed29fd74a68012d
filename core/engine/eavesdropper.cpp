// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/eavesdropper.h"

#include "dplab/problem/objectives.h"

#include <cmath>

namespace dplab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/** σ(z) = 1 / (1 + e^(−z)) without overflow. */
double sigmoid(double z)
{
    if (z >= 0)
        return 1.0 / (1.0 + std::exp(-z));
    const double e = std::exp(z);
    return e / (1.0 + e);
}

/** The root of a monotone f on [lo, hi] (f(lo), f(hi) of opposite signs or zero), by bisection
 *  to the last representable digit. */
template <typename F>
double bisect(F f, double lo, double hi)
{
    double flo = f(lo);
    if (flo == 0)
        return lo;
    for (int k = 0; k < 2000; ++k) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi)
            break;
        const double fm = f(mid);
        if (fm == 0)
            return mid;
        if ((fm < 0) == (flo < 0)) {
            lo = mid;
            flo = fm;
        } else {
            hi = mid;
        }
    }
    return 0.5 * (lo + hi);
}

double relativeError(const Eigen::VectorXd &estimate, const Eigen::VectorXd &truth)
{
    const double scale = truth.norm();
    const double diff = (estimate - truth).norm();
    return scale > 0 ? diff / scale : diff;
}

std::string supportedList()
{
    std::string list;
    for (const auto &d : algorithmRegistry())
        if (d.attack.kind != AttackSurface::Kind::None)
            list += (list.empty() ? "" : ", ") + d.id;
    return list;
}

} // namespace

Result<EavesdropperSpec> parseEavesdropper(const Json &json, const std::string &path, int agents)
{
    if (!json.is_object())
        return Error::invalid(path, "must be an object such as {\"agent\": 0}");
    EavesdropperSpec spec;
    for (auto it = json.begin(); it != json.end(); ++it)
        if (it.key() != "agent")
            return Error::invalid(joinPath(path, it.key()), "unknown key (expected: agent)");
    if (json.contains("agent")) {
        const Json &a = json.at("agent");
        if (!a.is_number_integer() || a.get<long long>() < 0 || a.get<long long>() >= agents)
            return Error::invalid(joinPath(path, "agent"),
                                  "must be an agent index in [0, " + std::to_string(agents - 1) + "]");
        spec.agent = static_cast<int>(a.get<long long>());
    }
    return spec;
}

Json eavesdropperToJson(const EavesdropperSpec &spec)
{
    return Json{{"agent", spec.agent}};
}

std::vector<Eigen::VectorXd> invertLogisticGradient(const Eigen::VectorXd &r, const Eigen::VectorXd &x)
{
    const double rho = r.norm();
    if (!(rho > 0) || !std::isfinite(rho))
        return {};
    const Eigen::VectorXd u = -r / rho;
    const double p = u.dot(x);
    auto g = [&](double beta) { return beta * sigmoid(-beta * p) - rho; };
    std::vector<double> betas;
    if (p <= 0) {
        // σ(−βp) ∈ [1/2, 1): the root lies in [ρ, 2ρ] and is unique.
        betas.push_back(bisect(g, rho, 2 * rho));
    } else {
        // β σ(−βp) peaks at β* = u*/p with u* σ(u*) = 1, where it is (u* − 1)/p.
        const double uStar = bisect([](double v) { return v * sigmoid(v) - 1.0; }, 0.0, 10.0);
        const double betaStar = uStar / p;
        if (rho >= (uStar - 1.0) / p) {
            betas.push_back(betaStar); // no exact root (noisy input): the closest fit
        } else {
            betas.push_back(bisect(g, 0.0, betaStar));
            double hi = 2 * betaStar;
            while (g(hi) > 0 && hi < 1e300)
                hi *= 2;
            betas.push_back(bisect(g, betaStar, hi));
        }
    }
    std::vector<Eigen::VectorXd> out;
    for (double beta : betas)
        out.push_back(beta * u);
    return out;
}

std::optional<Eigen::VectorXd> invertLinearGradients(const Eigen::VectorXd &r1, const Eigen::VectorXd &x1,
                                                     const Eigen::VectorXd &r2, const Eigen::VectorXd &x2)
{
    const Eigen::VectorXd u = r1 - r2;
    const Eigen::VectorXd delta = x1 - x2;
    const double q = delta.dot(u);
    if (!(std::abs(q) > 0) || !std::isfinite(q))
        return std::nullopt;
    const Eigen::VectorXd a = u / std::sqrt(std::abs(q));
    const double aa = a.squaredNorm();
    if (!(aa > 0))
        return std::nullopt;
    Eigen::VectorXd out(a.size() + 1);
    out.head(a.size()) = a;
    out[a.size()] = a.dot(x1) - r1.dot(a) / aa;
    return out;
}

std::string attackableAlgorithms()
{
    return supportedList();
}

Result<std::unique_ptr<Eavesdropper>> Eavesdropper::create(const AlgorithmDescriptor &algorithm,
                                                          const RunContext &context, int agent)
{
    const AttackSurface &surface = algorithm.attack;
    if (surface.kind == AttackSurface::Kind::None)
        return Error::unsupported("eavesdropper", algorithm.id + " has no modelled attack (supported: "
                                                      + supportedList() + ")");
    const int n = static_cast<int>(context.x0.rows());
    if (agent < 0 || agent >= n)
        return Error::invalid("eavesdropper.agent", "must be an agent index in [0, " + std::to_string(n - 1) + "]");
    std::unique_ptr<Eavesdropper> e(new Eavesdropper());
    e->mSurface = surface;
    e->mAlgorithm = algorithm.id;
    e->mAgent = agent;
    e->mAgents = n;
    e->mProblem = context.problem;
    // The matrix the observed update mixes with (public): W, or C for the tracker over G_C,
    // R for decisions over G_R.
    const bool tracker = surface.kind != AttackSurface::Kind::DecisionStep;
    const Eigen::MatrixXd &M = algorithm.weights == WeightNeeds::Doubly ? context.W : (tracker ? context.C : context.R);
    if (M.rows() != n || M.cols() != n)
        return Error::unsupported("eavesdropper", "the run's weight matrix is not available");
    e->mRow = M.row(agent).transpose();
    e->mStep = paramSchedule(context.params, surface.stepParam);

    const int d = static_cast<int>(context.x0.cols());
    e->mCleanX = Eigen::MatrixXd::Zero(n, d);
    e->mTrueGrad = Eigen::MatrixXd::Zero(n, d);
    e->mModel = context.problem->id();
    if (!context.problem->isOnline()) {
        if (const auto *logistic = dynamic_cast<const LogisticProblem *>(context.problem.get());
            logistic && logistic->samples().count(agent) == 1) {
            e->mTarget = Target::LogisticSample;
            e->mLambda = logistic->lambda();
            e->mDataTrue = logistic->samples().labels(agent)[0] * logistic->samples().features(agent).row(0).transpose();
        } else if (const auto *linear = dynamic_cast<const LeastSquaresProblem *>(context.problem.get());
                   linear && linear->samples().count(agent) == 1) {
            e->mTarget = Target::LinearSample;
            e->mLambda = linear->lambda();
            e->mDataTrue.resize(d + 1);
            e->mDataTrue.head(d) = linear->samples().features(agent).row(0).transpose();
            e->mDataTrue[d] = linear->samples().labels(agent)[0];
        }
    }
    return e;
}

std::string Eavesdropper::description() const
{
    std::string what;
    switch (mTarget) {
    case Target::LogisticSample:
        what = "its data point b = y·a (logistic regression, one sample; the gradient is −σ(−bᵀx)·b)";
        break;
    case Target::LinearSample:
        what = "its data point (a, y) up to a common sign (least squares, one sample; the gradient is (aᵀx − y)·a)";
        break;
    case Target::Gradient:
        what = "its local gradients ∇f_i(x_i(k)) (the " + mModel + " problem admits no closed-form inversion)";
        break;
    }
    return "an eavesdropper on agent " + std::to_string(mAgent) + "'s links reconstructs " + what
           + " from the " + mAlgorithm + " messages";
}

double Eavesdropper::error() const
{
    return mTarget == Target::Gradient ? mGradientError : mDataError;
}

const Message *Eavesdropper::find(const std::vector<Message> &messages, int sender, const std::string &channel) const
{
    for (const Message &m : messages)
        if (m.sender == sender && m.channel == channel)
            return &m;
    return nullptr;
}

Eigen::VectorXd Eavesdropper::mixRow(const std::vector<Message> &messages, const std::string &channel) const
{
    Eigen::VectorXd out;
    for (int j = 0; j < mAgents; ++j) {
        if (mRow[j] == 0.0)
            continue;
        const Message *m = find(messages, j, channel);
        if (!m)
            return {};
        if (out.size() == 0)
            out = Eigen::VectorXd::Zero(m->sent.size());
        out += mRow[j] * m->sent;
    }
    return out;
}

void Eavesdropper::observe(long long k, const std::vector<Message> &messages)
{
    const Message *decision = find(messages, mAgent, mSurface.decisionChannel);
    if (!decision || k != mObserved + 1)
        return; // not recorded this iteration, or a gap: nothing can be reconstructed
    mObserved = k;

    // Truth (scoring only): every agent's clean decision and the problem's gradients at k.
    for (const Message &m : messages)
        if (m.channel == mSurface.decisionChannel && m.sender >= 0 && m.sender < mAgents
            && m.clean.size() == mCleanX.cols())
            mCleanX.row(m.sender) = m.clean.transpose();
    mProblem->gradients(mCleanX, mTrueGrad, k);
    const Eigen::VectorXd trueNow = mTrueGrad.row(mAgent).transpose();

    switch (mSurface.kind) {
    case AttackSurface::Kind::DecisionStep: {
        // ĝ(k−1) = (Σ_j W_ij m_j(k−1) − m_i(k)) / α_{k−1}
        if (k > 0 && mPrevMix.size() > 0)
            reconstructed(k - 1, (mPrevMix - decision->sent) / mStep.at(k - 1), mPrevSent, mPrevTrue);
        mPrevMix = mixRow(messages, mSurface.decisionChannel);
        break;
    }
    case AttackSurface::Kind::TrackerDifference: {
        const Message *y = find(messages, mAgent, mSurface.trackerChannel);
        if (!y)
            return;
        // ĝ(0) = m_i(0); ĝ(k) = ĝ(k−1) + m_i(k) − Σ_j M_ij m_j(k−1)
        if (k == 0)
            mTracked = y->sent;
        else if (mPrevMix.size() > 0)
            mTracked += y->sent - mPrevMix;
        reconstructed(k, mTracked, decision->sent, trueNow);
        mPrevMix = mixRow(messages, mSurface.trackerChannel);
        break;
    }
    case AttackSurface::Kind::StepInsideTracker: {
        const Message *s = find(messages, mAgent, mSurface.trackerChannel);
        if (!s)
            return;
        // ĝ(k−1) = (m_i(k) − Σ_j C_ij m_j(k−1)) / λ_{k−1}
        if (k > 0 && mPrevMix.size() > 0)
            reconstructed(k - 1, (s->sent - mPrevMix) / mStep.at(k - 1), mPrevSent, mPrevTrue);
        mPrevMix = mixRow(messages, mSurface.trackerChannel);
        break;
    }
    case AttackSurface::Kind::None:
        break;
    }
    mPrevSent = decision->sent;
    mPrevTrue = trueNow;
}

void Eavesdropper::reconstructed(long long k, const Eigen::VectorXd &gradient, const Eigen::VectorXd &decision,
                                 const Eigen::VectorXd &truth)
{
    mNewest = k;
    mGradient = gradient;
    mGradientTrue = truth;
    mGradientError = relativeError(gradient, truth);
    if (mTarget == Target::Gradient)
        return;
    const Eigen::VectorXd r = gradient - mLambda * decision;
    const bool first = !mHaveAnchor;
    if (first) {
        mHaveAnchor = true;
        mAnchorR = r;
        mAnchorX = decision;
    }
    mDataError = kNaN;
    if (mTarget == Target::LogisticSample) {
        const auto candidates = invertLogisticGradient(r, decision);
        if (candidates.empty())
            return;
        // Two roots and no earlier gradient to tell them apart: both explain what was heard, so
        // the attacker has no estimate yet (the error stays undefined until the next message).
        if (first && candidates.size() > 1)
            return;
        // Two roots: keep the one that also explains the anchor gradient.
        std::size_t best = 0;
        double bestMiss = std::numeric_limits<double>::infinity();
        for (std::size_t c = 0; c < candidates.size(); ++c) {
            const Eigen::VectorXd &b = candidates[c];
            const double miss = (-sigmoid(-b.dot(mAnchorX)) * b - mAnchorR).norm();
            if (miss < bestMiss) {
                bestMiss = miss;
                best = c;
            }
        }
        mData = candidates[best];
        mDataError = relativeError(mData, mDataTrue);
        return;
    }
    if (first)
        return; // least squares needs a second gradient
    const auto estimate = invertLinearGradients(r, decision, mAnchorR, mAnchorX);
    if (!estimate)
        return;
    mData = *estimate;
    mDataError = std::min(relativeError(mData, mDataTrue), relativeError(-mData, mDataTrue));
}

} // namespace dplab
