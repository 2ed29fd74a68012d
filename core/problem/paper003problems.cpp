// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/paper003problems.h"

#include <Eigen/Cholesky>

#include <cassert>

namespace dplab {

namespace {

Json matrixJson(const Eigen::MatrixXd &m)
{
    Json rows = Json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        Json row = Json::array();
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            row.push_back(m(i, j));
        rows.push_back(row);
    }
    return rows;
}

Json vectorJson(const Eigen::VectorXd &v)
{
    Json out = Json::array();
    for (Eigen::Index i = 0; i < v.size(); ++i)
        out.push_back(v[i]);
    return out;
}

} // namespace

// --- Rendezvous ------------------------------------------------------------------------------

RendezvousProblem::RendezvousProblem(Eigen::MatrixXd points, Json facts)
    : mPoints(std::move(points)), mFacts(std::move(facts))
{
    assert(mPoints.rows() >= 1 && mPoints.cols() >= 1 && "RendezvousProblem: empty points");
}

void RendezvousProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X,
                               Eigen::Ref<Eigen::VectorXd> out, long long) const
{
    out = (X - mPoints).rowwise().squaredNorm();
}

void RendezvousProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                  Eigen::Ref<Eigen::MatrixXd> out, long long) const
{
    out = 2.0 * (X - mPoints);
}

double RendezvousProblem::globalValue(const Eigen::VectorXd &x) const
{
    return (mPoints.rowwise() - x.transpose()).rowwise().squaredNorm().mean();
}

Eigen::VectorXd RendezvousProblem::globalGradient(const Eigen::VectorXd &x) const
{
    return 2.0 * (x - mPoints.colwise().mean().transpose());
}

std::optional<Eigen::MatrixXd> RendezvousProblem::globalHessian(const Eigen::VectorXd &) const
{
    return Eigen::MatrixXd(2.0 * Eigen::MatrixXd::Identity(dimension(), dimension()));
}

std::optional<Eigen::VectorXd> RendezvousProblem::closedFormOptimum() const
{
    return Eigen::VectorXd(mPoints.colwise().mean().transpose());
}

Json RendezvousProblem::describe() const
{
    Json out = mFacts;
    out["type"] = id();
    out["objective"] = "f_i(x) = ‖x − a_i‖²";
    out["agents"] = agentCount();
    out["dimension"] = dimension();
    out["points"] = matrixJson(mPoints);
    out["strong_convexity"] = 2.0; // local μ of every f_i
    out["smoothness"] = 2.0;       // local L of every f_i
    return out;
}

// --- Single-sample ridge (paper 003 Sec. 5.2) ------------------------------------------------

SingleSampleRidgeProblem::SingleSampleRidgeProblem(Eigen::MatrixXd features, Eigen::VectorXd targets,
                                                   double penalty, Json facts)
    : mU(std::move(features)), mV(std::move(targets)), mPenalty(penalty), mFacts(std::move(facts))
{
    assert(mU.rows() == mV.size() && mU.rows() >= 1 && "SingleSampleRidgeProblem: shapes");
    assert(penalty > 0 && "SingleSampleRidgeProblem: the penalty must be > 0");
}

void SingleSampleRidgeProblem::values(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                      Eigen::Ref<Eigen::VectorXd> out, long long) const
{
    const Eigen::VectorXd residual = X.cwiseProduct(mU).rowwise().sum() - mV;
    out = residual.cwiseAbs2() + mPenalty * X.rowwise().squaredNorm();
}

void SingleSampleRidgeProblem::gradients(const Eigen::Ref<const Eigen::MatrixXd> &X,
                                         Eigen::Ref<Eigen::MatrixXd> out, long long) const
{
    // Row-wise: 2 u_i (u_iᵀx_i − v_i) + 2ρ x_i, without temporaries in the loop.
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const double residual = X.row(i).dot(mU.row(i)) - mV[i];
        out.row(i) = 2.0 * residual * mU.row(i) + 2.0 * mPenalty * X.row(i);
    }
}

