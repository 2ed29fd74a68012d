// SPDX-License-Identifier: GPL-3.0-or-later
#include "metricnames.h"

#include "dplab/engine/metricnames.h"
#include "dplab/engine/metrics.h"

#include <QCoreApplication>

namespace dplab {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Metrics", text);
}

bool is(const QString &metric, const char *name)
{
    return metric == QLatin1String(name);
}

} // namespace

QString metricTitle(const QString &metric)
{
    // The names live in core (metricDisplayName), shared with the run report; translated here.
    return QCoreApplication::translate("Metrics", metricDisplayName(metric.toStdString()).c_str());
}

QString metricFormula(const QString &metric)
{
    if (is(metric, metric::ConsensusError))
        return QStringLiteral("(1/n) Σᵢ ‖xᵢ − x̄‖²");
    if (is(metric, metric::DistanceToOptimum))
        return QStringLiteral("(1/n) Σᵢ ‖xᵢ − x*‖");
    if (is(metric, metric::OptimalityGap))
        return QStringLiteral("F(x̄) − F*");
    if (is(metric, metric::GradientNorm))
        return QStringLiteral("‖∇F(x̄)‖");
    if (is(metric, metric::AverageLoss))
        return QStringLiteral("AL(t)");
    if (is(metric, metric::Regret))
        return QStringLiteral("regret(t)");
    if (is(metric, metric::Epsilon))
        return QStringLiteral("maxᵢ εᵢ(t)");
    if (is(metric, metric::Bits))
        return tr("bits");
    if (is(metric, metric::TrainAccuracy) || is(metric, metric::TestAccuracy))
        return tr("accuracy of x̄");
    if (is(metric, metric::Residual))
        return QStringLiteral("min_τ ‖x_τ − x^∞‖²");
    return metric;
}

bool metricPrefersLogAxis(const QString &metric)
{
    return is(metric, metric::ConsensusError) || is(metric, metric::DistanceToOptimum)
           || is(metric, metric::OptimalityGap) || is(metric, metric::GradientNorm) || is(metric, metric::Epsilon)
           || is(metric, metric::Residual);
}

QStringList accuracyMetrics()
{
    return {QLatin1String(metric::DistanceToOptimum), QLatin1String(metric::OptimalityGap),
            QLatin1String(metric::GradientNorm),      QLatin1String(metric::Regret),
            QLatin1String(metric::AverageLoss),       QLatin1String(metric::TestAccuracy),
            QLatin1String(metric::TrainAccuracy),     QLatin1String(metric::Residual)};
}

} // namespace dplab
