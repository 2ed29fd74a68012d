// SPDX-License-Identifier: GPL-3.0-or-later
//
// Exports and the report writer: plots to PNG (size and DPI recorded), SVG and PDF (size),
// the graph picture, atomic writes that fail without touching existing files, the report's
// HTML (self-contained) and PDF (page count as pdfinfo reads it, at most 5 pages for two runs,
// text as pdftotext reads it, no raster images), the PDF layout's promises (each caption right
// above its picture, one plot a row at the text width, a table's header on every page it
// continues on, nothing outside the page's text area, no near-empty last page), the report's
// reading order (page 1: what was run, the headline, the privacy statements), one caption per
// plot (the plot's title is not drawn under it), and the window's data exports and File ▸ Export
// Report after a run.
#include "exporter.h"
#include "graphdocument.h"
#include "graphscene.h"
#include "liveresults.h"
#include "mainwindow.h"
#include "metricplot.h"
#include "plotpanel.h"
#include "presetlibrary.h"
#include "experimentdocument.h"
#include "reportlayout.h"
#include "reportwriter.h"
#include "runcontroller.h"
#include "uitest.h"

#include "dplab/common/files.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/report.h"
#include "dplab/engine/runner.h"
#include "dplab/engine/writers.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QMap>
#include <QSet>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace dplab;

namespace {

std::shared_ptr<const Experiment> smallExperiment(const QString &preset = PresetLibrary::defaultPreset())
{
    Json doc;
    QString error;
    if (!PresetLibrary::read(preset, &doc, &error))
        qFatal("%s", qPrintable(error));
    doc["iterations"] = 40;
    doc["repetitions"] = 2;
    auto e = parseExperiment(doc, PresetLibrary::baseDir().toStdString());
    if (!e)
        qFatal("%s", e.error().toString().c_str());
    return std::make_shared<const Experiment>(std::move(e.value()));
}

std::shared_ptr<const ExperimentResult> runIt(const Experiment &e)
{
    auto r = Runner(RunnerOptions{2, false, 64}).run(e);
    if (!r)
        qFatal("%s", r.error().toString().c_str());
    return std::make_shared<const ExperimentResult>(std::move(r.value()));
}

QString tool(const char *name)
{
    return QStandardPaths::findExecutable(QLatin1String(name));
}

QString runTool(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return QString();
    return QString::fromUtf8(p.readAllStandardOutput());
}

QString squeeze(QString text)
{
    return text.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
}

} // namespace

class TestReportWriter : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void plotPngHasRequestedSizeAndDpi();
    void plotSvgAndPdfHaveRequestedSize();
    void exportAllPlots();
    void graphPicture();
    void failedWriteLeavesExistingFilesUntouched();
    void liveResultsFromAResult();
    void reportHtmlAndPdf();
    void pdfLayoutKeepsCaptionsPicturesAndTableHeaders();
    void lastPageIsSavedByLowerPlots();
    void reportHasShortFirstPageOneCaptionPerPlotAndNoNearEmptyLastPage_data();
    void reportHasShortFirstPageOneCaptionPerPlotAndNoNearEmptyLastPage();
    void windowExportsDataAndReport();

private:
    std::shared_ptr<const Experiment> mExperiment;
    std::shared_ptr<const ExperimentResult> mResult;
};

void TestReportWriter::initTestCase()
{
    mExperiment = smallExperiment();
    mResult = runIt(*mExperiment);
}

