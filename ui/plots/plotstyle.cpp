// SPDX-License-Identifier: GPL-3.0-or-later
#include "plotstyle.h"

#include <qcustomplot.h>

#include <QPointer>

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>

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

/** The room a tick label takes along `axis`: its height on a vertical axis (a "10⁻³" label is
 *  as tall as its font: QCustomPlot raises the exponent inside the line), its width on a
 *  horizontal one, plus a gap of half a line so that neighbours read as separate numbers. */
double labelExtent(const QCPAxis *axis, const QString &label)
{
    const QFontMetricsF metrics(axis->tickLabelFont());
    const double gap = 0.5 * metrics.height();
    if (axis->orientation() == Qt::Vertical)
        return metrics.height() + gap;
    return metrics.horizontalAdvance(label) + gap;
}

/** The axis' length in pixels (its axis rectangle's height or width). */
int axisLength(const QCPAxis *axis)
{
    const QCPAxisRect *rect = axis->axisRect();
    return axis->orientation() == Qt::Vertical ? rect->height() : rect->width();
}

/** Drops ticks until no two labels overlap: keeps every k-th tick, counted from a fixed origin
 *  (the tick's own position in the pattern: index along the axis in steps of the smallest
 *  spacing, on a log axis in log space), so the labels kept do not jump as the view pans. */
void thinTicks(const QCPAxis *axis, QVector<double> &ticks, QVector<QString> *labels)
{
    if (ticks.size() < 2 || axisLength(axis) <= 0)
        return;
    const bool log = axis->scaleType() == QCPAxis::stLogarithmic;
    auto fits = [&](const QVector<int> &kept) {
        for (int i = 1; i < kept.size(); ++i) {
            const double room = 0.5 * (labelExtent(axis, labels ? labels->at(kept[i - 1]) : QString())
                                       + labelExtent(axis, labels ? labels->at(kept[i]) : QString()));
            if (std::abs(axis->coordToPixel(ticks[kept[i]]) - axis->coordToPixel(ticks[kept[i - 1]])) < room)
                return false;
        }
        return true;
    };
    QVector<int> all(ticks.size());
    std::iota(all.begin(), all.end(), 0);
    if (fits(all))
        return;
    // Each tick's place in the pattern: log ticks 1, 2, 5 × 10^k rank powers of ten first.
    auto order = [&](int i) {
        const double t = ticks[i];
        if (log) {
            const double e = std::log10(t);
            return std::abs(e - std::round(e)) < 1e-9 ? static_cast<long long>(std::llround(e)) : LLONG_MIN;
        }
        const double step = std::abs(ticks[1] - ticks[0]);
        return static_cast<long long>(std::llround(t / step));
    };
    for (long long k = 1; k < (1LL << 62); k *= 2) { // ends: one tick is left once k passes every index
        QVector<int> kept;
        for (int i = 0; i < ticks.size(); ++i) {
            const long long o = order(i);
            if (o != LLONG_MIN && ((o % k) + k) % k == 0)
                kept << i;
        }
        if (kept.isEmpty())
            kept << 0; // no power of ten in a narrow range: one label is still a scale
        if (fits(kept) || kept.size() <= 1) {
            QVector<double> t;
            QVector<QString> l;
            for (int i : std::as_const(kept)) {
                t << ticks[i];
                if (labels)
                    l << labels->at(i);
            }
            ticks = t;
            if (labels)
                *labels = l;
            return;
        }
    }
}

/** A ticker whose labels keep the exponent mark 'e' (withPlainExponent) and, given its axis,
 *  never overlap: it asks for as many ticks as the axis' length holds and drops the ones that
 *  would still collide (small live plots crowded "10⁻¹⁰ 10⁻⁸ …" into one smear). */
template <class Base>
class PlainExponentTicker : public Base
{
public:
    explicit PlainExponentTicker(QCPAxis *axis = nullptr) : mAxis(axis) {}

