// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportlayout.h"

#include "textconvert.h"

#include <qcustomplot.h>

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextLayout>

#include <algorithm>
#include <memory>
#include <numeric>

namespace dplab {

namespace {

constexpr int kDpi = 96; // the writer's resolution: one unit is one logical pixel

constexpr double mm(double millimetres)
{
    return millimetres / 25.4 * kDpi;
}

constexpr double kPageWidth = mm(210.0);
constexpr double kPageHeight = mm(297.0);
constexpr double kMargin = mm(15.0);
constexpr double kTextWidth = kPageWidth - 2 * kMargin;
constexpr double kGridGap = 16.0;    // between the two columns of pictures
constexpr double kPlotAspect = 0.74; // plot height / width in the grid
constexpr double kGraphSide = 250.0; // the graph picture's box beside the graph facts
constexpr double kCellPadX = 4.0;
constexpr double kCellPadY = 2.0;

const QColor kText(0x20, 0x20, 0x20);
const QColor kMuted(0x60, 0x60, 0x60);
const QColor kRule(0xb0, 0xb0, 0xb0);
const QColor kGrid(0x99, 0x99, 0x99);
const QColor kHeaderFill(0xee, 0xee, 0xee);
const QColor kPrivacyFill(0xf3, 0xf7, 0xff);
const QColor kPrivacyBar(0x33, 0x66, 0xcc);
const QColor kWarn(0xaa, 0x44, 0x00);
const QColor kCodeFill(0xf4, 0xf4, 0xf4);

using Op = std::function<void(QCPPainter &)>;

struct Fonts {
    QFont body, table, tableBold, caption, title, heading, subheading, code, footer;
};

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

// --- text -------------------------------------------------------------------------------------

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
                   const QList<QTextLayout::FormatRange> &formats = {}, Qt::Alignment align = Qt::AlignLeft)
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

/** Report text runs as one string with bold/italic ranges. */
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

// --- pages ------------------------------------------------------------------------------------

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

/** Places text, splitting it between lines at page ends (never fewer than two lines on a page,
 *  unless the text has only one). */
TextStyle textStyle(const QColor &color, double before, double after, double indent = 0, double padY = 0)
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

// --- tables -----------------------------------------------------------------------------------

struct TableBox {
    QVector<double> widths;           ///< column widths, padding included
    QVector<QVector<TextBox>> cells;  ///< header first when there is one
    QVector<double> heights;          ///< row heights
    bool header = false;

