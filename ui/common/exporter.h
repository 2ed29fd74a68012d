// SPDX-License-Identifier: GPL-3.0-or-later
//
// Exports (issue 8): plots and the graph picture to PNG (at a chosen DPI, recorded in the PNG's
// physical-size metadata), SVG and PDF, and text files — all written atomically: the picture is
// rendered into a temporary file in the target's folder and renamed over the target, so a
// failed export reports an error and never destroys an existing file.
//
// Sizes are logical pixels (what the plot measures on a 96-DPI screen); a PNG at `dpi` has
// size × dpi / 96 pixels, so fonts and lines keep their on-screen proportions at any DPI. SVG and
// PDF are vector: their size is the logical size (PDF in points at 96 px per inch).
//
// Threading: GUI thread (QPainter on widgets' scenes).
#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QSizeF>
#include <QString>
#include <QVector>

#include <functional>

class QCPPainter;
class QCustomPlot;
class QGraphicsScene;
class QPainter;
class QWidget;

namespace dplab {

/** The logical DPI sizes are measured in. */
inline constexpr int kLogicalDpi = 96;

/** Renders into a temporary file next to `path` with `render(tempPath)` and renames it over
 *  `path`. On failure (render returned false, or the rename failed — e.g. `path` is a folder)
 *  the temporary is removed, `path` is untouched and `error` says why. */
bool renderAtomically(const QString &path, const std::function<bool(const QString &)> &render, QString *error);

/** Writes bytes to `path` atomically (QSaveFile). */
bool writeBytesAtomically(const QString &path, const QByteArray &bytes, QString *error);

/** Format by suffix: "png", "svg" or "pdf" (lower case); "" when unsupported. */
QString exportFormat(const QString &path);

/** Saves a plot as PNG/SVG/PDF (by suffix) at `size` logical pixels (empty = the plot's size),
 *  PNG at `dpi`. What is drawn is what the plot shows: same ranges, axes, bands — with its legend
 *  whole (every full name) and without the screen's hints ("(hover for why)"). */
bool exportPlot(QCustomPlot *plot, const QString &path, QSize size, int dpi, QString *error);

/** The plot as an image of size × scale pixels. */
QImage plotImage(QCustomPlot *plot, QSize size, double scale);

/** Paints the plot as vectors into `painter` at its origin, laid out for `size` logical pixels
 *  (the report's PDF). Cosmetic pens become real widths, so lines print as on screen. */
void paintPlot(QCustomPlot *plot, QCPPainter *painter, QSizeF size);

/** The items of a scene (the graph picture) with a margin, fitted into `size` logical pixels
 *  keeping the aspect ratio (empty = natural size). */
bool exportScene(QGraphicsScene *scene, const QString &path, QSize size, int dpi, QString *error);
QImage sceneImage(QGraphicsScene *scene, QSize size, double scale);
/** The logical size of the scene's picture fitted into `size` (empty = natural size). */
QSize sceneSize(QGraphicsScene *scene, QSize size);
/** Paints the scene's items (white background, margin, aspect kept) into `painter` at its origin
 *  filling `target` logical pixels, as vectors on a vector device. */
void paintScene(QGraphicsScene *scene, QPainter *painter, const QSizeF &target);

/** A PNG in memory with the DPI recorded; and as a data URI for self-contained HTML. */
QByteArray pngBytes(const QImage &image, int dpi);
QString pngDataUri(const QImage &image, int dpi);

/** A plot size for print: its name and logical pixels (empty = the plot's size on screen). */
struct PlotExportSize {
    QString name;
    QSize size;
    QString key; ///< "single", "double", "slide" ("" for as on screen): `dplab-cli report --plot-size`
};
/** As on screen, single column (3.5 in wide), double column (7 in), a 16:9 slide (10 in). */
QVector<PlotExportSize> plotExportSizes();

/** Asks for a file (PNG, SVG or PDF) and, for PNG, a DPI (remembered in QSettings); with `size`,
 *  also one of plotExportSizes() (remembered; empty = as on screen). */
bool askPlotExportPath(QWidget *parent, const QString &title, const QString &suggestion, QString *path, int *dpi);
bool askPlotExportPath(QWidget *parent, const QString &title, const QString &suggestion, QString *path, int *dpi,
                       QSize *size);

/** Adds "Export this plot…" to the plot's context menu; `name` gives the suggested file name. */
void installPlotExportMenu(QCustomPlot *plot, std::function<QString()> name);

} // namespace dplab
