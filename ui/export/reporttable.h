// SPDX-License-Identifier: GPL-3.0-or-later
//
// The report's tables (ReportLayout): wrapped cells, column widths fitted to the page, long
// two-column key/value tables folded into four columns, a header repeated on every page a table
// continues on.
//
// Threading: GUI thread (QPainter, fonts).
#pragma once

#include "reportpage.h"

#include <QVector>

#include <numeric>
#include <string>
#include <vector>

namespace dplab::reportpage {

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

/** Lays a table out at most `available` wide: columns get their natural width when everything
 *  fits, else their longest word plus a share of the rest in proportion to what they lack. */
TableBox layoutTable(std::vector<std::string> header, std::vector<std::vector<std::string>> rows, const Fonts &fonts,
                     double available, QPaintDevice *device);

/** Paint operation for row `index` of the table (0 = the header when there is one). */
Op tableRowOp(const TableBox &t, int index, double x, double top);

/** The height a table needs on the page it starts on: all of it when it is short (a short table
 *  is never split), else its header and first three rows. */
double tableStart(const TableBox &t);

/** Places a table; it starts on a new page unless its start fits (tableStart), and repeats its
 *  header on every page it continues on. */
void placeTable(Flow &flow, const TableBox &t, double x, int table);

} // namespace dplab::reportpage
