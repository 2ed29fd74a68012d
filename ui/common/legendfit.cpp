// SPDX-License-Identifier: GPL-3.0-or-later
#include "legendfit.h"

#include <qcustomplot.h>

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace dplab {

namespace {

constexpr const char *kFullName = "dplabFullName";
constexpr const char *kShownName = "dplabShownName";
constexpr const char *kHiddenByFit = "dplabLegendHiddenByFit";

QString elided(const QString &text, int chars)
{
    return chars <= 0 || text.size() <= chars ? text : text.left(std::max(1, chars - 1)).trimmed() + QChar(0x2026);
}

/** The plottables whose legend item is in `legend`, in its order. A name set since the last fit
 *  (not the one the fit showed) is recorded as the new full name. */
QList<QCPAbstractPlottable *> legendEntries(QCPLegend *legend)
{
    QList<QCPAbstractPlottable *> entries;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i))) {
            QCPAbstractPlottable *p = item->plottable();
            if (p->name() != p->property(kShownName).toString())
                p->setProperty(kFullName, p->name());
            entries << p;
        }
    return entries;
}

} // namespace

bool fitLegend(QCustomPlot *plot, QCPLegend *legend)
{
    if (!plot || !legend)
        return true;
    const QList<QCPAbstractPlottable *> entries = legendEntries(legend);
    const bool hiddenByFit = legend->property(kHiddenByFit).toBool();
    if (entries.isEmpty())
        return true;
    if (!legend->visible() && !hiddenByFit)
        return true; // hidden by its owner: not ours to show
    const bool inset = plot->axisRect() && legend->layout() == plot->axisRect()->insetLayout();
    const QRect area = inset ? plot->axisRect()->rect() : plot->rect();
    if (area.width() <= 0 || area.height() <= 0)
        return true;
    // In its own row: the plot's width, a quarter of its height. Inside the axes: at most a
    // quarter of their area, and at most 60 % of their width or height.
    const int maxWidth = inset ? int(area.width() * 0.6) : area.width() - 8;
    const int maxHeight = int(inset ? area.height() * 0.6 : area.height() * kLegendShare);
    const double maxArea = inset ? kLegendShare * area.width() * area.height() : 1e300;
    const QFontMetrics fm(legend->font());
    const QMargins m = legend->margins();
    const QMargins itemMargins = legend->item(0) ? legend->item(0)->margins() : QMargins(8, 2, 8, 2);
    const int item = legend->iconSize().width() + legend->iconTextPadding() + itemMargins.left() + itemMargins.right();
    const int lineHeight = std::max(fm.height(), legend->iconSize().height()) + itemMargins.top() + itemMargins.bottom()
                           + legend->rowSpacing();
    const int n = int(entries.size());
    int longest = 0;
    for (QCPAbstractPlottable *p : entries)
        longest = std::max<int>(longest, int(p->property(kFullName).toString().size()));

    // The most columns that fit the width; whether the result fits.
    auto layoutFor = [&](int chars, int *columnsOut) {
        QVector<int> widths;
        for (QCPAbstractPlottable *p : entries)
            widths << item + fm.horizontalAdvance(elided(p->property(kFullName).toString(), chars));
        for (int c = n; c >= 1; --c) {
            int total = m.left() + m.right() + (c - 1) * legend->columnSpacing();
            for (int col = 0; col < c; ++col) {
                int w = 0;
                for (int k = col; k < n; k += c)
                    w = std::max(w, widths[k]);
                total += w;
            }
            if (total <= maxWidth) {
                *columnsOut = c;
                const int height = int(std::ceil(double(n) / c)) * lineHeight + m.top() + m.bottom();
                return height <= maxHeight && double(total) * height <= maxArea;
            }
        }
        *columnsOut = 1;
        return false;
    };
    int columns = 1, chars = 0;
    bool fits = layoutFor(0, &columns);
    for (int limit : {40, 32, 26, 20, 16, 12, 9}) {
        if (fits)
            break;
        if (limit >= longest)
            continue;
        chars = limit;
        fits = layoutFor(limit, &columns);
    }
    for (QCPAbstractPlottable *p : entries) {
        const QString shown = elided(p->property(kFullName).toString(), chars);
        p->setProperty(kShownName, shown);
        if (p->name() != shown)
            p->setName(shown);
    }
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
    legend->setVisible(fits);
    legend->setProperty(kHiddenByFit, !fits);
    return fits;
}

void showFullLegend(QCustomPlot *plot, QCPLegend *legend, int width)
{
    if (!plot || !legend || legend->itemCount() == 0)
        return;
    if (!legend->visible() && !legend->property(kHiddenByFit).toBool())
        return; // hidden by its owner
    const QList<QCPAbstractPlottable *> entries = legendEntries(legend);
    for (QCPAbstractPlottable *p : entries) {
        const QString full = p->property(kFullName).toString();
        p->setProperty(kShownName, full);
        p->setName(full);
    }
    if (entries.isEmpty())
        return;
    const bool inset = plot->axisRect() && legend->layout() == plot->axisRect()->insetLayout();
    const int maxWidth = inset ? width / 2 : width - 8;
    const QFontMetrics fm(legend->font());
    const QMargins itemMargins = legend->item(0)->margins();
    const int item = legend->iconSize().width() + legend->iconTextPadding() + itemMargins.left() + itemMargins.right();
    const int n = int(entries.size());
    int columns = 1;
    for (int c = n; c >= 1; --c) {
        int total = legend->margins().left() + legend->margins().right() + (c - 1) * legend->columnSpacing();
        for (int col = 0; col < c; ++col) {
            int w = 0;
            for (int k = col; k < n; k += c)
                w = std::max(w, item + fm.horizontalAdvance(entries[k]->name()));
            total += w;
        }
        if (total <= maxWidth) {
            columns = c;
            break;
        }
    }
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
    legend->setVisible(true);
    legend->setProperty(kHiddenByFit, false);
}

} // namespace dplab
