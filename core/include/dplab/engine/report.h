// SPDX-License-Identifier: GPL-3.0-or-later
//
// Run reports (issue 8): everything a report says that needs no drawing — the privacy statement
// of every run in plain words, parameter tables, graph facts, the problem, final values
// (mean ± std over repetitions), warnings and how to reproduce the run — and the report as one
// HTML text. Pictures (the graph, the plots) are drawn by the UI layer and handed in as
// ReportImage entries whose `src` the caller chooses: a base64 data URI for a self-contained
// report.html, or a resource name for a QTextDocument that renders report.pdf. The HTML uses
// only what both a browser and QTextDocument render (tables with border attributes, h1–h3, p,
// ul, img with width).
//
// Threading: pure functions of their arguments.
#pragma once

#include "dplab/engine/runner.h"

#include <string>
#include <vector>

namespace dplab {

/** A picture placed in the report. id "graph" goes to the graph section, every other id to the
 *  plots section, in the order given. */
struct ReportImage {
    std::string id;
    std::string caption;
    std::string src; ///< what <img src> gets (data URI or resource name)
    int width = 0;   ///< display width in CSS pixels (0 = natural size)
    int height = 0;  ///< display height in CSS pixels (0 = from the width and the aspect ratio)
};

/** Facts of the report's header and reproduce section, chosen by the caller. */
struct ReportInfo {
    std::string date;                              ///< e.g. "2026-11-26 05:10 UTC"
    std::string version; ///< DPLab version ("" = dplabVersion())
    std::string experimentFile = "experiment.json"; ///< the resolved experiment written next to the report
    std::string overrides; ///< command-line overrides used (e.g. "--iterations 20"), "" when none
};

/** The version of this DPLab build (e.g. "0.1.0"). */
const char *dplabVersion();

/** What the privacy statement of one run rests on. */
struct PrivacyFacts {
    std::string accountant;               ///< accountant name, "" when the run has none
    std::vector<std::string> assumptions; ///< the assumptions the guarantee rests on
    std::vector<std::string> violated;    ///< theorem conditions the parameters violate
    Eigen::VectorXd epsilonPerAgent;      ///< final per-agent ε, mean over repetitions (empty when none)
    long long iterations = 0;             ///< iterations the ε covers
    int repetitions = 0;                  ///< repetitions averaged
};

/** Collects the privacy facts of run `run` of `experiment` from its result (per-agent ε) and a
 *  freshly reset algorithm (accountant assumptions, theorem-condition warnings). Cost: one
 *  algorithm reset. Errors: the reset's error, with the run's path. */
Result<PrivacyFacts> privacyFacts(const Experiment &experiment, int run, const RunResult &result);

/** The privacy statement of one run in plain words: which accountant, the cumulative ε at the
 *  end (max over agents and which agent), the assumptions it rests on and whether the
 *  theorem's conditions held. Always non-empty (says so when there is no guarantee). */
std::string privacyStatement(const std::string &label, const PrivacyFacts &facts);

/** A parameter value as the report prints it: numbers in the shortest form that reads back
 *  exactly, schedules as formulas ("0.1/(t+1)^0.6"), lists as "[a, b, …]", other objects as
 *  compact JSON. */
std::string formatParamValue(const Json &value);

/** Shortest decimal text that reads back as exactly `v` ("inf", "nan" for non-finite values). */
std::string formatShortest(double v);

/** A stretch of report text with its emphasis. */
struct ReportText {
    std::string text; ///< '\n' breaks the line
    bool bold = false;
    bool italic = false;
};

/** One block of a report in reading order. The HTML report and the PDF layout (ui/) draw the
 *  same blocks, so they say the same things. */
struct ReportBlock {
    enum class Kind {
        Title,      ///< the report's title (text)
        Heading,    ///< a section heading (text)
        Subheading, ///< a heading inside a section (text)
        Paragraph,  ///< running text (text, style)
        Table,      ///< header (may be empty: a key/value table) and rows of cells
        List,       ///< one item per row (rows[k][0]), style
        Code,       ///< preformatted lines (text)
        Pictures,   ///< where pictures go: `group` "graph" (the graph) or "plots" (every other)
        PageBreak,  ///< the PDF continues on a new page (the HTML ignores it)
    };
    enum class Style { Normal, Privacy, Warning };

    Kind kind = Kind::Paragraph;
    Style style = Style::Normal;
    std::vector<ReportText> text;
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::string group;   ///< Pictures: "graph" or "plots"
    std::string heading; ///< Pictures: the section heading shown when the group has pictures
    std::string note;    ///< Pictures: a sentence under that heading

    /** The text runs concatenated. */
    std::string plainText() const;
};

/** The report as blocks: header and summary (what was run, the headline result, every run's
 *  privacy statement), a page break, plots, final values, warnings, graph, problem, one section
 *  per run with its parameters, how to reproduce. Cost: one algorithm reset per run. */
std::vector<ReportBlock> reportBlocks(const Experiment &experiment, const ExperimentResult &result,
                                      const ReportInfo &info);

/** Blocks as an HTML document (UTF-8) titled `title`; `images` fill the Pictures blocks (id
 *  "graph" the graph group, every other id the plots group, in the order given). */
std::string reportHtml(const std::vector<ReportBlock> &blocks, const std::vector<ReportImage> &images,
                       const std::string &title);

/** The whole report as an HTML document (UTF-8): reportHtml(reportBlocks(…), images, title). */
std::string reportHtml(const Experiment &experiment, const ExperimentResult &result,
                       const std::vector<ReportImage> &images, const ReportInfo &info);

/** Escapes &, <, >, " for HTML text and attributes. */
std::string htmlEscape(const std::string &text);

} // namespace dplab