    double width() const { return std::accumulate(widths.begin(), widths.end(), 0.0); }
    int rows() const { return static_cast<int>(cells.size()) - (header ? 1 : 0); }
    double headerHeight() const { return header ? heights.front() : 0.0; }
    double rowHeight(int r) const { return heights[r + (header ? 1 : 0)]; }
};

double longestLine(const QString &text, const QFontMetricsF &metrics)
{
    double w = 0;
    for (const QString &line : text.split(QLatin1Char('\n')))
        w = std::max(w, metrics.horizontalAdvance(line));
    return w;
}

double longestWord(const QString &text, const QFontMetricsF &metrics)
{
    static const QRegularExpression space(QStringLiteral("[\\s\\x{200B}]+"));
    double w = 0;
    for (const QString &word : text.split(space, Qt::SkipEmptyParts))
        w = std::max(w, metrics.horizontalAdvance(word));
    return w;
}

/** Lays a table out at most `available` wide: columns get their natural width when everything
 *  fits, else their longest word plus a share of the rest in proportion to what they lack. */
TableBox layoutTable(std::vector<std::string> header, std::vector<std::vector<std::string>> rows, const Fonts &fonts,
                     double available, QPaintDevice *device)
{
    std::size_t columns = header.size();
    for (const auto &row : rows)
        columns = std::max(columns, row.size());
    // A long two-column key/value table reads as well in four columns and takes half the height.
    if (header.empty() && columns == 2 && rows.size() >= 6) {
        const std::size_t half = (rows.size() + 1) / 2;
        std::vector<std::vector<std::string>> folded;
        for (std::size_t k = 0; k < half; ++k) {
            std::vector<std::string> row = rows[k];
            row.resize(2);
            if (k + half < rows.size()) {
                row.push_back(rows[k + half].size() > 0 ? rows[k + half][0] : std::string());
                row.push_back(rows[k + half].size() > 1 ? rows[k + half][1] : std::string());
            } else {
                row.resize(4);
            }
            folded.push_back(std::move(row));
        }
        rows = std::move(folded);
        columns = 4;
    }
    TableBox t;
    t.header = !header.empty();
    std::vector<std::vector<QString>> text;
    if (t.header) {
        // Header cells name metrics and JSON paths (distance_to_optimum, graph.generator.rho_w):
        // let them break after '_' and '.' (a zero-width space) rather than anywhere.
        static const QRegularExpression joint(QStringLiteral("([_.])(?=\\w)"));
        header.resize(columns);
        text.emplace_back();
        for (const auto &cell : header)
            text.back().push_back(toQString(cell).replace(joint, QStringLiteral("\\1\u200B")));
    }
    for (auto &row : rows) {
        row.resize(columns);
        text.emplace_back();
        for (const auto &cell : row)
            text.back().push_back(toQString(cell));
    }
    const QFontMetricsF plain(fonts.table, device), bold(fonts.tableBold, device);
    QVector<double> natural(int(columns), 0.0), minimum(int(columns), 0.0);
    for (std::size_t r = 0; r < text.size(); ++r) {
        const QFontMetricsF &m = t.header && r == 0 ? bold : plain;
        for (std::size_t c = 0; c < columns; ++c) {
            natural[int(c)] = std::max(natural[int(c)], longestLine(text[r][c], m) + 2 * kCellPadX + 1);
            minimum[int(c)] = std::max(minimum[int(c)], longestWord(text[r][c], m) + 2 * kCellPadX + 1);
        }
    }
    for (int c = 0; c < int(columns); ++c) {
        minimum[c] = std::min(minimum[c], 0.45 * available); // a very long token wraps anywhere
        natural[c] = std::max(natural[c], minimum[c]);
    }
    const double naturalSum = std::accumulate(natural.begin(), natural.end(), 0.0);
    const double minimumSum = std::accumulate(minimum.begin(), minimum.end(), 0.0);
    if (naturalSum <= available) {
        t.widths = natural;
    } else if (minimumSum >= available) {
        t.widths = minimum;
        for (double &w : t.widths)
            w *= available / minimumSum;
    } else {
        t.widths = minimum;
        const double extra = available - minimumSum;
        for (int c = 0; c < int(columns); ++c)
            t.widths[c] += extra * (natural[c] - minimum[c]) / (naturalSum - minimumSum);
    }
    for (std::size_t r = 0; r < text.size(); ++r) {
        QVector<TextBox> row;
        double height = 0;
        for (std::size_t c = 0; c < columns; ++c) {
            const QFont &font = t.header && r == 0 ? fonts.tableBold : fonts.table;
            row << layoutText(text[r][c], font, t.widths[int(c)] - 2 * kCellPadX, device);
            height = std::max(height, row.back().height());
        }
        t.cells << row;
        t.heights << height + 2 * kCellPadY;
    }
    return t;
}

/** Paint operation for row `index` of the table (0 = the header when there is one). */
Op tableRowOp(const TableBox &t, int index, double x, double top)
{
    return [t, index, x, top](QCPPainter &p) {
        const double height = t.heights[index];
        double left = x;
        const bool isHeader = t.header && index == 0;
        p.setPen(QPen(kGrid, 0.6));
        for (int c = 0; c < t.widths.size(); ++c) {
            const QRectF cell(left, top, t.widths[c], height);
            if (isHeader)
                p.fillRect(cell, kHeaderFill);
            p.setPen(QPen(kGrid, 0.6));
            p.setBrush(Qt::NoBrush);
            p.drawRect(cell);
            const TextBox &box = t.cells[index][c];
            if (box.lines() > 0)
                box.draw(p, left + kCellPadX, top + kCellPadY, 0, box.lines(), kText);
            left += t.widths[c];
        }
    };
}

/** The height a table needs on the page it starts on: all of it when it is short (a short table
 *  is never split), else its header and first three rows. */
double tableStart(const TableBox &t)
{
    const double total = std::accumulate(t.heights.begin(), t.heights.end(), 0.0);
    if (total <= 0.4 * (kPageHeight - 2 * kMargin))
        return total;
    double first = t.headerHeight();
    for (int r = 0; r < std::min(t.rows(), 3); ++r)
        first += t.rowHeight(r);
    return first;
}

/** Places a table; it starts on a new page unless its start fits (tableStart), and repeats its
 *  header on every page it continues on. */
void placeTable(Flow &flow, const TableBox &t, double x, int table)
{
    using Kind = ReportLayout::Placement::Kind;
    flow.space(4);
    flow.need(tableStart(t));
    auto drawHeader = [&] {
        if (!t.header)
            return;
        flow.add(tableRowOp(t, 0, x, flow.y));
        flow.mark(Kind::TableHeader, QRectF(x, flow.y, t.width(), t.heights[0]), table);
        flow.y += t.heights[0];
    };
    drawHeader();
    for (int r = 0; r < t.rows(); ++r) {
        const int index = r + (t.header ? 1 : 0);
        if (t.heights[index] > flow.remaining()) {
            flow.newPage();
            drawHeader();
        }
        flow.add(tableRowOp(t, index, x, flow.y));
        flow.mark(Kind::TableRow, QRectF(x, flow.y, t.width(), t.heights[index]), table, r);
        flow.y += t.heights[index];
    }
    flow.space(6);
}

// --- pictures ---------------------------------------------------------------------------------

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

/** The graph picture's size in its box, keeping its proportions. */
QSizeF graphSize(const ReportLayout::Picture &picture)
{
    QSizeF natural = picture.naturalSize;
    if (natural.isEmpty())
        natural = QSizeF(kGraphSide, kGraphSide);
    return natural.scaled(QSizeF(kGraphSide, kGraphSide), Qt::KeepAspectRatio);
}

/** The pages of a report: blocks in order, pictures where their group's block stands. */
class Builder
{
public:
    Builder(const Fonts &fonts, QPaintDevice *device) : mFonts(fonts), mDevice(device) {}

