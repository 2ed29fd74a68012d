// SPDX-License-Identifier: GPL-3.0-or-later
#include "presentationscale.h"

#include "legendfit.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QSettings>

#include <algorithm>
#include <cmath>

namespace dplab {

namespace {

constexpr const char *kSettingsKey = "view/presentationScale";
constexpr const char *kBaseSize = "dplabBasePointSize";
constexpr const char *kBaseWidth = "dplabBasePenWidth";

// Point sizes at factor 1 relative to the application font (tick labels as large as the text
// of the window: the comparison view's ticks were ~8 px).
constexpr double kTickRelative = 1.0;
constexpr double kLabelRelative = 1.0;
constexpr double kLegendRelative = 0.95;

void setFontSize(QFont &font, double points)
{
    if (std::abs(font.pointSizeF() - points) > 0.01)
        font.setPointSizeF(points);
}

double appPointSize()
{
    const QFont f = QApplication::font();
    return f.pointSizeF() > 0 ? f.pointSizeF() : 9.0;
}

void applyTo(QCustomPlot *plot)
{
    const double f = PresentationScale::factor();
    const double base = appPointSize(); // already scaled by f (the application font follows)
    for (QCPAxisRect *rect : plot->axisRects())
        for (QCPAxis *axis : rect->axes()) {
            QFont tick = axis->tickLabelFont();
            setFontSize(tick, base * kTickRelative);
            if (tick != axis->tickLabelFont())
                axis->setTickLabelFont(tick);
            QFont label = axis->labelFont();
            setFontSize(label, base * kLabelRelative);
            if (label != axis->labelFont())
                axis->setLabelFont(label);
            QPen pen = axis->basePen();
            if (std::abs(pen.widthF() - f) > 0.01) {
                pen.setWidthF(f);
                axis->setBasePen(pen);
                QPen tickPen = axis->tickPen();
                tickPen.setWidthF(f);
                axis->setTickPen(tickPen);
            }
        }
    if (plot->legend) {
        // No empty legend box (a frame over the eavesdropper and frontier plots before they had
        // curves): hidden while it has no entry, shown again with its first.
        constexpr const char *kHiddenEmpty = "dplabLegendHiddenEmpty";
        if (plot->legend->visible() && plot->legend->itemCount() == 0) {
            plot->legend->setVisible(false);
            plot->setProperty(kHiddenEmpty, true);
        } else if (plot->legend->itemCount() > 0 && plot->property(kHiddenEmpty).toBool()) {
            plot->legend->setVisible(true);
            plot->setProperty(kHiddenEmpty, false);
        }
        QFont legend = plot->legend->font();
        setFontSize(legend, base * kLegendRelative);
        if (legend != plot->legend->font())
            plot->legend->setFont(legend);
        // Compact: never more than a quarter of the plot (4 runs at 1280×720 took half).
        fitLegend(plot, plot->legend);
    }
    // Titles and notes: their own size at factor 1, remembered on first sight.
    const QList<QCPLayoutElement *> elements = plot->plotLayout()->elements(true);
    for (QCPLayoutElement *element : elements) {
        auto *text = qobject_cast<QCPTextElement *>(element);
        if (!text)
            continue;
        if (!text->property(kBaseSize).isValid())
            text->setProperty(kBaseSize, text->font().pointSizeF() > 0 ? text->font().pointSizeF() : 9.0);
        QFont font = text->font();
        setFontSize(font, text->property(kBaseSize).toDouble() * f);
        if (font != text->font())
            text->setFont(font);
    }
    // Curves: their width at factor 1, remembered on first sight.
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *p = plot->plottable(i);
        QPen pen = p->pen();
        if (pen.style() == Qt::NoPen)
            continue;
        if (!p->property(kBaseWidth).isValid())
            p->setProperty(kBaseWidth, pen.widthF() > 0 ? pen.widthF() : 1.0);
        const double width = p->property(kBaseWidth).toDouble() * f;
        if (std::abs(pen.widthF() - width) > 0.01) {
            pen.setWidthF(width);
            p->setPen(pen);
        }
    }
}

} // namespace

PresentationScale::PresentationScale(QObject *parent)
    : QObject(parent)
{
}

PresentationScale *PresentationScale::instance()
{
    static PresentationScale *scale = new PresentationScale(qApp);
    return scale;
}

double PresentationScale::factor()
{
    return instance()->mFactor;
}

void PresentationScale::setFactor(double factor, bool persist)
{
    factor = std::clamp(factor, 0.75, 3.0);
    if (!mHaveBaseFont) {
        mBaseFont = QApplication::font();
        mHaveBaseFont = true;
    }
    if (persist)
        QSettings().setValue(QLatin1String(kSettingsKey), factor);
    if (std::abs(factor - mFactor) < 1e-9)
        return;
    mFactor = factor;
    QFont font = mBaseFont;
    if (mBaseFont.pointSizeF() > 0)
        font.setPointSizeF(mBaseFont.pointSizeF() * factor);
    else if (mBaseFont.pixelSize() > 0)
        font.setPixelSize(int(std::lround(mBaseFont.pixelSize() * factor)));
    QApplication::setFont(font);
    emit changed(factor);
}

void PresentationScale::restore()
{
    setFactor(QSettings().value(QLatin1String(kSettingsKey), 1.0).toDouble());
}

void PresentationScale::follow(QCustomPlot *plot)
{
    connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { applyTo(plot); });
    connect(instance(), &PresentationScale::changed, plot, [plot] { plot->replot(QCustomPlot::rpQueuedReplot); });
    applyTo(plot);
}

} // namespace dplab
