// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/teaching/theory.h"

#include "dplab/common/formatnumber.h"
#include "dplab/graph/analysis.h"
#include "dplab/common/schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dplab {

std::vector<TheoryCurve> theoryRates(const RunSpec &run, const Problem *problem)
{
    std::vector<TheoryCurve> out;
    if (!run.algorithm)
        return out;
    for (const TheoryRate &rate : run.algorithm->theory) {
        if (!rate.whenParam.empty()) {
            if (!run.params.contains(rate.whenParam) || !run.params.at(rate.whenParam).is_string()
                || run.params.at(rate.whenParam).get<std::string>() != rate.whenValue)
                continue;
        }
        TheoryCurve curve;
        curve.metric = rate.metric;
        curve.citation = rate.citation;
        if (rate.kind == TheoryRate::Kind::Level) {
            if (!problem || !rate.level)
                continue;
            const bool compressed = run.compressorImpl && !run.compressorImpl->isIdentity();
            const TheoryLevel level = rate.level(TheoryRun{run.params, run.privacy, compressed, run.W, *problem});
            curve.level = true;
            curve.value = level.value;
            curve.why = level.why;
            curve.label = rate.label + (level.why.empty() ? " = " + level.label : std::string());
        } else if (rate.kind == TheoryRate::Kind::Power) {
            double e = rate.exponent;
            if (!rate.scheduleParam.empty()) {
                if (!run.params.contains(rate.scheduleParam))
                    continue;
                const Schedule s = paramSchedule(run.params, rate.scheduleParam);
                if (s.kind() != Schedule::Kind::Polynomial)
                    continue; // the theorem's rate assumes a polynomial schedule
                e += rate.scheduleFactor * s.p();
            }
            curve.exponent = e;
            curve.label = rate.label + " (t^" + formatNumber(e, 3) + ")";
        } else {
            const Eigen::MatrixXd &w = run.W.size() > 0 ? run.W : run.R;
            if (w.size() == 0)
                continue;
            const double rho = consensusRate(w);
            if (!(rho > 0) || !(rho < 1))
                continue;
            curve.linear = true;
            curve.exponent = rate.ratePower * std::log(rho);
            curve.label = rate.label + " (ρ = " + formatNumber(rho, 3) + ")";
        }
        out.push_back(std::move(curve));
    }
    return out;
}

std::vector<TheoryCurve> theoryCurves(const RunSpec &run, const std::vector<std::string> &names,
                                      const std::vector<long long> &iterations,
                                      const std::vector<std::vector<double>> &values, const Problem *problem)
{
    std::vector<TheoryCurve> out;
    for (TheoryCurve curve : theoryRates(run, problem)) {
        const auto it = std::find(names.begin(), names.end(), curve.metric);
        if (it == names.end())
            continue;
        if (curve.level) {
            if (curve.why.empty()) {
                curve.iterations = iterations;
                curve.values.assign(iterations.size(), curve.value);
            }
            out.push_back(std::move(curve));
            continue;
        }
        const std::size_t m = static_cast<std::size_t>(it - names.begin());
        const bool power = !curve.linear;
        // Anchor: first recorded point with a positive finite value (and t ≥ 1 for power laws).
        std::size_t anchor = iterations.size();
        for (std::size_t k = 0; k < iterations.size(); ++k) {
            const double v = m < values[k].size() ? values[k][m] : std::nan("");
            if (std::isfinite(v) && v > 0 && (!power || iterations[k] >= 1)) {
                anchor = k;
                break;
            }
        }
        if (anchor == iterations.size())
            continue;
        const double t0 = static_cast<double>(iterations[anchor]);
        const double v0 = values[anchor][m];
        for (std::size_t k = anchor; k < iterations.size(); ++k) {
            const double t = static_cast<double>(iterations[k]);
            const double v = power ? v0 * std::pow(t / t0, curve.exponent) : v0 * std::exp(curve.exponent * (t - t0));
            curve.iterations.push_back(iterations[k]);
            curve.values.push_back(v);
        }
        out.push_back(std::move(curve));
    }
    return out;
}

} // namespace dplab
