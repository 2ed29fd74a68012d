// SPDX-License-Identifier: GPL-3.0-or-later
#include "plotstyle.h"

#include <qcustomplot.h>

#include <cmath>

namespace dplab {

namespace {

constexpr const char *kFollowProperty = "dplabLogTickerFollows";

/** QCustomPlot 2.1 draws "1e-01" as 10⁻¹ (number format "eb") only when the label's exponent
 *  mark is a lower-case 'e'; QLocale writes it the locale's way ("1E-01" in German), so under
 *  such a locale the axes read "1E-01". The exponent mark here is always 'e', the decimal
 *  separator stays the locale's ("2,5"). */
QString withPlainExponent(QString text, const QLocale &locale)
{
    const QString mark = locale.exponential();
    if (!mark.isEmpty() && mark != QLatin1String("e"))
        text.replace(mark, QLatin1String("e"));
    return text;
}

template <class Base>
class PlainExponentTicker : public Base
{
protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override
    {
        return withPlainExponent(Base::getTickLabel(tick, locale, formatChar, precision), locale);
    }
};

/** Ticks 1, 2, 5 × 10^k: readable labels on a log axis that spans less than two decades. */
class OneTwoFiveTicker : public PlainExponentTicker<QCPAxisTicker>
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
        QSharedPointer<QCPAxisTickerLog> ticker = makeLogTicker();
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

QSharedPointer<QCPAxisTicker> makeTicker()
{
    return QSharedPointer<QCPAxisTicker>(new PlainExponentTicker<QCPAxisTicker>);
}

QSharedPointer<QCPAxisTickerLog> makeLogTicker()
{
    return QSharedPointer<QCPAxisTickerLog>(new PlainExponentTicker<QCPAxisTickerLog>);
}

void setLogAxis(QCPAxis *axis, bool logarithmic)
{
    if (!axis->property(kFollowProperty).toBool()) {
        axis->setProperty(kFollowProperty, true);
        QObject::connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), axis,
                         [axis](const QCPRange &) { chooseTicker(axis); });
    }
    if (logarithmic) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        QSharedPointer<QCPAxisTickerLog> ticker = makeLogTicker();
        ticker->setSubTickCount(8);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
        chooseTicker(axis);
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(makeTicker());
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(4);
    }
}

} // namespace dplab
