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
#include "reportlayout.h"
#include "sweepview.h"
#include "textconvert.h"

#include "dplab/engine/metrics.h"
#include "dplab/engine/reporttuning.h"
#include "dplab/graph/generators.h"

#include <qcustomplot.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QUndoStack>

#include <algorithm>

namespace dplab {

namespace {

constexpr double kPrintScale = 2.0; // the HTML's pictures are rendered at 2× their logical size

/** While a plot is drawn for the report: without its title lines (the caption above the
 *  picture says the same, once). The text elements are taken out of the plot's top-level
 *  layout (their rows removed) and put back, with the rows' stretch factors, afterwards. */
class UntitledPlot
{
public:
    explicit UntitledPlot(QCustomPlot *plot) : mGrid(plot->plotLayout())
    {
        mStretch = mGrid->rowStretchFactors();
        // elementAt (unlike element) does not warn about empty cells.
        for (int index = 0; index < mGrid->elementCount(); ++index)
            if (auto *text = qobject_cast<QCPTextElement *>(mGrid->elementAt(index))) {
                int row = 0, col = 0;
                mGrid->indexToRowCol(index, row, col);
                mTaken.push_back({row, col, text});
            }
        std::sort(mTaken.begin(), mTaken.end(), [](const Taken &a, const Taken &b) { return a.row < b.row; });
        if (mTaken.isEmpty())
            return;
        for (const Taken &t : std::as_const(mTaken))
            mGrid->take(t.text);
        // The rows simplify() removes: those left without any element.
        QVector<bool> empty(mGrid->rowCount(), true);
        for (int index = 0; index < mGrid->elementCount(); ++index)
            if (mGrid->elementAt(index)) {
                int row = 0, col = 0;
                mGrid->indexToRowCol(index, row, col);
                empty[row] = false;
            }
        for (int row = 0; row < empty.size(); ++row)
            if (empty[row])
                mRemoved << row;
        mGrid->simplify();
    }
    ~UntitledPlot()
    {
        if (mTaken.isEmpty())
            return;
        for (int row : std::as_const(mRemoved)) // ascending: each lands at its old index
            mGrid->insertRow(row);
        for (const Taken &t : std::as_const(mTaken))
            mGrid->addElement(t.row, t.col, t.text);
        if (mGrid->rowCount() == mStretch.size())
            mGrid->setRowStretchFactors(mStretch);
    }
    UntitledPlot(const UntitledPlot &) = delete;
    UntitledPlot &operator=(const UntitledPlot &) = delete;

private:
    struct Taken {
        int row, col;
        QCPTextElement *text;
    };
    QCPLayoutGrid *mGrid;
    QList<double> mStretch;
    QVector<Taken> mTaken;
    QVector<int> mRemoved;
};

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

bool ReportWriter::setPlotSize(const QString &key)
{
    if (key.isEmpty()) {
        mPlotPreset = QSize();
        return true;
    }
    for (const PlotExportSize &s : plotExportSizes())
        if (!s.key.isEmpty() && s.key == key) {
            mPlotPreset = s.size;
            return true;
        }
    return false;
}

QSize ReportWriter::htmlPlotSize()
{
    // The PDF's text width (A4 with 15 mm margins at 96 DPI) and a third of a page high.
    return QSize(static_cast<int>(ReportLayout::textWidth()), 360);
}

namespace {

/** The report's pictures and the widgets that draw them, alive while the report is written.
 *  Each picture can be painted (vector, the PDF) and rasterised (PNG, the HTML). */
class ReportPictures
{
public:
    struct Entry {
        ReportLayout::Picture picture;
        std::function<QImage()> image; ///< the HTML's PNG at kPrintScale
        QSize htmlSize;                ///< its logical size in the HTML
    };

