// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportpage.h"

#include "textconvert.h"

#include <qcustomplot.h>

#include <QFontDatabase>
#include <QFontMetricsF>

#include <algorithm>

namespace dplab::reportpage {

Fonts makeFonts()
{
    QFont base = QFontDatabase::systemFont(QFontDatabase::GeneralFont);
    base.setHintingPreference(QFont::PreferNoHinting); // vector output: design metrics
    // No ligatures: "fl" set as one glyph reads back from the PDF as "ﬂ", so copied text and
    // searches would miss the words. Latin text needs no shaping.
    base.setStyleStrategy(QFont::PreferNoShaping);
    auto sized = [&](double points, bool bold = false, bool italic = false) {
        QFont f = base;
        f.setPointSizeF(points);
        f.setBold(bold);
        f.setItalic(italic);
        return f;
    };
    Fonts f;
    f.body = sized(9.0);
    f.table = sized(8.0);
    f.tableBold = sized(8.0, true);
    f.caption = sized(8.5, false, true);
    f.title = sized(16.0, true);
    f.heading = sized(12.0, true);
    f.subheading = sized(9.5, true);
    f.code = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.code.setPointSizeF(8.0);
    f.code.setHintingPreference(QFont::PreferNoHinting);
    f.code.setStyleStrategy(QFont::PreferNoShaping);
    f.footer = sized(7.5);
    return f;
}

TextBox layoutText(QString text, const QFont &font, double width, QPaintDevice *device,
                   const QList<QTextLayout::FormatRange> &formats, Qt::Alignment align)
{
    TextBox box;
    text.replace(QLatin1Char('\n'), QChar::LineSeparator);
    box.layout = std::make_shared<QTextLayout>(text, font, device);
    QTextOption option(align);
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    box.layout->setTextOption(option);
    box.layout->setFormats(formats);
    box.layout->setCacheEnabled(true);
    const double gap = std::max(1.0, 0.18 * QFontMetricsF(font, device).height());
    double y = 0;
    box.layout->beginLayout();
    for (;;) {
        QTextLine line = box.layout->createLine();
        if (!line.isValid())
            break;
        line.setLineWidth(std::max(1.0, width));
        line.setPosition(QPointF(0, y));
        y += line.height() + gap;
    }
    box.layout->endLayout();
    return box;
}

TextBox layoutRuns(const std::vector<ReportText> &runs, const QFont &font, double width, QPaintDevice *device)
{
    QString text;
    QList<QTextLayout::FormatRange> formats;
    for (const ReportText &run : runs) {
        const int start = static_cast<int>(text.size());
        text += toQString(run.text);
        if (run.bold || run.italic) {
            QTextLayout::FormatRange range;
            range.start = start;
            range.length = static_cast<int>(text.size()) - start;
            if (run.bold)
                range.format.setFontWeight(QFont::Bold);
            if (run.italic)
                range.format.setFontItalic(true);
            formats << range;
        }
    }
    return layoutText(text, font, width, device, formats);
}

TextStyle textStyle(const QColor &color, double before, double after, double indent, double padY)
{
    TextStyle style;
    style.color = color;
    style.before = before;
    style.after = after;
    style.indent = indent;
    style.padY = padY;
    return style;
}

void placeText(Flow &flow, const TextBox &box, const TextStyle &style)
{
    flow.space(style.before);
    const int n = box.lines();
    if (n == 0)
        return;
    flow.need(box.span(0, std::min(n, 2)) + 2 * style.padY);
    int i = 0;
    bool first = true;
    while (i < n) {
        int j = i;
        while (j < n && box.span(i, j + 1) + 2 * style.padY <= flow.remaining())
            ++j;
        if (j < n && j - i >= 3 && n - j == 1)
            --j; // keep a last line company
        if (j == i) {
            if (!flow.atTop()) {
                flow.newPage();
                continue;
            }
            j = i + 1; // a line taller than a page: draw it anyway
        }
        const double top = flow.y;
        const double height = box.span(i, j) + 2 * style.padY;
        const bool bulletHere = first && !style.bullet.isEmpty();
        flow.add([box, style, i, j, top, height, bulletHere](QCPPainter &p) {
            const QRectF area(kMargin, top, kTextWidth, height);
            if (style.fill.isValid())
                p.fillRect(area, style.fill);
            if (style.bar.isValid())
                p.fillRect(QRectF(area.left(), area.top(), 3.0, area.height()), style.bar);
            if (bulletHere) {
                p.setFont(style.bulletFont);
                p.setPen(style.color);
                p.drawText(QRectF(kMargin, top + style.padY, style.indent, box.span(i, i + 1)),
                           Qt::AlignLeft | Qt::AlignVCenter, style.bullet);
            }
            box.draw(p, kMargin + style.indent, top + style.padY, i, j, style.color);
        });
        flow.y += height;
        first = false;
        i = j;
        if (i < n)
            flow.newPage();
    }
    flow.space(style.after);
}

Op pictureOp(const ReportLayout::Picture &picture, const QRectF &area)
{
    return [picture, area](QCPPainter &p) {
        if (!picture.paint)
            return;
        p.save();
        p.translate(area.topLeft());
        p.setClipRect(QRectF(QPointF(0, 0), area.size()));
        picture.paint(&p, area.size());
        p.restore();
    };
}

} // namespace dplab::reportpage