    void generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision, QVector<double> &ticks,
                  QVector<double> *subTicks, QVector<QString> *tickLabels) override
    {
        if (mAxis && axisLength(mAxis) > 0) {
            // About one label per extent along the axis, at most the QCustomPlot default of 5 steps.
            const double extent = labelExtent(mAxis, QStringLiteral("0.000"));
            this->setTickCount(std::clamp(int(axisLength(mAxis) / (1.5 * extent)), 1, 5));
        }
        Base::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
        if (mAxis)
            thinTicks(mAxis, ticks, tickLabels);
    }

protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override
    {
        return withPlainExponent(Base::getTickLabel(tick, locale, formatChar, precision), locale);
    }

private:
    QPointer<QCPAxis> mAxis;
};

/** Ticks 1, 2, 5 × 10^k: readable labels on a log axis that spans less than two decades. */
class OneTwoFiveTicker : public PlainExponentTicker<QCPAxisTicker>
{
public:
    using PlainExponentTicker<QCPAxisTicker>::PlainExponentTicker;

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
        QSharedPointer<QCPAxisTickerLog> ticker = makeLogTicker(axis);
        ticker->setSubTickCount(8);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
    } else if (!wide && isLogTicker) {
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new OneTwoFiveTicker(axis)));
        axis->setNumberFormat(QStringLiteral("g"));
        axis->setNumberPrecision(3);
    }
}

/** Ticks are chosen before QCustomPlot lays out the axis rectangles of a replot: after a resize
 *  (or when tick labels, a legend row or a subtitle come or go) they were fitted to the old
 *  length. When the layout changed the length, it is laid out once more before anything is
 *  drawn, so that the ticks fit the new length in the same replot (a second whole replot did
 *  that before: two redraws of every plot when a run's first rows arrive, docs/benchmarks.md,
 *  fourth pass). Should that layout change the length again, one more replot fits them (a
 *  vertical axis' length does not depend on its own labels, so this ends). */
void refitAfterResize(QCPAxis *axis)
{
    constexpr const char *kLength = "dplabTickLength";
    if (axis->property(kLength).isValid())
        return;
    axis->setProperty(kLength, axisLength(axis));
    QCustomPlot *plot = axis->parentPlot();
    QObject::connect(plot, &QCustomPlot::afterLayout, axis, [axis, plot] {
        const int length = axisLength(axis);
        if (axis->property(kLength).toInt() == length)
            return;
        axis->setProperty(kLength, length);
        // QCustomPlot::updateLayout's phases (it emits afterLayout, these do not).
        for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
            plot->plotLayout()->update(phase);
    });
    QObject::connect(plot, &QCustomPlot::afterReplot, axis, [axis, plot] {
        const int length = axisLength(axis);
        if (axis->property(kLength).toInt() != length) {
            axis->setProperty(kLength, length);
            plot->replot(QCustomPlot::rpQueuedReplot);
        }
    });
}

} // namespace

QSharedPointer<QCPAxisTicker> makeTicker(QCPAxis *axis)
{
    if (axis)
        refitAfterResize(axis);
    return QSharedPointer<QCPAxisTicker>(new PlainExponentTicker<QCPAxisTicker>(axis));
}

QSharedPointer<QCPAxisTickerLog> makeLogTicker(QCPAxis *axis)
{
    if (axis)
        refitAfterResize(axis);
    return QSharedPointer<QCPAxisTickerLog>(new PlainExponentTicker<QCPAxisTickerLog>(axis));
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
        QSharedPointer<QCPAxisTickerLog> ticker = makeLogTicker(axis);
        ticker->setSubTickCount(8);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
        chooseTicker(axis);
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(makeTicker(axis));
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(4);
    }
}

QColor plotSeriesColor(int index)
{
    static const QColor colors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                                    QColor(0xff, 0x7f, 0x0e), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b)};
    return colors[index % 6];
}

} // namespace dplab
