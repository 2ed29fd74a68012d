// SPDX-License-Identifier: GPL-3.0-or-later
#include "exporter.h"

#include "legendfit.h"
#include "rememberedfolder.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTemporaryFile>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace dplab {

namespace {

int dotsPerMeter(int dpi)
{
    return static_cast<int>(std::lround(dpi / 0.0254));
}

} // namespace

bool renderAtomically(const QString &path, const std::function<bool(const QString &)> &render, QString *error)
{
    const QFileInfo info(path);
    QTemporaryFile temp(info.absoluteDir().filePath(QStringLiteral(".%1.tmp-XXXXXX").arg(info.fileName())));
    temp.setAutoRemove(false);
    if (!temp.open()) {
        if (error)
            *error = QStringLiteral("%1: cannot create a file in %2: %3").arg(path, info.absolutePath(), temp.errorString());
        return false;
    }
    const QString tempPath = temp.fileName();
    temp.close();
    if (!render(tempPath)) {
        QFile::remove(tempPath);
        if (error)
            *error = QStringLiteral("%1: could not render the picture").arg(path);
        return false;
    }
    if (std::rename(QFile::encodeName(tempPath).constData(), QFile::encodeName(path).constData()) != 0) {
        const QString reason = QString::fromLocal8Bit(std::strerror(errno));
        QFile::remove(tempPath);
        if (error)
            *error = QStringLiteral("%1: cannot replace the file: %2").arg(path, reason);
        return false;
    }
    // QTemporaryFile creates 0600; exported files are ordinary documents.
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                                    | QFileDevice::ReadOther);
    return true;
}

bool writeBytesAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    // QSaveFile falls back to a direct write when it cannot create its temporary file; render
    // through renderAtomically instead so a failure never touches the target.
    return renderAtomically(
        path,
        [&bytes](const QString &temp) {
            QFile file(temp);
            if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
                return false;
            return file.write(bytes) == bytes.size() && file.flush();
        },
        error);
}

QString exportFormat(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png") || suffix == QLatin1String("svg") || suffix == QLatin1String("pdf"))
        return suffix;
    return QString();
}

QByteArray pngBytes(const QImage &image, int dpi)
{
    QImage copy = image;
    copy.setDotsPerMeterX(dotsPerMeter(dpi));
    copy.setDotsPerMeterY(dotsPerMeter(dpi));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    copy.save(&buffer, "PNG");
    return bytes;
}

QString pngDataUri(const QImage &image, int dpi)
{
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(pngBytes(image, dpi).toBase64());
}

QImage plotImage(QCustomPlot *plot, QSize size, double scale)
{
    if (size.isEmpty())
        size = plot->size();
    QImage image = plot->toPixmap(size.width(), size.height(), scale).toImage();
    return image;
}

void paintPlot(QCustomPlot *plot, QCPPainter *painter, QSizeF size)
{
    const int width = std::max(1, int(std::lround(size.width())));
    const int height = std::max(1, int(std::lround(size.height())));
    painter->save();
    painter->fillRect(QRectF(0, 0, width, height), Qt::white);
    painter->setMode(QCPPainter::pmNonCosmetic);
    plot->toPainter(painter, width, height);
    painter->setMode(QCPPainter::pmNonCosmetic, false);
    painter->restore();
}

namespace {

/** While a plot is written to a file: its legend whole (every full name, as many columns as the
 *  printed width allows) and no hint meant for the screen ("(hover for why)") in its titles.
 *  The screen's legend and texts come back afterwards. */
class PrintedPlot
{
public:
    PrintedPlot(QCustomPlot *plot, int width) : mPlot(plot)
    {
        static const QRegularExpression hint(QStringLiteral("\\s*\\((hover|click|double-click)[^)]*\\)"));
        for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
            if (auto *text = qobject_cast<QCPTextElement *>(element); text && text->text().contains(hint)) {
                mTexts.push_back({text, text->text()});
                text->setText(QString(text->text()).remove(hint));
            }
        if (plot->legend)
            showFullLegend(plot, plot->legend, width);
    }
    ~PrintedPlot()
    {
        for (const auto &[text, original] : mTexts)
            text->setText(original);
        mPlot->replot(QCustomPlot::rpQueuedReplot); // fits the legend to the screen again
    }

private:
    QCustomPlot *mPlot;
    QVector<std::pair<QCPTextElement *, QString>> mTexts;
};

} // namespace

