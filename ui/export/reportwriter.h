// SPDX-License-Identifier: GPL-3.0-or-later
//
// ReportWriter (issue 8): the run report as report.html (self-contained: every picture is a
// base64 PNG inside the file) and report.pdf (A4, through QTextDocument and QPdfWriter), from
// a finished run. The text comes from core (reportHtml); the pictures are drawn here with the
// classes the window uses — the plots by a PlotPanel of MetricPlots fed with the result, the
// sweep plot by a SweepView, the graph by a GraphScene — so the report shows what the window
// shows. Works headless (offscreen platform) for `dplab-cli report`.
//
// Threading: GUI thread (needs a QApplication).
#pragma once

#include "dplab/engine/report.h"

#include <QColor>
#include <QImage>
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

    /** Writes DIR/report.html and DIR/report.pdf (creating DIR), each atomically. */
    bool write(const QString &dir, QString *error);

    /** Pages of the last written PDF. */
    int pdfPageCount() const { return mPages; }
    /** Captions of the pictures in the last report, in order (tests). */
    QStringList imageCaptions() const { return mCaptions; }

    /** The report's pictures: id, caption and image (rendered at 2× for print). */
    struct Picture {
        std::string id;
        QString caption;
        QImage image;
        int width = 0;  ///< logical width on the page
        int height = 0; ///< logical height on the page
    };
    QVector<Picture> renderPictures() const;

    /** Text width of the PDF page in logical pixels (A4 with 15 mm margins at 96 DPI). */
    static int pageTextWidth();

private:
    std::shared_ptr<const Experiment> mExperiment;
    std::shared_ptr<const ExperimentResult> mResult;
    QVector<QColor> mColors;
    ReportInfo mInfo;
    int mPages = 0;
    QStringList mCaptions;
};

} // namespace dplab