void TestReportWriter::plotPngHasRequestedSizeAndDpi()
{
    LiveResults live;
    fillLiveResults(&live, *mExperiment, *mResult);
    MetricPlot plot(&live);
    plot.setMetric(QStringLiteral("consensus_error"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plot.png"));
    QString error;
    QVERIFY2(exportPlot(&plot, path, QSize(400, 300), 192, &error), qPrintable(error));
    QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(800, 600)); // 192 DPI = 2 × the 96-DPI logical size
    QCOMPARE(image.dotsPerMeterX(), qRound(192 / 0.0254));
    QCOMPARE(image.dotsPerMeterY(), qRound(192 / 0.0254));
    QVERIFY2(exportPlot(&plot, path, QSize(400, 300), 300, &error), qPrintable(error));
    image = QImage(path);
    QCOMPARE(image.size(), QSize(1250, 938));
    QCOMPARE(image.dotsPerMeterX(), qRound(300 / 0.0254));
    // Not blank: the curves and axes draw dark pixels.
    int dark = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4)
            dark += qGray(image.pixel(x, y)) < 128;
    QVERIFY(dark > 50);
    QVERIFY(!exportPlot(&plot, dir.filePath(QStringLiteral("plot.bmp")), QSize(400, 300), 96, &error));
    QVERIFY(error.contains(QStringLiteral("unsupported")));
}

void TestReportWriter::plotSvgAndPdfHaveRequestedSize()
{
    LiveResults live;
    fillLiveResults(&live, *mExperiment, *mResult);
    MetricPlot plot(&live);
    plot.setMetric(QStringLiteral("epsilon"));
    QTemporaryDir dir;
    QString error;
    const QString svg = dir.filePath(QStringLiteral("plot.svg"));
    QVERIFY2(exportPlot(&plot, svg, QSize(480, 320), 96, &error), qPrintable(error));
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QString svgText = QString::fromUtf8(svgFile.readAll());
    QVERIFY(svgText.size() > 1000);
    QVERIFY2(svgText.contains(QStringLiteral("viewBox=\"0 0 480 320\"")), qPrintable(svgText.left(600)));
    // 480 px at 96 DPI = 5 in = 127 mm.
    QVERIFY2(svgText.contains(QStringLiteral("width=\"127mm\"")), qPrintable(svgText.left(600)));

    const QString pdf = dir.filePath(QStringLiteral("plot.pdf"));
    QVERIFY2(exportPlot(&plot, pdf, QSize(480, 320), 96, &error), qPrintable(error));
    QVERIFY(QFileInfo(pdf).size() > 1000);
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    QVERIFY(pdfFile.read(5) == "%PDF-");
    if (tool("pdfinfo").isEmpty())
        QSKIP("pdfinfo (poppler-utils) is not installed");
    const QString info = runTool(tool("pdfinfo"), {pdf});
    QVERIFY2(info.contains(QRegularExpression(QStringLiteral("Page size:\\s+480 x 320 pts"))), qPrintable(info));
}

void TestReportWriter::exportAllPlots()
{
    LiveResults live;
    PlotPanel panel(&live);
    fillLiveResults(&live, *mExperiment, *mResult);
    panel.resize(900, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTemporaryDir dir;
    QString error;
    QVERIFY2(panel.exportPlotsTo(dir.filePath(QStringLiteral("all.png")), 150, &error), qPrintable(error));
    for (int p = 0; p < PlotPanel::PlotCount; ++p) {
        MetricPlot *plot = panel.plot(p);
        const QImage image(dir.filePath(QStringLiteral("all-%1.png").arg(plot->metric())));
        QVERIFY2(!image.isNull(), qPrintable(plot->metric()));
        // What is on screen, at 150/96 of its size.
        QCOMPARE(image.width(), qRound(plot->width() * 150.0 / 96));
        QCOMPARE(image.dotsPerMeterX(), qRound(150 / 0.0254));
    }
    QVERIFY2(panel.exportPlotsTo(dir.filePath(QStringLiteral("all.svg")), 96, &error), qPrintable(error));
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("all-consensus_error.svg"))).size() > 1000);
}

