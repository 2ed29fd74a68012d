// SPDX-License-Identifier: GPL-3.0-or-later
//
// ReportLayout (issue 13): the run report's PDF, laid out by hand on A4 pages with QPdfWriter and
// QPainter instead of Qt's rich-text pagination (which put one plot per page and stranded
// captions at page feet). From the report's blocks (core reportBlocks) and its pictures:
//   - text in flowing paragraphs, split between lines at page ends (at least two lines stay
//     together); headings kept with what follows;
//   - tables with wrapped cells and column widths fitted to the page; a table starts on a new
//     page unless its header and first rows fit, and a table that continues on the next page
//     repeats its header; long two-column key/value tables are folded into four columns;
//   - the graph picture beside the graph facts;
//   - a new page where a PageBreak block asks (after page 1's summary);
//   - the plots one a row at the text width (three a page; two a row with a single-column
//     preset, setPlotPreset), each caption directly above its picture in the same cell;
//   - no near-empty last page: when the last page would hold less than a quarter of a page,
//     the plots are drawn up to 20 % lower if that saves the page;
//   - everything vector: pictures are painted, not embedded as images (no JPEG);
//   - a footer with the experiment name and "page k of N" on every page.
// Sizes are logical pixels at 96 DPI (the writer's resolution), fonts in points.
//
// Threading: GUI thread (QPainter, fonts).
#pragma once

#include "dplab/engine/report.h"

#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QVector>

#include <functional>
#include <string>
#include <vector>

class QCPPainter;

namespace dplab {

class ReportLayout
{
public:
    /** A picture: painted into `painter` at the origin, filling `size` (logical pixels). */
    struct Picture {
        std::string id; ///< "graph" for the graph picture; every other id goes to the plots grid
        QString caption;
        QSizeF naturalSize; ///< its proportions (the graph keeps them; plots fill their cell)
        std::function<void(QCPPainter *painter, const QSizeF &size)> paint;
    };

    ReportLayout(std::vector<ReportBlock> blocks, QVector<Picture> pictures, QString footer);

    /** The plots' proportions from one of the plot export presets (logical pixels): at most half
     *  the text width (single column) puts two plots a row, wider ones one a row; either fills
     *  the text width keeping the preset's proportions. Empty: gridPictureSize(). */
    void setPlotPreset(const QSizeF &preset);
    /** Size of one plot picture as set (before any lowering for the last page). */
    QSizeF plotSize() const { return mPlotSize; }

    /** Writes the PDF to `path` (A4 portrait, 15 mm margins). `pages` gets the page count. */
    bool writePdf(const QString &path, const QString &creator, int *pages, QString *error);

    /** Where something was put on the pages (tests check the layout's promises with these). */
    struct Placement {
        enum class Kind { Caption, Picture, TableHeader, TableRow, Heading };
        Kind kind = Kind::Picture;
        int page = 0;  ///< 0-based
        QRectF rect;   ///< page coordinates, logical pixels
        int index = 0; ///< picture index (pictures in the order given), table or heading number (0-based)
        int row = -1;  ///< table row (0-based, header excluded)
    };
    /** The placements of the last writePdf(). */
    const QVector<Placement> &placements() const { return mPlacements; }

    /** The page's size and the area text and pictures may use (logical pixels). */
    static QSizeF pageSize();
    static QRectF contentRect();

    /** Size of one plot picture (logical pixels): the text width, three a page. The last
     *  writePdf() may have drawn them up to 20 % lower to save a near-empty last page. */
    static QSizeF gridPictureSize();
    /** How much of its last page's text area the last writePdf() filled (0..1). */
    double lastPageUsed() const { return mLastPageUsed; }
    /** Text width of the page (logical pixels). */
    static double textWidth();

private:
    std::vector<ReportBlock> mBlocks;
    QVector<Picture> mPictures;
    QString mFooter;
    QVector<Placement> mPlacements;
    double mLastPageUsed = 0;
    QSizeF mPlotSize = gridPictureSize();
};

} // namespace dplab