double SingleSampleRidgeProblem::globalValue(const Eigen::VectorXd &x) const
{
    return ((mU * x - mV).squaredNorm()) / static_cast<double>(agentCount()) + mPenalty * x.squaredNorm();
}

Eigen::VectorXd SingleSampleRidgeProblem::globalGradient(const Eigen::VectorXd &x) const
{
    return 2.0 * mU.transpose() * (mU * x - mV) / static_cast<double>(agentCount()) + 2.0 * mPenalty * x;
}

std::optional<Eigen::MatrixXd> SingleSampleRidgeProblem::globalHessian(const Eigen::VectorXd &) const
{
    const double n = static_cast<double>(agentCount());
    return Eigen::MatrixXd(2.0 / n * mU.transpose() * mU
                           + 2.0 * mPenalty * Eigen::MatrixXd::Identity(dimension(), dimension()));
}

std::optional<Eigen::VectorXd> SingleSampleRidgeProblem::closedFormOptimum() const
{
    const double n = static_cast<double>(agentCount());
    const Eigen::MatrixXd H = mU.transpose() * mU + n * mPenalty * Eigen::MatrixXd::Identity(dimension(), dimension());
    return Eigen::VectorXd(H.ldlt().solve(mU.transpose() * mV));
}

double SingleSampleRidgeProblem::localSmoothness() const
{
    return 2.0 * (mU.rowwise().squaredNorm().maxCoeff() + mPenalty);
}

Json SingleSampleRidgeProblem::describe() const
{
    Json out = mFacts;
    out["type"] = id();
    out["objective"] = "f_i(x) = (u_iᵀx − v_i)² + ρ‖x‖²";
    out["agents"] = agentCount();
    out["dimension"] = dimension();
    out["penalty"] = mPenalty;
    out["features"] = matrixJson(mU);
    out["targets"] = vectorJson(mV);
    out["optimum"] = vectorJson(*closedFormOptimum());
    out["strong_convexity"] = localStrongConvexity(); // min_i μ_i
    out["smoothness"] = localSmoothness();            // max_i L_i
    return out;
}

SingleSampleRidgeProblem paper003RidgeData(int agents, int dimension, double penalty,
                                           double noiseStd, Rng &rng)
{
    assert(agents >= 1 && dimension >= 1 && "paper003RidgeData: sizes");
    Eigen::MatrixXd u(agents, dimension), truth(agents, dimension);
    Eigen::VectorXd v(agents);
    for (int i = 0; i < agents; ++i) {
        for (int j = 0; j < dimension; ++j)
            u(i, j) = rng.uniform(-1.0, 1.0);
        for (int j = 0; j < dimension; ++j)
            truth(i, j) = rng.uniform(0.0, 10.0);
        v[i] = u.row(i).dot(truth.row(i)) + noiseStd * rng.gaussian();
    }
    const double n = static_cast<double>(agents);
    const Eigen::MatrixXd H = u.transpose() * u + n * penalty * Eigen::MatrixXd::Identity(dimension, dimension);
    Eigen::VectorXd printedRhs = Eigen::VectorXd::Zero(dimension);
    for (int i = 0; i < agents; ++i)
        printedRhs += u.row(i).transpose() * u.row(i).dot(truth.row(i));
    Json facts;
    facts["generator"] = "paper 003 Sec. 5.2: u_i ~ U[-1,1]^r, x~_i ~ U[0,10]^r, "
                         "v_i = u_i^T x~_i + N(0, noise_std^2)";
    facts["noise_std"] = noiseStd;
    facts["truth"] = matrixJson(truth);
    facts["printed_optimum"] = vectorJson(H.ldlt().solve(printedRhs));
    return SingleSampleRidgeProblem(std::move(u), std::move(v), penalty, std::move(facts));
}

} // namespace dplab
