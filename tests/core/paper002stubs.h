// SPDX-License-Identifier: GPL-3.0-or-later
// TEMPORARY (phase 1 of issue 5): the default Problem virtuals are defined by the problem area
// (core/problem/problem.cpp), which is not in this branch yet. Include this header in exactly
// one translation unit per test executable; remove it when the problem area is merged.
#pragma once

#include "dplab/problem/problem.h"

namespace dplab {

double Problem::globalValue(const Eigen::VectorXd &x) const
{
    const int n = agentCount();
    const Eigen::MatrixXd X = x.transpose().replicate(n, 1);
    Eigen::VectorXd out(n);
    values(X, out);
    return out.mean();
}

Eigen::VectorXd Problem::globalGradient(const Eigen::VectorXd &x) const
{
    const int n = agentCount();
    const Eigen::MatrixXd X = x.transpose().replicate(n, 1);
    Eigen::MatrixXd out(n, x.size());
    gradients(X, out);
    return out.colwise().mean().transpose();
}

std::optional<Eigen::MatrixXd> Problem::globalHessian(const Eigen::VectorXd &) const
{
    return std::nullopt;
}

std::optional<Eigen::VectorXd> Problem::closedFormOptimum() const
{
    return std::nullopt;
}

std::optional<double> Problem::accuracy(const Eigen::VectorXd &, bool) const
{
    return std::nullopt;
}

} // namespace dplab