void TestReportWriter::graphPicture()
{
    QUndoStack stack;
    GraphDocument doc(&stack);
    doc.resetGraph(mExperiment->graph, Json());
    GraphScene scene(&doc);
    QTemporaryDir dir;
    QString error;
    for (const char *suffix : {"png", "svg", "pdf"}) {
        const QString path = dir.filePath(QStringLiteral("graph.%1").arg(QLatin1String(suffix)));
        QVERIFY2(exportScene(&scene, path, QSize(300, 300), 144, &error), qPrintable(error));
        QVERIFY2(QFileInfo(path).size() > 200, suffix);
    }
    const QImage image(dir.filePath(QStringLiteral("graph.png")));
    QVERIFY(std::max(image.width(), image.height()) == 450); // 300 logical px at 144 DPI
    QCOMPARE(image.dotsPerMeterX(), qRound(144 / 0.0254));
}

void TestReportWriter::failedWriteLeavesExistingFilesUntouched()
{
    // CI runs as root, so permissions cannot make a write fail: make the rename fail instead
    // (the target is a folder), and the temporary file's creation (the parent is a file).
    LiveResults live;
    MetricPlot plot(&live);
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("taken.png"));
    QVERIFY(QDir().mkpath(target));
    QFile keep(QDir(target).filePath(QStringLiteral("keep.txt")));
    QVERIFY(keep.open(QIODevice::WriteOnly));
    keep.write("precious");
    keep.close();
    QString error;
    for (const char *suffix : {"png", "svg", "pdf"}) {
        const QString path = dir.filePath(QStringLiteral("taken.%1").arg(QLatin1String(suffix)));
        QDir().mkpath(path);
        QVERIFY(!exportPlot(&plot, path, QSize(200, 100), 96, &error));
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY(QFileInfo(path).isDir());
    }
    QVERIFY(keep.open(QIODevice::ReadOnly));
    QCOMPARE(keep.readAll(), QByteArray("precious"));
    keep.close();
    // No temporary files are left behind.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);

    const QString file = dir.filePath(QStringLiteral("existing.csv"));
    QVERIFY(writeBytesAtomically(file, "old", &error));
    QVERIFY(!writeBytesAtomically(file + QStringLiteral("/sub.csv"), "new", &error));
    QVERIFY(!error.isEmpty());
    QFile existing(file);
    QVERIFY(existing.open(QIODevice::ReadOnly));
    QCOMPARE(existing.readAll(), QByteArray("old"));
}

void TestReportWriter::liveResultsFromAResult()
{
    LiveResults live;
    fillLiveResults(&live, *mExperiment, *mResult);
    QCOMPARE(live.runCount(), static_cast<int>(mExperiment->runs.size()));
    for (int r = 0; r < live.runCount(); ++r) {
        const RunResult &run = mResult->points[0].runs[r];
        QCOMPARE(live.rowCount(0, r), static_cast<int>(run.repetitions[0].iterations.size()));
        QCOMPARE(live.runState(0, r), LiveResults::RunState::Finished);
        // The mean over repetitions of the last consensus error.
        const auto names = run.metricNames;
        const int m = static_cast<int>(std::find(names.begin(), names.end(), "consensus_error") - names.begin());
        const double expected = finalMetricStats(run, m).mean;
        QVERIFY(qAbs(live.mean(0, r, QStringLiteral("consensus_error")).last() - expected) <= 1e-12 * (1 + qAbs(expected)));
    }
}