QVector<PlotExportSize> plotExportSizes()
{
    // Logical pixels at 96 per inch; heights as figures in papers and slides use them.
    return {{QObject::tr("As on screen"), QSize(), QString()},
            {QObject::tr("Single column (3.5 in × 2.6 in)"), QSize(336, 250), QStringLiteral("single")},
            {QObject::tr("Double column (7 in × 3.5 in)"), QSize(672, 336), QStringLiteral("double")},
            {QObject::tr("Slide 16:9 (10 in × 5.625 in)"), QSize(960, 540), QStringLiteral("slide")}};
}

namespace {

/** Writes `image` as a PNG stamped with `dpi` to `temp`. */
bool writePng(const QString &temp, const QImage &image, int dpi)
{
    QFile file(temp);
    return file.open(QIODevice::WriteOnly) && file.write(pngBytes(image, dpi)) > 0 && file.flush();
}

/** Writes an SVG of `size` logical pixels titled `title` to `temp`, drawn by paint(painter) with
 *  a `Painter` (QCustomPlot draws with its QCPPainter, a scene with a QPainter). */
template <class Painter, class Paint>
bool writeSvg(const QString &temp, QSize size, const QString &title, Paint paint)
{
    QSvgGenerator generator;
    generator.setFileName(temp);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(kLogicalDpi);
    generator.setTitle(title);
    Painter painter;
    if (!painter.begin(&generator))
        return false;
    paint(painter);
    return painter.end();
}

} // namespace

bool exportPlot(QCustomPlot *plot, const QString &path, QSize size, int dpi, QString *error)
{
    if (size.isEmpty())
        size = plot->size();
    const QString format = exportFormat(path);
    if (format.isEmpty()) {
        if (error)
            *error = QStringLiteral("%1: unsupported format (use .png, .svg or .pdf)").arg(path);
        return false;
    }
    if (dpi <= 0 || size.isEmpty()) {
        if (error)
            *error = QStringLiteral("%1: size and DPI must be positive").arg(path);
        return false;
    }
    const PrintedPlot printed(plot, size.width());
    return renderAtomically(
        path,
        [&](const QString &temp) {
            if (format == QLatin1String("png"))
                return writePng(temp, plotImage(plot, size, double(dpi) / kLogicalDpi), dpi);
            if (format == QLatin1String("svg"))
                return writeSvg<QCPPainter>(temp, size, plot->objectName(), [&](QCPPainter &painter) {
                    plot->toPainter(&painter, size.width(), size.height());
                });
            return plot->savePdf(temp, size.width(), size.height(), QCP::epAllowCosmetic, QStringLiteral("DPLab"));
        },
        error);
}

namespace {

QRectF sceneSource(QGraphicsScene *scene)
{
    // Visible items only: itemsBoundingRect() also counts hidden helpers (the rubber-band line,
    // hidden weight labels), which left a blank band under the graph in reports.
    QRectF source;
    for (const QGraphicsItem *item : scene->items())
        if (item->isVisible())
            source = source.isNull() ? item->sceneBoundingRect() : source.united(item->sceneBoundingRect());
    if (source.isNull())
        source = scene->itemsBoundingRect();
    const double margin = std::max(12.0, 0.04 * std::max(source.width(), source.height()));
    return source.adjusted(-margin, -margin, margin, margin);
}

} // namespace

QSize sceneSize(QGraphicsScene *scene, QSize size)
{
    const QRectF source = sceneSource(scene);
    if (size.isEmpty())
        return source.size().toSize().expandedTo(QSize(1, 1));
    return source.size().scaled(size, Qt::KeepAspectRatio).toSize().expandedTo(QSize(1, 1));
}

void paintScene(QGraphicsScene *scene, QPainter *painter, const QSizeF &target)
{
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    painter->fillRect(QRectF(QPointF(0, 0), target), Qt::white);
    const QList<QGraphicsItem *> selected = scene->selectedItems();
    for (QGraphicsItem *item : selected)
        item->setSelected(false);
    scene->render(painter, QRectF(QPointF(0, 0), target), sceneSource(scene), Qt::KeepAspectRatio);
    for (QGraphicsItem *item : selected)
        item->setSelected(true);
}

