// SPDX-License-Identifier: GPL-3.0-or-later
//
// Privacy accountants: per-agent cumulative ε(t) as an algorithm's own paper defines it.
// An accountant is updated once per iteration by the algorithm that owns it and is queried
// (side-effect free) by the runner for the `epsilon` metric.
//
// Threading: owned by one algorithm instance; not thread-safe.
#pragma once

#include <Eigen/Core>

#include <string>
#include <vector>

namespace dplab {

/** Another bound on the same releases (e.g. a theorem's literal finite-horizon form next to the
 *  iterated one), per agent: drawn as a dashed comparison, never used as the run's ε. */
struct AlternativeBound {
    std::string name;
    Eigen::VectorXd epsilon;
};

class PrivacyAccountant
{
public:
    virtual ~PrivacyAccountant() = default;
    /** Which accountant this is, e.g. "paper 000 Theorem 3 (iterated sensitivity)". */
    virtual std::string name() const = 0;
    /** Per-agent cumulative ε after the iterations accounted so far. */
    virtual const Eigen::VectorXd &epsilon() const = 0;
    /** The assumptions the guarantee rests on, in plain words (for the report). */
    virtual std::vector<std::string> assumptions() const { return {}; }
    /** Other bounds this accountant tracks alongside epsilon(), same agents and iterations. */
    virtual std::vector<AlternativeBound> alternatives() const { return {}; }
};

/** Basic sequential composition of Laplace mechanisms: ε_i(t) = Σ_{k<t} Δ_i(k) / b_i(k).
 *  The generic comparison accountant; algorithms with their own theorem use their own. */
class BasicCompositionAccountant : public PrivacyAccountant
{
public:
    explicit BasicCompositionAccountant(int agents, std::string name = "basic composition");
    std::string name() const override { return mName; }
    const Eigen::VectorXd &epsilon() const override { return mEpsilon; }
    /** Adds one Laplace release per agent with sensitivity delta(i) and scale b(i). */
    void add(const Eigen::Ref<const Eigen::VectorXd> &delta, const Eigen::Ref<const Eigen::VectorXd> &b);

private:
    std::string mName;
    Eigen::VectorXd mEpsilon;
};

} // namespace dplab