    /** `plotSize`: each plot's size in the HTML (logical pixels; the PDF lays them out itself). */
    ReportPictures(const Experiment &experiment, const ExperimentResult &result, const QVector<QColor> &colors,
                   std::shared_ptr<const Experiment> experimentPtr, std::shared_ptr<const ExperimentResult> resultPtr,
                   QSize plotSize)
        : mGraphDoc(&mStack)
        , mPanel(&mLive)
    {
        // The graph, as the editor draws it.
        Graph graph = experiment.graph;
        if (!graph.hasPositions())
            graph.setPositions(circularLayout(graph.nodeCount()));
        mGraphDoc.resetGraph(graph, experiment.graphJson.value("generator", Json()));
        mScene = std::make_unique<GraphScene>(&mGraphDoc);
        {
            Entry e;
            e.picture.id = "graph";
            e.picture.caption = QStringLiteral("The communication graph: %1 agents, %2 %3 edges")
                                    .arg(experiment.graph.nodeCount())
                                    .arg(experiment.graph.edgeCount())
                                    .arg(experiment.graph.isDirected() ? QStringLiteral("directed") : QStringLiteral("undirected"));
            GraphScene *scene = mScene.get();
            e.htmlSize = sceneSize(scene, QSize(340, 340));
            e.picture.naturalSize = e.htmlSize;
            e.picture.paint = [scene](QCPPainter *painter, const QSizeF &size) { paintScene(scene, painter, size); };
            const QSize htmlSize = e.htmlSize;
            e.image = [scene, htmlSize] {
                return sceneImage(scene, htmlSize, kPrintScale).convertToFormat(QImage::Format_RGB32);
            };
            mEntries << e;
        }

        // The live plots, as the window's plot panel draws them after the run.
        fillLiveResults(&mLive, experiment, result);
        mPanel.setRunColors(colors);
        mPanel.showOutcome(result);
        const QSize htmlSize = plotSize;
        mPanel.resize(htmlSize.width(), 2 * htmlSize.height());
        const QString at = experiment.sweep && mLive.pointCount() > 1
                               ? QStringLiteral(" (at %1 = %2)").arg(mLive.sweepParameter(), mLive.pointLabels().value(0))
                               : QString();
        const QStringList present = mLive.allMetricNames(0);
        PlotPanel *panel = &mPanel;
        auto addPlot = [&](int index, const QString &metric, bool accuracy) {
            MetricPlot *plot = panel->plot(index);
            // The accuracy plot shows one metric at a time: select this one before drawing.
            auto select = [panel, plot, metric, accuracy] {
                if (accuracy)
                    panel->setAccuracyMetric(metric);
                plot->resetView();
            };
            Entry e;
            e.picture.id = "plot-" + metric.toStdString();
            e.picture.caption = metricTitle(metric) + at;
            // The plot elides a long subtitle (the ε plot's accountants); the caption says it whole.
            select();
            // No hint meant for the screen ("(hover for why)") on paper.
            static const QRegularExpression hint(QStringLiteral("\\s*\\((hover|click|double-click)[^)]*\\)"));
            const QString subtitle = plot->subtitle().remove(hint).simplified();
            if (!subtitle.isEmpty())
                e.picture.caption += QStringLiteral(" — ") + subtitle;
            e.picture.naturalSize = htmlSize;
            e.picture.paint = [plot, select](QCPPainter *painter, const QSizeF &size) {
                select();
                const UntitledPlot untitled(plot);
                paintPlot(plot, painter, size);
            };
            e.image = [plot, select, htmlSize] {
                select();
                const UntitledPlot untitled(plot);
                return plotImage(plot, htmlSize, kPrintScale).convertToFormat(QImage::Format_RGB32);
            };
            e.htmlSize = htmlSize;
            mEntries << e;
        };
        if (present.contains(QLatin1String(metric::ConsensusError)))
            addPlot(PlotPanel::Consensus, QLatin1String(metric::ConsensusError), false);
        for (const QString &m : accuracyMetrics())
            if (present.contains(m))
                addPlot(PlotPanel::Accuracy, m, true);
        if (present.contains(QLatin1String(metric::Epsilon)))
            addPlot(PlotPanel::Epsilon, QLatin1String(metric::Epsilon), false);
        if (present.contains(QLatin1String(metric::Bits)))
            addPlot(PlotPanel::Bits, QLatin1String(metric::Bits), false);

        // The sweep: final metric against the swept value.
        if (experiment.sweep) {
            mSweep = std::make_unique<SweepView>();
            mSweep->setRunColors(colors);
            mSweep->setResult(std::move(experimentPtr), std::move(resultPtr));
            mSweep->resize(htmlSize.width(), 380);
            if (mSweep->hasSweep()) {
                QCustomPlot *plot = mSweep->plot();
                Entry e;
                e.picture.id = "sweep";
                e.picture.caption = QStringLiteral("Final %1 against %2 (mean ± std over repetitions)")
                                        .arg(metricTitle(mSweep->metric()).toLower(),
                                             toQString(experiment.sweep->parameter));
                e.picture.naturalSize = htmlSize;
                e.picture.paint = [plot](QCPPainter *painter, const QSizeF &size) {
                    const UntitledPlot untitled(plot);
                    paintPlot(plot, painter, size);
                };
                e.image = [plot, htmlSize] {
                    const UntitledPlot untitled(plot);
                    return plotImage(plot, htmlSize, kPrintScale).convertToFormat(QImage::Format_RGB32);
                };
                e.htmlSize = htmlSize;
                mEntries << e;
            }
        }
    }