    Flow build(const std::vector<ReportBlock> &blocks, const QVector<ReportLayout::Picture> &pictures)
    {
        for (int k = 0; k < pictures.size(); ++k) {
            (pictures[k].id == "graph" ? mGraph : mPlots) << pictures[k];
            (pictures[k].id == "graph" ? mGraphIndex : mPlotIndex) << k;
        }
        for (std::size_t k = 0; k < blocks.size(); ++k) {
            const ReportBlock &b = blocks[k];
            const ReportBlock *next = k + 1 < blocks.size() ? &blocks[k + 1] : nullptr;
            const ReportBlock *afterNext = k + 2 < blocks.size() ? &blocks[k + 2] : nullptr;
            switch (b.kind) {
            case ReportBlock::Kind::Title:
                title(b);
                break;
            case ReportBlock::Kind::Heading:
            case ReportBlock::Kind::Subheading:
                heading(b, next, afterNext);
                break;
            case ReportBlock::Kind::Paragraph:
                paragraph(b, next);
                break;
            case ReportBlock::Kind::Code:
                code(b);
                break;
            case ReportBlock::Kind::List:
                list(b);
                break;
            case ReportBlock::Kind::Table:
                placeTable(mFlow, layoutTable(b.header, b.rows, mFonts, kTextWidth, mDevice), kMargin, mTables++);
                break;
            case ReportBlock::Kind::Pictures:
                if (picturesBlock(b, next))
                    ++k; // the table beside the graph is placed
                break;
            }
        }
        return mFlow;
    }

private:
    void title(const ReportBlock &b)
    {
        placeText(mFlow, layoutRuns(b.text, mFonts.title, kTextWidth, mDevice), textStyle(kText, 0, 6));
    }

    void code(const ReportBlock &b)
    {
        TextStyle style = textStyle(kText, 3, 6, 8, 3);
        style.fill = kCodeFill;
        placeText(mFlow, layoutText(toQString(b.plainText()), mFonts.code, kTextWidth - 16, mDevice), style);
    }

    /** One bulleted paragraph per item. */
    void list(const ReportBlock &b)
    {
        for (const auto &item : b.rows) {
            TextStyle style = textStyle(b.style == ReportBlock::Style::Warning ? kWarn : kText, 1, 1, 14);
            style.bullet = QStringLiteral("•");
            style.bulletFont = mFonts.body;
            placeText(mFlow, layoutText(toQString(item.empty() ? std::string() : item.front()), mFonts.body,
                                        kTextWidth - 14, mDevice),
                      style);
        }
        mFlow.space(4);
    }

