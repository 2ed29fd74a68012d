// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportwriter.h"

#include "exporter.h"
#include "experimentdocument.h"
#include "graphdocument.h"
#include "graphscene.h"
#include "liveresults.h"
#include "metricnames.h"
#include "metricplot.h"
#include "plotpanel.h"
#include "sweepview.h"
#include "textconvert.h"

#include "dplab/engine/metrics.h"
#include "dplab/graph/generators.h"

#include <qcustomplot.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUndoStack>
#include <QUrl>

namespace dplab {

namespace {

constexpr double kPrintScale = 2.0; // pictures are rendered at 2× their logical size
constexpr int kPdfMarginMm = 15;

} // namespace

void fillLiveResults(LiveResults *live, const Experiment &experiment, const ExperimentResult &result)
{
    live->reset(experiment);
    for (int p = 0; p < static_cast<int>(result.points.size()); ++p) {
        const PointResult &point = result.points[p];
        QVector<RunBatch> batches;
        QVector<RunEvent> started, ended;
        for (int r = 0; r < static_cast<int>(point.runs.size()); ++r) {
            const RunResult &run = point.runs[r];
            for (int k = 0; k < static_cast<int>(run.repetitions.size()); ++k) {
                const RepetitionResult &rep = run.repetitions[k];
                RunEvent start;
                start.kind = StatusEvent::Kind::Started;
                start.point = p;
                start.run = r;
                start.repetition = k;
                started << start;
                RunBatch b;
                b.point = p;
                b.run = r;
                b.repetition = k;
                for (const auto &name : run.metricNames)
                    b.names << toQString(name);
                for (std::size_t i = 0; i < rep.iterations.size(); ++i) {
                    b.iterations << rep.iterations[i];
                    for (double v : rep.values[i])
                        b.values << v;
                }
                batches << b;
                const qint64 last = rep.iterations.empty() ? 0 : rep.iterations.back();
                if (rep.status == RunStatus::Diverged) {
                    RunEvent e = start;
                    e.kind = StatusEvent::Kind::Diverged;
                    e.iteration = rep.divergedAt;
                    ended << e;
                } else if (rep.status == RunStatus::Cancelled) {
                    RunEvent e = start;
                    e.kind = StatusEvent::Kind::Cancelled;
                    e.iteration = last;
                    ended << e;
                }
                RunEvent finished = start;
                finished.kind = StatusEvent::Kind::Finished;
                finished.iteration = last;
                ended << finished;
            }
            for (const auto &w : run.warnings) {
                RunEvent e;
                e.kind = StatusEvent::Kind::Warning;
                e.point = p;
                e.run = r;
                e.message = toQString(w);
                ended << e;
            }
        }
        live->addEvents(started);
        live->addBatches(batches);
        live->addEvents(ended);
    }
}

ReportWriter::ReportWriter(std::shared_ptr<const Experiment> experiment, std::shared_ptr<const ExperimentResult> result)
    : mExperiment(std::move(experiment))
    , mResult(std::move(result))
{
    for (int r = 0; r < static_cast<int>(mExperiment->runs.size()); ++r) {
        const QColor c(toQString(mExperiment->runs[r].color));
        mColors << (c.isValid() ? c : ExperimentDocument::defaultRunColor(r));
    }
}

int ReportWriter::pageTextWidth()
{
    // A4 is 210 mm wide.
    return static_cast<int>((210.0 - 2 * kPdfMarginMm) / 25.4 * kLogicalDpi);
}

QVector<ReportWriter::Picture> ReportWriter::renderPictures() const
{
    QVector<Picture> pictures;
    const int width = pageTextWidth();

    // The graph, as the editor draws it.
    {
        QUndoStack stack;
        GraphDocument graphDoc(&stack);
        Graph graph = mExperiment->graph;
        if (!graph.hasPositions())
            graph.setPositions(circularLayout(graph.nodeCount()));
        graphDoc.resetGraph(graph, mExperiment->graphJson.value("generator", Json()));
        GraphScene scene(&graphDoc);
        const int side = std::min(width, 340);
        Picture pic;
        pic.id = "graph";
        pic.caption = QStringLiteral("The communication graph: %1 agents, %2 %3 edges")
                          .arg(mExperiment->graph.nodeCount())
                          .arg(mExperiment->graph.edgeCount())
                          .arg(mExperiment->graph.isDirected() ? QStringLiteral("directed") : QStringLiteral("undirected"));
        pic.image = sceneImage(&scene, QSize(side, side), kPrintScale).convertToFormat(QImage::Format_RGB32);
        pic.width = static_cast<int>(pic.image.width() / kPrintScale);
        pic.height = static_cast<int>(pic.image.height() / kPrintScale);
        pictures << pic;
    }

    // The live plots, as the window's plot panel draws them after the run.
    LiveResults live;
    fillLiveResults(&live, *mExperiment, *mResult);
    PlotPanel panel(&live);
    panel.setRunColors(mColors);
    panel.showOutcome(*mResult);
    panel.resize(width, 2 * 360);
    const QSize plotSize(width, 360);
    const QString at = mExperiment->sweep && live.pointCount() > 1
                           ? QStringLiteral(" (at %1 = %2)").arg(live.sweepParameter(), live.pointLabels().value(0))
                           : QString();
    const QStringList present = live.allMetricNames(0);
    auto addPlot = [&](MetricPlot *plot, const QString &metric) {
        plot->resetView();
        Picture pic;
        pic.id = "plot-" + metric.toStdString();
        pic.caption = metricTitle(metric) + at;
        pic.image = plotImage(plot, plotSize, kPrintScale).convertToFormat(QImage::Format_RGB32);
        pic.width = width;
        pic.height = plotSize.height();
        pictures << pic;
    };
    if (present.contains(QLatin1String(metric::ConsensusError)))
        addPlot(panel.plot(PlotPanel::Consensus), QLatin1String(metric::ConsensusError));
    for (const QString &m : accuracyMetrics())
        if (present.contains(m)) {
            panel.setAccuracyMetric(m);
            addPlot(panel.plot(PlotPanel::Accuracy), m);
        }
    if (present.contains(QLatin1String(metric::Epsilon)))
        addPlot(panel.plot(PlotPanel::Epsilon), QLatin1String(metric::Epsilon));
    if (present.contains(QLatin1String(metric::Bits)))
        addPlot(panel.plot(PlotPanel::Bits), QLatin1String(metric::Bits));

    // The sweep: final metric against the swept value.
    if (mExperiment->sweep) {
        SweepView sweep;
        sweep.setRunColors(mColors);
        sweep.setResult(mExperiment, mResult);
        sweep.resize(width, 380);
        if (sweep.hasSweep()) {
            Picture pic;
            pic.id = "sweep";
            pic.caption = QStringLiteral("Final %1 against %2 (mean ± std over repetitions)")
                              .arg(metricTitle(sweep.metric()).toLower(), toQString(mExperiment->sweep->parameter));
            pic.image = plotImage(sweep.plot(), plotSize, kPrintScale).convertToFormat(QImage::Format_RGB32);
            pic.width = width;
            pic.height = plotSize.height();
            pictures << pic;
        }
    }
    return pictures;
}

bool ReportWriter::write(const QString &dir, QString *error)
{
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = QStringLiteral("%1: cannot create folder").arg(dir);
        return false;
    }
    ReportInfo info = mInfo;
    if (info.date.empty())
        info.date = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")).toStdString();
    const QVector<Picture> pictures = renderPictures();
    mCaptions.clear();
    std::vector<ReportImage> htmlImages, pdfImages;
    for (int k = 0; k < pictures.size(); ++k) {
        const Picture &p = pictures[k];
        mCaptions << p.caption;
        const std::string caption = toStdString(p.caption);
        htmlImages.push_back({p.id, caption, toStdString(pngDataUri(p.image, int(kLogicalDpi * kPrintScale))), p.width, p.height});
        pdfImages.push_back({p.id, caption, "dplab-image-" + std::to_string(k) + ".png", p.width, p.height});
    }

