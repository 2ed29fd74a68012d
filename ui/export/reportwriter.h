// SPDX-License-Identifier: GPL-3.0-or-later
//
// ReportWriter (issues 8, 13): the run report as report.html (self-contained: every picture is a
// base64 PNG inside the file) and report.pdf (A4, laid out by ReportLayout: plots in a grid,
// tables that keep their header, vector pictures), from a finished run. The text comes from core
// (reportBlocks), the same blocks for both files; the pictures are drawn here with the classes
// the window uses — the plots by a PlotPanel of MetricPlots fed with the result, the sweep plot
// by a SweepView, the graph by a GraphScene — so the report shows what the window shows. Works
// headless (offscreen platform) for `dplab-cli report`.
//
// Threading: GUI thread (needs a QApplication).
#pragma once

#include "dplab/engine/report.h"

#include <QColor>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>

namespace dplab {

class LiveResults;

/** Feeds a finished result into LiveResults as if it had streamed in (batches, then the end
 *  events), so the live plots draw it. */
void fillLiveResults(LiveResults *live, const Experiment &experiment, const ExperimentResult &result);

class ReportWriter
{
public:
    ReportWriter(std::shared_ptr<const Experiment> experiment, std::shared_ptr<const ExperimentResult> result);

    /** Run colours (default: the window's automatic palette). */
    void setRunColors(const QVector<QColor> &colors) { mColors = colors; }
    /** Header date (default: now, UTC) and the command-line overrides to mention. */
    void setInfo(const ReportInfo &info) { mInfo = info; }
    /** A tuning of this experiment with compared runs (its best.json): the report gains the
     *  "Compare tuned" section (dplab/engine/reporttuning.h). Null: none. */
    void setTuning(const Json &best) { mTuning = best; }

    /** The plots in the size of a plot export preset ("single", "double", "slide" of
     *  plotExportSizes()): the PDF's in its proportions, the HTML's at its size; "" the report's
     *  own (the text width, three a page; htmlPlotSize() in the HTML). False for an unknown name. */
    bool setPlotSize(const QString &key);

    /** Writes DIR/report.html and DIR/report.pdf (creating DIR), each atomically. */
    bool write(const QString &dir, QString *error);

    /** Pages of the last written PDF. */
    int pdfPageCount() const { return mPages; }
    /** How much of the last PDF page's text area the last report filled (0..1). */
    double pdfLastPageUsed() const { return mLastPageUsed; }
    /** Captions of the pictures in the last report, in order (tests). */
    QStringList imageCaptions() const { return mCaptions; }

    /** Size of a plot in the HTML report (logical pixels, drawn at 2× for print). */
    static QSize htmlPlotSize();

private:
    std::shared_ptr<const Experiment> mExperiment;
    std::shared_ptr<const ExperimentResult> mResult;
    QVector<QColor> mColors;
    ReportInfo mInfo;
    Json mTuning;
    QSize mPlotPreset; ///< empty: the report's own plot size
    int mPages = 0;
    double mLastPageUsed = 0;
    QStringList mCaptions;
};

} // namespace dplab