    /** The graph (with the table after it beside it) or the plots grid; true when `next` was placed. */
    bool picturesBlock(const ReportBlock &b, const ReportBlock *next)
    {
        if (b.group != "graph") {
            grid(b);
            return false;
        }
        if (next && next->kind == ReportBlock::Kind::Table) {
            graphWithTable(*next);
            return true;
        }
        graphWithTable(ReportBlock());
        return false;
    }

    TextStyle paragraphStyle(const ReportBlock &b) const
    {
        TextStyle style = textStyle(kText, 2, 4);
        if (b.style == ReportBlock::Style::Privacy) {
            style.fill = kPrivacyFill;
            style.bar = kPrivacyBar;
            style.indent = 10;
            style.padY = 4;
        } else if (b.style == ReportBlock::Style::Warning) {
            style.color = kWarn;
        }
        return style;
    }

    TextBox paragraphBox(const ReportBlock &b) const
    {
        const double indent = b.style == ReportBlock::Style::Privacy ? 10 + 6 : 0;
        return layoutRuns(b.text, mFonts.body, kTextWidth - indent, mDevice);
    }

    /** A short paragraph that introduces a table stays with the table's start. */
    void paragraph(const ReportBlock &b, const ReportBlock *next)
    {
        const TextBox box = paragraphBox(b);
        const TextStyle style = paragraphStyle(b);
        if (next && next->kind == ReportBlock::Kind::Table && box.lines() <= 2) {
            mFlow.space(style.before);
            mFlow.need(box.height() + 2 * style.padY + style.after + startHeight(next, nullptr));
        }
        placeText(mFlow, box, style);
    }

    /** Height the block after a heading needs on the same page (keep-with-next). */
    double startHeight(const ReportBlock *next, const ReportBlock *afterNext) const
    {
        if (!next)
            return 0;
        switch (next->kind) {
        case ReportBlock::Kind::Paragraph:
        case ReportBlock::Kind::Code: {
            const TextBox box = paragraphBox(*next);
            // A short note between a heading and a table keeps both with the heading.
            const double chained = next->kind == ReportBlock::Kind::Paragraph && box.lines() <= 2 && afterNext
                                           && afterNext->kind == ReportBlock::Kind::Table
                                       ? startHeight(afterNext, nullptr)
                                       : 0.0;
            return box.span(0, std::min(box.lines(), 2)) + 12 + chained;
        }
        case ReportBlock::Kind::List:
            return 30;
        case ReportBlock::Kind::Table: {
            return tableStart(layoutTable(next->header, next->rows, mFonts, kTextWidth, mDevice)) + 10;
        }
        case ReportBlock::Kind::Pictures:
            if (next->group == "graph")
                return mGraph.isEmpty() ? 0 : graphSize(mGraph.front()).height() + 20;
            return mPlots.isEmpty() ? 0 : ReportLayout::gridPictureSize().height() + 50;
        default:
            return 20;
        }
    }

    void heading(const ReportBlock &b, const ReportBlock *next, const ReportBlock *afterNext)
    {
        const bool main = b.kind == ReportBlock::Kind::Heading;
        const TextBox box = layoutRuns(b.text, main ? mFonts.heading : mFonts.subheading, kTextWidth, mDevice);
        const double before = main ? 12 : 6;
        const double after = main ? 6 : 3;
        mFlow.space(before);
        mFlow.need(box.height() + after + startHeight(next, afterNext));
        const double top = mFlow.y;
        mFlow.mark(ReportLayout::Placement::Kind::Heading, QRectF(kMargin, top, kTextWidth, box.height()), mHeadings++);
        mFlow.add([box, top, main](QCPPainter &p) {
            box.draw(p, kMargin, top, 0, box.lines(), kText);
            if (main) {
                p.setPen(QPen(kRule, 0.8));
                const double y = top + box.height() + 2;
                p.drawLine(QPointF(kMargin, y), QPointF(kMargin + kTextWidth, y));
            }
        });
        mFlow.y += box.height() + after;
    }