void TestReportWriter::reportHtmlAndPdf()
{
    QTemporaryDir dir;
    ReportWriter writer(mExperiment, mResult);
    ReportInfo info;
    info.date = "2026-11-26 05:00 UTC";
    writer.setInfo(info);
    QString error;
    QVERIFY2(writer.write(dir.path(), &error), qPrintable(error));
    // Two runs, five pictures: five pages (page 1 the summary, two of plots three a page at the
    // text width, two of details; the rich-text layout took eight, one small plot a page).
    QVERIFY2(writer.pdfPageCount() >= 3 && writer.pdfPageCount() <= 5, qPrintable(QString::number(writer.pdfPageCount())));
    QVERIFY(writer.imageCaptions().size() >= 4); // graph, consensus, accuracy, ε, bits
    QFile htmlFile(dir.filePath(QStringLiteral("report.html")));
    QVERIFY(htmlFile.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(htmlFile.readAll());
    QCOMPARE(html.count(QStringLiteral("<img src=\"data:image/png;base64,")), writer.imageCaptions().size());
    QVERIFY(html.contains(QStringLiteral("2026-11-26 05:00 UTC")));
    for (const RunSpec &run : mExperiment->runs)
        QVERIFY(html.contains(QString::fromStdString(htmlEscape(run.label))));

    if (tool("pdfinfo").isEmpty() || tool("pdftotext").isEmpty())
        QSKIP("poppler-utils are not installed");
    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    const QString info2 = runTool(tool("pdfinfo"), {pdf});
    const auto match = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(info2);
    QVERIFY2(match.hasMatch(), qPrintable(info2));
    QCOMPARE(match.captured(1).toInt(), writer.pdfPageCount());
    QVERIFY2(info2.contains(QStringLiteral("(A4)")), qPrintable(info2));
    const QString text = squeeze(runTool(tool("pdftotext"), {pdf, QStringLiteral("-")}));
    QVERIFY(text.contains(QString::fromStdString(mExperiment->name)));
    QVERIFY(text.contains(QStringLiteral("Privacy guarantee")));
    for (const RunSpec &run : mExperiment->runs) {
        QVERIFY(text.contains(QString::fromStdString(run.label)));
        auto facts = privacyFacts(*mExperiment, static_cast<int>(&run - &mExperiment->runs[0]), mResult->points[0].runs[&run - &mExperiment->runs[0]]);
        QVERIFY(facts.ok());
        // The statement's first sentence survives line breaking.
        const QString statement = squeeze(QString::fromStdString(privacyStatement(run.label, *facts)));
        QVERIFY2(text.contains(statement.left(40)), qPrintable(statement));
    }
    for (const QString &caption : writer.imageCaptions())
        QVERIFY2(text.contains(squeeze(caption)), qPrintable(caption));

    // Vector pictures: the PDF embeds no raster image (Qt's rich-text PDF embedded JPEGs).
    if (tool("pdfimages").isEmpty())
        QSKIP("pdfimages (poppler-utils) is not installed");
    const QStringList images = runTool(tool("pdfimages"), {QStringLiteral("-list"), pdf}).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(images.size() == 2, qPrintable(images.join(QLatin1Char('\n')))); // the two header lines only
}

void TestReportWriter::pdfLayoutKeepsCaptionsPicturesAndTableHeaders()
{
    using Placement = ReportLayout::Placement;
    // A long table after a heading, then seven plots and the graph, then another table.
    std::vector<ReportBlock> blocks;
    auto text = [](ReportBlock::Kind kind, const std::string &t) {
        ReportBlock b;
        b.kind = kind;
        b.text = {{t}};
        return b;
    };
    blocks.push_back(text(ReportBlock::Kind::Title, "Layout test"));
    blocks.push_back(text(ReportBlock::Kind::Heading, "Graph"));
    ReportBlock graph;
    graph.kind = ReportBlock::Kind::Pictures;
    graph.group = "graph";
    blocks.push_back(graph);
    ReportBlock facts;
    facts.kind = ReportBlock::Kind::Table;
    facts.rows = {{"agents n", "6"}, {"edges", "9"}};
    blocks.push_back(facts);
    for (int p = 0; p < 3; ++p)
        blocks.push_back(text(ReportBlock::Kind::Paragraph, std::string(600, 'x') + " filler text to push the table down"));
    blocks.push_back(text(ReportBlock::Kind::Heading, "A long table"));
    ReportBlock table;
    table.kind = ReportBlock::Kind::Table;
    table.header = {"key", "parameter", "value"};
    for (int r = 0; r < 90; ++r)
        table.rows.push_back({"params.key_" + std::to_string(r), "a parameter", std::to_string(r * 0.5)});
    blocks.push_back(table);
    ReportBlock plots;
    plots.kind = ReportBlock::Kind::Pictures;
    plots.group = "plots";
    plots.heading = "Plots";
    plots.note = "Mean over repetitions.";
    blocks.push_back(plots);
    blocks.push_back(text(ReportBlock::Kind::Heading, "Final values"));
    blocks.push_back(table);
    // A short table after a heading and a note: one piece, on the heading's page.
    for (int p = 0; p < 2; ++p)
        blocks.push_back(text(ReportBlock::Kind::Paragraph, std::string(400, 'y') + " filler"));
    blocks.push_back(text(ReportBlock::Kind::Heading, "Short table"));
    blocks.push_back(text(ReportBlock::Kind::Paragraph, "Last recorded value."));
    ReportBlock shortTable = table;
    shortTable.rows.resize(12);
    for (int copies = 0; copies < 6; ++copies) {
        blocks.push_back(text(ReportBlock::Kind::Paragraph, std::string(300, 'z') + " filler"));
        blocks.push_back(shortTable);
    }

    QVector<ReportLayout::Picture> pictures;
    int painted = 0;
    for (int k = 0; k < 8; ++k) {
        ReportLayout::Picture picture;
        picture.id = k == 3 ? "graph" : "plot-" + std::to_string(k);
        picture.caption = QStringLiteral("Picture %1").arg(k);
        picture.naturalSize = QSizeF(400, 300);
        picture.paint = [&painted](QCPPainter *painter, const QSizeF &size) {
            ++painted;
            painter->drawRect(QRectF(QPointF(0, 0), size));
        };
        pictures << picture;
    }
    ReportLayout layout(blocks, pictures, QStringLiteral("Layout test"));
    QTemporaryDir dir;
    QString error;
    int pages = 0;
    QVERIFY2(layout.writePdf(dir.filePath(QStringLiteral("layout.pdf")), QStringLiteral("test"), &pages, &error),
             qPrintable(error));
    QCOMPARE(painted, pictures.size());
    const QVector<Placement> &placed = layout.placements();
    const QRectF content = ReportLayout::contentRect();
    for (const Placement &p : placed) {
        QVERIFY(p.page >= 0 && p.page < pages);
        QVERIFY2(content.adjusted(-0.5, -0.5, 0.5, 0.5).contains(p.rect),
                 qPrintable(QStringLiteral("page %1: %2,%3 %4x%5").arg(p.page).arg(p.rect.x()).arg(p.rect.y())
                                .arg(p.rect.width()).arg(p.rect.height())));
    }
    auto find = [&](Placement::Kind kind, int index) {
        for (const Placement &p : placed)
            if (p.kind == kind && p.index == index)
                return p;
        return Placement{Placement::Kind::Caption, -1, QRectF(), -1, -1};
    };
    // Every caption on its picture's page, directly above it.
    for (int k = 0; k < pictures.size(); ++k) {
        const Placement caption = find(Placement::Kind::Caption, k);
        const Placement picture = find(Placement::Kind::Picture, k);
        QVERIFY2(caption.page >= 0 && picture.page >= 0, qPrintable(pictures[k].caption));
        QCOMPARE(caption.page, picture.page);
        QVERIFY(caption.rect.bottom() <= picture.rect.top() + 0.5);
        QVERIFY2(picture.rect.top() - caption.rect.bottom() < 8, qPrintable(pictures[k].caption));
    }
    // The plots one a row at the text width, large (at least 80 % of the nominal height), at
    // most three a page, in order.
    const QVector<int> plotIndex = {0, 1, 2, 4, 5, 6, 7};
    QMap<int, int> perPage;
    for (int k = 0; k < plotIndex.size(); ++k) {
        const Placement p = find(Placement::Kind::Picture, plotIndex[k]);
        QVERIFY(std::abs(p.rect.width() - ReportLayout::textWidth()) < 0.5);
        QVERIFY(p.rect.height() >= 0.8 * ReportLayout::gridPictureSize().height() - 0.5);
        ++perPage[p.page];
        if (k > 0) {
            const Placement above = find(Placement::Kind::Picture, plotIndex[k - 1]);
            QVERIFY(above.page < p.page || above.rect.bottom() < p.rect.top());
        }
    }
    for (int count : std::as_const(perPage))
        QVERIFY(count <= 3);
    // No near-empty last page.
    QVERIFY2(pages == 1 || layout.lastPageUsed() >= 0.25, qPrintable(QString::number(layout.lastPageUsed())));
    // The graph beside its facts: same top, side by side.
    const Placement graphPicture = find(Placement::Kind::Picture, 3);
    const Placement factsRow = find(Placement::Kind::TableRow, 0);
    QCOMPARE(factsRow.page, graphPicture.page);
    QCOMPARE(factsRow.rect.top(), graphPicture.rect.top());
    QVERIFY(factsRow.rect.left() > graphPicture.rect.right());
    // The long tables: every page with rows has the header above them; the first page at least
    // two rows; rows in order.
    for (int t : {1, 2}) {
        QMap<int, double> headerBottom;
        QMap<int, int> rowsOnPage;
        int lastRow = -1;
        for (const Placement &p : placed) {
            if (p.index != t)
                continue;
            if (p.kind == Placement::Kind::TableHeader)
                headerBottom[p.page] = p.rect.bottom();
            if (p.kind == Placement::Kind::TableRow) {
                QVERIFY2(headerBottom.contains(p.page), qPrintable(QStringLiteral("table %1 row %2").arg(t).arg(p.row)));
                QVERIFY(p.rect.top() >= headerBottom[p.page] - 0.5);
                QCOMPARE(p.row, lastRow + 1);
                lastRow = p.row;
                ++rowsOnPage[p.page];
            }
        }
        QCOMPARE(lastRow, 89);
        QVERIFY2(rowsOnPage.size() >= 2, "a 90-row table continues on another page");
        QVERIFY(rowsOnPage.first() >= 3);
    }
    // Short tables are never split, and the heading stays with its note and table.
    QMap<int, int> headingPage;
    for (const Placement &p : placed)
        if (p.kind == Placement::Kind::Heading)
            headingPage[p.index] = p.page;
    QCOMPARE(headingPage.size(), 4);
    for (int t = 3; t < 9; ++t) {
        QSet<int> pagesOfTable;
        int rows = 0;
        for (const Placement &p : placed)
            if (p.index == t && (p.kind == Placement::Kind::TableRow || p.kind == Placement::Kind::TableHeader)) {
                pagesOfTable << p.page;
                rows += p.kind == Placement::Kind::TableRow;
            }
        QCOMPARE(rows, 12);
        QVERIFY2(pagesOfTable.size() == 1, qPrintable(QStringLiteral("short table %1 split").arg(t)));
        if (t == 3)
            QCOMPARE(*pagesOfTable.begin(), headingPage[3]);
    }
}

void TestReportWriter::lastPageIsSavedByLowerPlots()
{
    // Three plots fill a page; a note of k lines after them would spill a few lines onto a
    // second page. Drawing the plots up to 20 % lower (3 × 58 px) keeps such a note on page 1.
    using Placement = ReportLayout::Placement;
    int lowered = 0;
    for (int k = 1; k <= 8; ++k) {
        std::vector<ReportBlock> blocks;
        ReportBlock plots;
        plots.kind = ReportBlock::Kind::Pictures;
        plots.group = "plots";
        blocks.push_back(plots);
        ReportBlock note;
        note.kind = ReportBlock::Kind::Paragraph;
        std::string lines;
        for (int line = 0; line < k; ++line)
            lines += (line ? "\n" : "") + std::string("a short line");
        note.text = {{lines}};
        blocks.push_back(note);
        QVector<ReportLayout::Picture> pictures;
        for (int p = 0; p < 3; ++p) {
            ReportLayout::Picture picture;
            picture.id = "plot-" + std::to_string(p);
            picture.caption = QStringLiteral("Plot %1").arg(p);
            picture.naturalSize = QSizeF(400, 300);
            picture.paint = [](QCPPainter *painter, const QSizeF &size) { painter->drawRect(QRectF(QPointF(0, 0), size)); };
            pictures << picture;
        }
        ReportLayout layout(blocks, pictures, QStringLiteral("Last page"));
        QTemporaryDir dir;
        QString error;
        int pages = 0;
        QVERIFY2(layout.writePdf(dir.filePath(QStringLiteral("last.pdf")), QStringLiteral("test"), &pages, &error),
                 qPrintable(error));
        QVERIFY2(pages == 1, qPrintable(QStringLiteral("%1 lines: %2 pages").arg(k).arg(pages)));
        for (const Placement &p : layout.placements())
            if (p.kind == Placement::Kind::Picture && p.index == 0) {
                QVERIFY(p.rect.height() >= 0.8 * ReportLayout::gridPictureSize().height() - 0.5);
                lowered += p.rect.height() < ReportLayout::gridPictureSize().height() - 0.5;
            }
    }
    QVERIFY2(lowered > 0, "the longer notes need lower plots"); // the test reaches the case it is about
}

void TestReportWriter::reportHasShortFirstPageOneCaptionPerPlotAndNoNearEmptyLastPage_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("runs");
    QTest::newRow("teaching, two runs") << PresetLibrary::defaultPreset() << 2;
    QTest::newRow("README example, two runs") << QStringLiteral(":/presets/paper000-fig2-logistic.json") << 2;
    QTest::newRow("paper003 Fig. 1, three runs") << QStringLiteral(":/presets/paper003-fig1-dpop.json") << 3;
}

