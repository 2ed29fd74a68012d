// SPDX-License-Identifier: GPL-3.0-or-later
#include "plotstyle.h"

#include <qcustomplot.h>

#include <cmath>

namespace dplab {

namespace {

constexpr const char *kFollowProperty = "dplabLogTickerFollows";

/** Ticks 1, 2, 5 × 10^k: readable labels on a log axis that spans less than two decades. */
class OneTwoFiveTicker : public QCPAxisTicker
{
protected:
    QVector<double> createTickVector(double, const QCPRange &range) override
    {
        QVector<double> ticks;
        if (range.lower <= 0)
            return ticks;
        const int first = int(std::floor(std::log10(range.lower)));
        const int last = int(std::ceil(std::log10(range.upper)));
        for (int e = first; e <= last; ++e)
            for (double m : {1.0, 2.0, 5.0}) {
                const double v = m * std::pow(10.0, e);
                if (v >= range.lower && v <= range.upper)
                    ticks << v;
            }
        return ticks;
    }
    int getSubTickCount(double) override { return 0; }
};

void chooseTicker(QCPAxis *axis)
{
    if (axis->scaleType() != QCPAxis::stLogarithmic)
        return;
    const QCPRange r = axis->range();
    const bool wide = r.lower > 0 && r.upper / r.lower >= 100.0;
    const bool isLogTicker = !axis->ticker().dynamicCast<QCPAxisTickerLog>().isNull();
    if (wide && !isLogTicker) {
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        ticker->setSubTickCount(8);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
    } else if (!wide && isLogTicker) {
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new OneTwoFiveTicker));
        axis->setNumberFormat(QStringLiteral("g"));
        axis->setNumberPrecision(3);
    }
}

} // namespace

void setLogAxis(QCPAxis *axis, bool logarithmic)
{
    if (!axis->property(kFollowProperty).toBool()) {
        axis->setProperty(kFollowProperty, true);
        QObject::connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), axis,
                         [axis](const QCPRange &) { chooseTicker(axis); });
    }
    if (logarithmic) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        ticker->setSubTickCount(8);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
        chooseTicker(axis);
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(4);
    }
}

} // namespace dplab