    /** The graph picture's caption across the page, then the picture with the table beside it. */
    void graphWithTable(const ReportBlock &table)
    {
        const bool hasTable = table.kind == ReportBlock::Kind::Table;
        if (mGraph.isEmpty()) {
            if (hasTable)
                placeTable(mFlow, layoutTable(table.header, table.rows, mFonts, kTextWidth, mDevice), kMargin, mTables++);
            return;
        }
        const ReportLayout::Picture &picture = mGraph.front();
        const TextBox caption = layoutText(picture.caption, mFonts.caption, kTextWidth, mDevice);
        const QSizeF size = graphSize(picture);
        const double gap = 24;
        TableBox t;
        if (hasTable)
            t = layoutTable(table.header, table.rows, mFonts, kTextWidth - size.width() - gap, mDevice);
        const double tableHeight = std::accumulate(t.heights.begin(), t.heights.end(), 0.0);
        const double height = caption.height() + 4 + std::max(size.height(), tableHeight);
        mFlow.space(2);
        mFlow.need(height);
        using Kind = ReportLayout::Placement::Kind;
        const double top = mFlow.y;
        mFlow.add([caption, top](QCPPainter &p) { caption.draw(p, kMargin, top, 0, caption.lines(), kMuted); });
        mFlow.mark(Kind::Caption, QRectF(kMargin, top, kTextWidth, caption.height()), mGraphIndex.front());
        const double body = top + caption.height() + 4;
        mFlow.add(pictureOp(picture, QRectF(QPointF(kMargin, body), size)));
        mFlow.mark(Kind::Picture, QRectF(QPointF(kMargin, body), size), mGraphIndex.front());
        double y = body;
        const double x = kMargin + size.width() + gap;
        const int tableNumber = hasTable ? mTables++ : -1;
        for (int index = 0; index < t.heights.size(); ++index) {
            mFlow.add(tableRowOp(t, index, x, y));
            const bool isHeader = t.header && index == 0;
            mFlow.mark(isHeader ? Kind::TableHeader : Kind::TableRow, QRectF(x, y, t.width(), t.heights[index]), tableNumber,
                       isHeader ? -1 : index - (t.header ? 1 : 0));
            y += t.heights[index];
        }
        mFlow.y = std::min(mFlow.bottom, top + height);
        mFlow.space(6);
    }

    /** The plots in two columns, each caption above its picture in the same cell. */
    void grid(const ReportBlock &b)
    {
        if (mPlots.isEmpty())
            return;
        const QSizeF cell = ReportLayout::gridPictureSize();
        struct Row {
            QVector<int> pictures;
            QVector<TextBox> captions;
            double captionHeight = 0;
            double height() const { return captionHeight + 3 + ReportLayout::gridPictureSize().height(); }
        };
        QVector<Row> rows;
        for (int k = 0; k < mPlots.size(); k += 2) {
            Row row;
            for (int c = k; c < std::min<int>(k + 2, mPlots.size()); ++c) {
                row.pictures << c;
                row.captions << layoutText(mPlots[c].caption, mFonts.caption, cell.width(), mDevice, {}, Qt::AlignHCenter);
                row.captionHeight = std::max(row.captionHeight, row.captions.back().height());
            }
            rows << row;
        }
        // The heading and its note stay with the first row.
        const TextBox heading = layoutText(toQString(b.heading), mFonts.heading, kTextWidth, mDevice);
        const TextBox note = layoutText(toQString(b.note), mFonts.body, kTextWidth, mDevice);
        mFlow.space(12);
        mFlow.need(heading.height() + 6 + note.height() + 6 + rows.front().height());
        if (!b.heading.empty()) {
            const double top = mFlow.y;
            mFlow.add([heading, top](QCPPainter &p) {
                heading.draw(p, kMargin, top, 0, heading.lines(), kText);
                p.setPen(QPen(kRule, 0.8));
                const double y = top + heading.height() + 2;
                p.drawLine(QPointF(kMargin, y), QPointF(kMargin + kTextWidth, y));
            });
            mFlow.y += heading.height() + 6;
        }
        if (!b.note.empty())
            placeText(mFlow, note, textStyle(kText, 0, 6));
        for (const Row &row : rows) {
            mFlow.need(row.height());
            const double top = mFlow.y;
            const bool alone = row.pictures.size() == 1;
            for (int c = 0; c < row.pictures.size(); ++c) {
                const double left = alone ? kMargin + (kTextWidth - cell.width()) / 2
                                          : kMargin + c * (cell.width() + kGridGap);
                const TextBox caption = row.captions[c];
                // Captions sit at the bottom of the caption band, right above their picture.
                const double captionTop = top + row.captionHeight - caption.height();
                mFlow.add([caption, left, captionTop](QCPPainter &p) {
                    caption.draw(p, left, captionTop, 0, caption.lines(), kMuted);
                });
                const QRectF area(QPointF(left, top + row.captionHeight + 3), cell);
                mFlow.add(pictureOp(mPlots[row.pictures[c]], area));
                const int index = mPlotIndex[row.pictures[c]];
                mFlow.mark(ReportLayout::Placement::Kind::Caption,
                           QRectF(left, captionTop, cell.width(), caption.height()), index);
                mFlow.mark(ReportLayout::Placement::Kind::Picture, area, index);
            }
            mFlow.y += row.height() + 10;
        }
        mFlow.space(4);
    }

