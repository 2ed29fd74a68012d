// SPDX-License-Identifier: GPL-3.0-or-later
//
// The report's pages (ReportLayout): page geometry, fonts and colours, laid-out text (TextBox),
// the pages being filled (Flow) and text placed on them, split between lines at page ends.
// Sizes are logical pixels at 96 DPI (the writer's resolution), fonts in points.
//
// Threading: GUI thread (QPainter, fonts).
#pragma once

#include "reportlayout.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QPainter>
#include <QTextLayout>

#include <functional>
#include <memory>
#include <vector>

class QCPPainter;

namespace dplab::reportpage {

inline constexpr int kDpi = 96; // the writer's resolution: one unit is one logical pixel

inline constexpr double mm(double millimetres)
{
    return millimetres / 25.4 * kDpi;
}

inline constexpr double kPageWidth = mm(210.0);
inline constexpr double kPageHeight = mm(297.0);
inline constexpr double kMargin = mm(15.0);
inline constexpr double kTextWidth = kPageWidth - 2 * kMargin;
inline constexpr double kGridGap = 16.0;    // between two columns of pictures
inline constexpr double kPlotHeight = 290.0; // a plot at the text width: three with captions a page
inline constexpr double kGraphSide = 250.0; // the graph picture's box beside the graph facts
inline constexpr double kCellPadX = 4.0;
inline constexpr double kCellPadY = 2.0;

inline const QColor kText(0x20, 0x20, 0x20);
inline const QColor kMuted(0x60, 0x60, 0x60);
inline const QColor kRule(0xb0, 0xb0, 0xb0);
inline const QColor kGrid(0x99, 0x99, 0x99);
inline const QColor kHeaderFill(0xee, 0xee, 0xee);
inline const QColor kPrivacyFill(0xf3, 0xf7, 0xff);
inline const QColor kPrivacyBar(0x33, 0x66, 0xcc);
inline const QColor kWarn(0xaa, 0x44, 0x00);
inline const QColor kCodeFill(0xf4, 0xf4, 0xf4);

using Op = std::function<void(QCPPainter &)>;

struct Fonts {
    QFont body, table, tableBold, caption, title, heading, subheading, code, footer;
};

Fonts makeFonts();

/** Laid-out text: lines at y offsets from its top. Shared so that paint operations keep it. */
struct TextBox {
    std::shared_ptr<QTextLayout> layout;

    int lines() const { return layout ? layout->lineCount() : 0; }
    double lineTop(int i) const { return layout->lineAt(i).y(); }
    double lineBottom(int i) const
    {
        const QTextLine line = layout->lineAt(i);
        return line.y() + line.height();
    }
    /** Height of lines [from, to). */
    double span(int from, int to) const { return to > from ? lineBottom(to - 1) - lineTop(from) : 0.0; }
    double height() const { return span(0, lines()); }

    /** Draws lines [from, to) with the top of line `from` at (x, top). */
    void draw(QPainter &p, double x, double top, int from, int to, const QColor &color) const
    {
        p.setPen(color);
        const double shift = top - lineTop(from);
        for (int i = from; i < to; ++i)
            layout->lineAt(i).draw(&p, QPointF(x, shift));
    }
};

TextBox layoutText(QString text, const QFont &font, double width, QPaintDevice *device,
                   const QList<QTextLayout::FormatRange> &formats = {}, Qt::Alignment align = Qt::AlignLeft);

/** Report text runs as one string with bold/italic ranges. */
TextBox layoutRuns(const std::vector<ReportText> &runs, const QFont &font, double width, QPaintDevice *device);

/** The pages being filled: paint operations per page and the current position. */
struct Flow {
    double top = kMargin;
    double bottom = kPageHeight - kMargin;
    double y = kMargin;
    QVector<QVector<Op>> pages = {{}};
    QVector<ReportLayout::Placement> placed;

    double remaining() const { return bottom - y; }
    bool atTop() const { return y <= top + 0.5; }
    void newPage()
    {
        pages.append(QVector<Op>());
        y = top;
    }
    void add(Op op) { pages.last().append(std::move(op)); }
    /** Records where something went on the current page. */
    void mark(ReportLayout::Placement::Kind kind, const QRectF &rect, int index, int row = -1)
    {
        ReportLayout::Placement p;
        p.kind = kind;
        p.page = static_cast<int>(pages.size()) - 1;
        p.rect = rect;
        p.index = index;
        p.row = row;
        placed << p;
    }
    /** Vertical space, dropped at the top of a page. */
    void space(double s)
    {
        if (!atTop())
            y = std::min(bottom, y + s);
    }
    /** Starts a new page unless `height` fits (or the page is still empty). */
    void need(double height)
    {
        if (height > remaining() && !atTop())
            newPage();
    }
};

struct TextStyle {
    QColor color = kText;
    double before = 0, after = 0;
    double indent = 0;      ///< text starts this far right of the margin
    double padY = 0;        ///< background padding above and below the text
    QColor fill;            ///< background, if valid
    QColor bar;             ///< a bar at the left edge, if valid
    QString bullet;         ///< drawn in the indent of the first line
    QFont bulletFont;
};

TextStyle textStyle(const QColor &color, double before, double after, double indent = 0, double padY = 0);

/** Places text, splitting it between lines at page ends (never fewer than two lines on a page,
 *  unless the text has only one). */
void placeText(Flow &flow, const TextBox &box, const TextStyle &style);

/** Paint operation that draws `picture` into `area`, clipped to it. */
Op pictureOp(const ReportLayout::Picture &picture, const QRectF &area);

} // namespace dplab::reportpage