void TestReportWriter::reportHasShortFirstPageOneCaptionPerPlotAndNoNearEmptyLastPage()
{
    QFETCH(QString, preset);
    QFETCH(int, runs);
    const auto experiment = smallExperiment(preset);
    QCOMPARE(int(experiment->runs.size()), runs);
    const auto result = runIt(*experiment);
    QTemporaryDir dir;
    ReportWriter writer(experiment, result);
    QString error;
    QVERIFY2(writer.write(dir.path(), &error), qPrintable(error));
    const int pages = writer.pdfPageCount();
    // The last page holds at least a quarter of a page (not a stranded line or two).
    QVERIFY2(pages == 1 || writer.pdfLastPageUsed() >= 0.25, qPrintable(QString::number(writer.pdfLastPageUsed())));

    if (tool("pdftotext").isEmpty())
        QSKIP("poppler-utils are not installed");
    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    auto pageText = [&](int page) {
        return runTool(tool("pdftotext"), {QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"),
                                           QString::number(page), QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    };
    const QStringList lastLines = pageText(pages).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    int textLines = 0;
    for (const QString &line : lastLines)
        textLines += !line.trimmed().isEmpty() && !line.contains(QStringLiteral("page %1 of %1").arg(pages));
    QVERIFY2(textLines > 5, qPrintable(lastLines.join(QLatin1Char('\n'))));

    // Page 1: what was run, the headline and the privacy statements; the details come later.
    const QString first = squeeze(pageText(1));
    QVERIFY(first.contains(QStringLiteral("Summary")));
    QVERIFY(first.contains(QStringLiteral("Privacy guarantee")));
    for (const RunSpec &run : experiment->runs)
        QVERIFY(first.contains(QString::fromStdString(run.label)));
    QVERIFY(!first.contains(QStringLiteral("Plots")));
    QVERIFY(!first.contains(QStringLiteral("How to reproduce")));

    // One caption per plot: the plot's own title is not drawn under its caption, so each
    // plot's name appears once in the text of the PDF besides where the report's text names it
    // (the final-values table names the metrics in words, as the captions do).
    const QString text = squeeze(runTool(tool("pdftotext"), {pdf, QStringLiteral("-")}));
    QString blockText;
    for (const ReportBlock &b : reportBlocks(*experiment, *result, ReportInfo())) {
        blockText += QString::fromStdString(b.plainText()) + QLatin1Char('\n');
        for (const std::string &cell : b.header)
            blockText += QString::fromStdString(cell) + QLatin1Char('\n');
        for (const auto &row : b.rows)
            for (const std::string &cell : row)
                blockText += QString::fromStdString(cell) + QLatin1Char('\n');
    }
    const QStringList captions = writer.imageCaptions();
    QVERIFY(captions.size() >= 3);
    for (const QString &caption : captions) {
        if (caption.startsWith(QStringLiteral("The communication graph")))
            continue;
        const QString name = caption.section(QStringLiteral(" — "), 0, 0).section(QStringLiteral(" ("), 0, 0);
        QVERIFY2(!name.isEmpty(), qPrintable(caption));
        const int inText = blockText.count(name);
        QVERIFY2(text.count(name) == 1 + inText,
                 qPrintable(QStringLiteral("\"%1\" appears %2 times, %3 in the report's text").arg(name).arg(text.count(name)).arg(inText)));
        QVERIFY2(!caption.contains(QStringLiteral("hover")), qPrintable(caption));
    }
}

void TestReportWriter::windowExportsDataAndReport()
{
    MainWindow window;
    QVERIFY(window.openPreset(MainWindow::defaultPreset()));
    window.document()->setValue("/iterations", 30, QStringLiteral("fewer"));
    window.document()->setValue("/repetitions", 2, QStringLiteral("fewer"));
    QTemporaryDir dir;
    QString error;
    QVERIFY(!window.writeData(MainWindow::DataExport::Metrics, dir.filePath(QStringLiteral("m.csv")), &error));
    QVERIFY(error.contains(QStringLiteral("run the experiment first")));
    QSignalSpy finished(window.runController(), &RunController::finished);
    window.startRun();
    QVERIFY(finished.wait(30000));
    QVERIFY(window.hasFinishedRun());
    const auto experiment = window.runController()->experiment();
    const auto result = window.runController()->lastResult();
    const struct {
        MainWindow::DataExport kind;
        std::string expected;
    } cases[] = {{MainWindow::DataExport::Metrics, metricsCsv(*experiment, *result)},
                 {MainWindow::DataExport::EpsilonPerAgent, epsilonPerAgentCsv(*experiment, *result)},
                 {MainWindow::DataExport::FinalValues, finalValuesCsv(*experiment, *result)}};
    for (const auto &c : cases) {
        const QString path = dir.filePath(QStringLiteral("data-%1.csv").arg(int(c.kind)));
        QVERIFY2(window.writeData(c.kind, path, &error), qPrintable(error));
        QCOMPARE(*readFile(path.toStdString()), c.expected);
    }
    QVERIFY(!window.writeData(MainWindow::DataExport::Sweep, dir.filePath(QStringLiteral("s.csv")), &error));
    QVERIFY(error.contains(QStringLiteral("no sweep")));

    const QString reportDir = dir.filePath(QStringLiteral("report"));
    QVERIFY2(window.writeReport(reportDir, &error), qPrintable(error));
    for (const char *file : {"report.html", "report.pdf", "experiment.json", "metrics.csv", "summary.json"})
        QVERIFY2(QFileInfo(QDir(reportDir).filePath(QLatin1String(file))).size() > 0, file);
    // The experiment written next to the report is the one that ran.
    auto reread = loadExperimentFile(QDir(reportDir).filePath(QStringLiteral("experiment.json")).toStdString());
    QVERIFY(reread.ok());
    QCOMPARE(js(reread->resolved), js(experiment->resolved));
    window.document()->undoStack()->setClean();
}

QTEST_MAIN(TestReportWriter)
#include "tst_reportwriter.moc"