    const QVector<Entry> &entries() const { return mEntries; }

private:
    QUndoStack mStack;
    GraphDocument mGraphDoc;
    std::unique_ptr<GraphScene> mScene;
    LiveResults mLive;
    PlotPanel mPanel;
    std::unique_ptr<SweepView> mSweep;
    QVector<Entry> mEntries;
};

} // namespace

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
    std::vector<ReportBlock> blocks = reportBlocks(*mExperiment, *mResult, info);
    if (!mTuning.is_null()) {
        auto tuned = compareTunedBlocks(mTuning);
        if (!tuned) {
            if (error)
                *error = toQString(tuned.error().toString());
            return false;
        }
        insertCompareTuned(blocks, std::move(*tuned));
    }
    const std::string title = mExperiment->name.empty() ? std::string("DPLab experiment") : mExperiment->name;
    // The HTML's plots follow --plot-size as the PDF's do (the preset's size), else the report's own.
    const ReportPictures pictures(*mExperiment, *mResult, mColors, mExperiment, mResult,
                                  mPlotPreset.isEmpty() ? htmlPlotSize() : mPlotPreset);

    // report.html: self-contained, PNG pictures at 2× for print.
    mCaptions.clear();
    std::vector<ReportImage> htmlImages;
    QVector<ReportLayout::Picture> pdfPictures;
    for (const auto &entry : pictures.entries()) {
        mCaptions << entry.picture.caption;
        htmlImages.push_back({entry.picture.id, toStdString(entry.picture.caption),
                              toStdString(pngDataUri(entry.image(), int(kLogicalDpi * kPrintScale))),
                              entry.htmlSize.width(), entry.htmlSize.height()});
        pdfPictures << entry.picture;
    }
    const std::string html = reportHtml(blocks, htmlImages, title);
    if (!writeBytesAtomically(QDir(dir).filePath(QStringLiteral("report.html")), QByteArray::fromStdString(html), error))
        return false;

    // report.pdf: laid out page by page, pictures as vectors.
    ReportLayout layout(blocks, pdfPictures, toQString(title));
    layout.setPlotPreset(mPlotPreset);
    const QString creator = QStringLiteral("DPLab %1").arg(toQString(info.version.empty() ? dplabVersion() : info.version));
    int pages = 0;
    const bool ok = renderAtomically(
        QDir(dir).filePath(QStringLiteral("report.pdf")),
        [&](const QString &temp) { return layout.writePdf(temp, creator, &pages, error); }, error);
    if (!ok)
        return false;
    mPages = pages;
    mLastPageUsed = layout.lastPageUsed();
    return true;
}

} // namespace dplab