    const Fonts &mFonts;
    QPaintDevice *mDevice;
    Flow mFlow;
    QVector<ReportLayout::Picture> mGraph, mPlots;
    QVector<int> mGraphIndex, mPlotIndex; ///< their indices in the pictures given
    int mTables = 0;
    int mHeadings = 0;
};

/** The footer of page `k` of `count`: the experiment on the left, the page on the right, in the
 *  bottom margin. */
void paintFooter(QCPPainter &painter, const Fonts &fonts, QPaintDevice *device, const QString &footer, int k, int count)
{
    painter.save();
    painter.setFont(fonts.footer);
    painter.setPen(kMuted);
    const QRectF band(kMargin, kPageHeight - kMargin + 6, kTextWidth, 14);
    const QString page = QStringLiteral("page %1 of %2").arg(k + 1).arg(count);
    const QFontMetricsF metrics(fonts.footer, device);
    const QString name = metrics.elidedText(footer, Qt::ElideRight, kTextWidth - metrics.horizontalAdvance(page) - 24);
    painter.drawText(band, Qt::AlignLeft | Qt::AlignVCenter, name);
    painter.drawText(band, Qt::AlignRight | Qt::AlignVCenter, page);
    painter.restore();
}

} // namespace

ReportLayout::ReportLayout(std::vector<ReportBlock> blocks, QVector<Picture> pictures, QString footer)
    : mBlocks(std::move(blocks))
    , mPictures(std::move(pictures))
    , mFooter(std::move(footer))
{
}

QSizeF ReportLayout::gridPictureSize()
{
    const double width = (kTextWidth - kGridGap) / 2;
    return QSizeF(width, std::round(width * kPlotAspect));
}

double ReportLayout::textWidth()
{
    return kTextWidth;
}

QSizeF ReportLayout::pageSize()
{
    return QSizeF(kPageWidth, kPageHeight);
}

QRectF ReportLayout::contentRect()
{
    return QRectF(kMargin, kMargin, kTextWidth, kPageHeight - 2 * kMargin);
}

bool ReportLayout::writePdf(const QString &path, const QString &creator, int *pages, QString *error)
{
    QPdfWriter writer(path);
    writer.setCreator(creator);
    writer.setTitle(mFooter);
    writer.setResolution(kDpi);
    // No device margins: the layout places everything on the whole page itself.
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0),
                                     QPageLayout::Millimeter, QMarginsF(0, 0, 0, 0)));
    const Fonts fonts = makeFonts();
    Builder builder(fonts, &writer);
    Flow flow = builder.build(mBlocks, mPictures);
    const int count = static_cast<int>(flow.pages.size());
    mPlacements = flow.placed;

    QCPPainter painter;
    if (!painter.begin(&writer)) {
        if (error)
            *error = QStringLiteral("%1: cannot write the PDF").arg(path);
        return false;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    for (int k = 0; k < count; ++k) {
        if (k > 0 && !writer.newPage()) {
            if (error)
                *error = QStringLiteral("%1: cannot add a page").arg(path);
            return false;
        }
        for (const Op &op : flow.pages[k]) {
            painter.save();
            op(painter);
            painter.restore();
        }
        paintFooter(painter, fonts, &writer, mFooter, k, count);
    }
    if (!painter.end()) {
        if (error)
            *error = QStringLiteral("%1: cannot finish the PDF").arg(path);
        return false;
    }
    if (pages)
        *pages = count;
    return true;
}

} // namespace dplab
