// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportlayout.h"

#include "reportpage.h"
#include "reporttable.h"
#include "textconvert.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dplab {

using namespace reportpage;

namespace {

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
    /** `plot`: the size of one plot picture (full text width: one plot a row; half of it: two). */
    Builder(const Fonts &fonts, QPaintDevice *device, QSizeF plot) : mFonts(fonts), mDevice(device), mPlot(plot) {}

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
            case ReportBlock::Kind::PageBreak:
                if (!mFlow.atTop())
                    mFlow.newPage();
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
            return mPlots.isEmpty() ? 0 : mPlot.height() + 50;
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

    /** The plots in one column (two when they are at most half the text width), each caption
     *  above its picture in the same cell. */
    void grid(const ReportBlock &b)
    {
        if (mPlots.isEmpty())
            return;
        const QSizeF cell = mPlot;
        const int columns = 2 * cell.width() + kGridGap <= kTextWidth + 0.5 ? 2 : 1;
        struct Row {
            QVector<int> pictures;
            QVector<TextBox> captions;
            double captionHeight = 0;
            double pictureHeight = 0;
            double height() const { return captionHeight + 3 + pictureHeight; }
        };
        QVector<Row> rows;
        for (int k = 0; k < mPlots.size(); k += columns) {
            Row row;
            row.pictureHeight = cell.height();
            for (int c = k; c < std::min<int>(k + columns, mPlots.size()); ++c) {
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
            const bool alone = row.pictures.size() == 1 && columns == 2;
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
    QSizeF mPlot;
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

void ReportLayout::setPlotPreset(const QSizeF &preset)
{
    if (preset.isEmpty()) {
        mPlotSize = gridPictureSize();
        return;
    }
    const int columns = preset.width() <= kTextWidth / 2 ? 2 : 1;
    const double width = (kTextWidth - (columns - 1) * kGridGap) / columns;
    mPlotSize = QSizeF(width, std::round(width * preset.height() / preset.width()));
}

QSizeF ReportLayout::gridPictureSize()
{
    // The text width (about 7 in: a double-column figure) and three plots with their captions
    // on a page under the section's heading.
    return QSizeF(kTextWidth, kPlotHeight);
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
    Flow flow = Builder(fonts, &writer, mPlotSize).build(mBlocks, mPictures);
    // No near-empty last page: when the last page holds less than a quarter of a page, the plots
    // are drawn a little lower (down to 80 % of their height) if that saves the page.
    const auto used = [](const Flow &f) { return f.y - f.top; };
    const double page = kPageHeight - 2 * kMargin;
    if (flow.pages.size() > 1 && used(flow) < page / 4)
        for (double scale = 0.95; scale >= 0.8 - 1e-9; scale -= 0.05) {
            const QSizeF lower(mPlotSize.width(), std::round(mPlotSize.height() * scale));
            Flow shorter = Builder(fonts, &writer, lower).build(mBlocks, mPictures);
            if (shorter.pages.size() < flow.pages.size()) {
                flow = std::move(shorter);
                break;
            }
        }
    mLastPageUsed = used(flow) / page;
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
