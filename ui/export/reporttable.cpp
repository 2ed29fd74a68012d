// SPDX-License-Identifier: GPL-3.0-or-later
#include "reporttable.h"

#include "textconvert.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QRegularExpression>

#include <algorithm>

namespace dplab::reportpage {

namespace {

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

} // namespace

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

} // namespace dplab::reportpage