    // report.html: self-contained.
    const std::string html = reportHtml(*mExperiment, *mResult, htmlImages, info);
    if (!writeBytesAtomically(QDir(dir).filePath(QStringLiteral("report.html")), QByteArray::fromStdString(html), error))
        return false;

    // report.pdf: the same HTML with the pictures as document resources.
    QTextDocument doc;
    QFont font = doc.defaultFont();
    font.setPointSizeF(9.5);
    doc.setDefaultFont(font);
    for (int k = 0; k < pictures.size(); ++k)
        doc.addResource(QTextDocument::ImageResource, QUrl(toQString(pdfImages[k].src)), QVariant(pictures[k].image));
    doc.setHtml(toQString(reportHtml(*mExperiment, *mResult, pdfImages, info)));
    int pages = 0;
    const bool ok = renderAtomically(
        QDir(dir).filePath(QStringLiteral("report.pdf")),
        [&](const QString &temp) {
            QPdfWriter writer(temp);
            writer.setCreator(QStringLiteral("DPLab %1").arg(toQString(info.version.empty() ? dplabVersion() : info.version)));
            writer.setTitle(toQString(mExperiment->name));
            writer.setResolution(kLogicalDpi);
            writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                             QMarginsF(kPdfMarginMm, kPdfMarginMm, kPdfMarginMm, kPdfMarginMm),
                                             QPageLayout::Millimeter));
            doc.documentLayout()->setPaintDevice(&writer);
            doc.setPageSize(QSizeF(writer.pageLayout().paintRectPixels(writer.resolution()).size()));
            pages = doc.pageCount();
            doc.print(&writer);
            return true;
        },
        error);
    if (!ok)
        return false;
    mPages = pages;
    return true;
}

} // namespace dplab