QImage sceneImage(QGraphicsScene *scene, QSize size, double scale)
{
    const QSize logical = sceneSize(scene, size);
    QImage image(QSize(int(std::lround(logical.width() * scale)), int(std::lround(logical.height() * scale))),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.scale(scale, scale);
    paintScene(scene, &painter, logical);
    painter.end();
    return image;
}

bool exportScene(QGraphicsScene *scene, const QString &path, QSize size, int dpi, QString *error)
{
    const QString format = exportFormat(path);
    if (format.isEmpty()) {
        if (error)
            *error = QStringLiteral("%1: unsupported format (use .png, .svg or .pdf)").arg(path);
        return false;
    }
    if (dpi <= 0) {
        if (error)
            *error = QStringLiteral("%1: DPI must be positive").arg(path);
        return false;
    }
    const QSize logical = sceneSize(scene, size);
    return renderAtomically(
        path,
        [&](const QString &temp) {
            if (format == QLatin1String("png"))
                return writePng(temp, sceneImage(scene, logical, double(dpi) / kLogicalDpi), dpi);
            if (format == QLatin1String("svg"))
                return writeSvg<QPainter>(temp, logical, QStringLiteral("DPLab graph"), [&](QPainter &painter) {
                    paintScene(scene, &painter, logical);
                });
            QPdfWriter writer(temp);
            writer.setCreator(QStringLiteral("DPLab"));
            writer.setTitle(QStringLiteral("DPLab graph"));
            writer.setResolution(kLogicalDpi);
            writer.setPageLayout(QPageLayout(QPageSize(QSizeF(logical) * 72.0 / kLogicalDpi, QPageSize::Point, QString(), QPageSize::ExactMatch),
                                             QPageLayout::Portrait, QMarginsF()));
            QPainter painter;
            if (!painter.begin(&writer))
                return false;
            paintScene(scene, &painter, logical);
            return painter.end();
        },
        error);
}

bool askPlotExportPath(QWidget *parent, const QString &title, const QString &suggestion, QString *path, int *dpi)
{
    return askPlotExportPath(parent, title, suggestion, path, dpi, nullptr);
}

bool askPlotExportPath(QWidget *parent, const QString &title, const QString &suggestion, QString *path, int *dpi,
                       QSize *size)
{
    QSettings settings;
    const QString folder = rememberedFolder(QStringLiteral("plots"));
    QString selected;
    QString chosen = QFileDialog::getSaveFileName(parent, title, QDir(folder).filePath(suggestion),
                                                  QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"),
                                                  &selected);
    if (chosen.isEmpty())
        return false;
    if (exportFormat(chosen).isEmpty())
        chosen += selected.contains(QLatin1String("svg"))   ? QStringLiteral(".svg")
                  : selected.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                            : QStringLiteral(".png");
    int resolution = settings.value(QStringLiteral("export/dpi"), 150).toInt();
    if (exportFormat(chosen) == QLatin1String("png")) {
        bool ok = false;
        resolution = QInputDialog::getInt(parent, title,
                                          QObject::tr("Resolution (DPI; 96 = screen size, 300 = print):"),
                                          resolution, 48, 1200, 1, &ok);
        if (!ok)
            return false;
        settings.setValue(QStringLiteral("export/dpi"), resolution);
    }
    if (size) {
        // The size for print: a journal's single or double column, a 16:9 slide, or as shown.
        const QVector<PlotExportSize> sizes = plotExportSizes();
        QStringList names;
        for (const PlotExportSize &s : sizes)
            names << s.name;
        const int remembered = std::clamp(settings.value(QStringLiteral("export/plotSize"), 0).toInt(), 0, int(sizes.size()) - 1);
        bool ok = false;
        const QString picked = QInputDialog::getItem(parent, title, QObject::tr("Size:"), names, remembered, false, &ok);
        if (!ok)
            return false;
        const int index = std::max(0, int(names.indexOf(picked)));
        settings.setValue(QStringLiteral("export/plotSize"), index);
        *size = sizes[index].size;
    }
    rememberFolder(QStringLiteral("plots"), chosen);
    *path = chosen;
    *dpi = resolution;
    return true;
}

void installPlotExportMenu(QCustomPlot *plot, std::function<QString()> name)
{
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(plot, &QWidget::customContextMenuRequested, plot, [plot, name](const QPoint &pos) {
        QMenu menu(plot);
        QAction *exportAction = menu.addAction(QObject::tr("Export this plot…"));
        if (menu.exec(plot->mapToGlobal(pos)) != exportAction)
            return;
        QString path;
        int dpi = 0;
        QSize size;
        if (!askPlotExportPath(plot, QObject::tr("Export plot"), QStringLiteral("dplab-%1.png").arg(name()), &path, &dpi,
                               &size))
            return;
        QString error;
        if (!exportPlot(plot, path, size.isEmpty() ? plot->size() : size, dpi, &error))
            QMessageBox::warning(plot, QObject::tr("Export plot"), error);
    });
}

} // namespace dplab
