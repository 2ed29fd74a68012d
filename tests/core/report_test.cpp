// SPDX-License-Identifier: GPL-3.0-or-later
// Run reports without Qt: privacy statements, parameter formatting, the HTML content, and the
// per-agent ε / final-values CSV writers.
#include "../common/ringquadratic.h"
#include "dplab/common/numberformat.h"
#include "dplab/engine/metricnames.h"
#include "dplab/engine/metrics.h"
#include "dplab/engine/report.h"
#include "dplab/engine/writers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace dplab {
namespace {

Json smallExperiment()
{
    return test::ringQuadraticExperiment("report <test>", 11, 30, 2, 5, Json::parse(R"([
      { "label": "GT noisy", "algorithm": "gradient-tracking",
        "params": { "stepsize": {"type": "polynomial", "a": 0.1, "t0": 1, "p": 0.6} },
        "privacy": { "noise_x": 0.01 } },
      { "label": "DGD", "algorithm": "dgd", "params": { "stepsize": 0.1 } } ])"));
}

struct Ran {
    Experiment experiment;
    ExperimentResult result;
};

Ran runSmall(const Json &doc)
{
    auto e = parseExperiment(doc, ".");
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().toString());
    auto r = Runner(RunnerOptions{1, false, 64}).run(*e);
    EXPECT_TRUE(r.ok());
    return {std::move(*e), std::move(*r)};
}

std::vector<std::string> lines(const std::string &text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

TEST(ReportFormat, ShortestNumbersReadBackExactly)
{
    for (double v : {0.1, 1.0 / 3.0, 2.5e-7, 1e300, -42.0, 0.0}) {
        const std::string s = formatShortest(v);
        EXPECT_EQ(std::strtod(s.c_str(), nullptr), v) << s;
    }
    EXPECT_EQ(formatShortest(0.1), "0.1");
    EXPECT_EQ(formatShortest(-42.0), "-42");
    EXPECT_EQ(formatShortest(INFINITY), "inf");
}

TEST(ReportFormat, ParamValuesAsTheyAreWritten)
{
    EXPECT_EQ(formatParamValue(Json(0.1)), "0.1");
    EXPECT_EQ(formatParamValue(Json(7)), "7");
    EXPECT_EQ(formatParamValue(Json(true)), "true");
    EXPECT_EQ(formatParamValue(Json("top-k")), "top-k");
    EXPECT_EQ(formatParamValue(Json::array({1, 0.5})), "[1, 0.5]");
    EXPECT_EQ(formatParamValue(Json{{"type", "polynomial"}, {"a", 0.1}, {"t0", 1}, {"p", 0.6}}), "0.1/(t+1)^0.6");
    EXPECT_EQ(formatParamValue(Json{{"type", "geometric"}, {"a", 2}, {"q", 0.98}}), "2·0.98^t");
    EXPECT_EQ(htmlEscape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
}

TEST(ReportPrivacy, StatementNamesAccountantMaxAgentAndConditions)
{
    PrivacyFacts facts;
    facts.accountant = "basic composition";
    facts.assumptions = {"gradients bounded by G"};
    facts.epsilonPerAgent = Eigen::Vector3d(0.5, 2.25, 1.0);
    facts.iterations = 100;
    facts.repetitions = 3;
    const std::string s = privacyStatement("LDP", facts);
    EXPECT_NE(s.find("basic composition"), std::string::npos) << s;
    EXPECT_NE(s.find("ε ≤ 2.25"), std::string::npos) << s;
    EXPECT_NE(s.find("agent 1"), std::string::npos) << s;
    EXPECT_NE(s.find("0.5, agent 0"), std::string::npos) << s;
    EXPECT_NE(s.find("100 iterations"), std::string::npos) << s;
    EXPECT_NE(s.find("gradients bounded by G"), std::string::npos) << s;
    EXPECT_NE(s.find("conditions that DPLab checks hold"), std::string::npos) << s;
    facts.violated = {"stepsize too large"};
    const std::string v = privacyStatement("LDP", facts);
    EXPECT_NE(v.find("do NOT all hold"), std::string::npos) << v;
    EXPECT_NE(v.find("stepsize too large"), std::string::npos) << v;

    PrivacyFacts none;
    EXPECT_NE(privacyStatement("plain", none).find("no differential-privacy guarantee"), std::string::npos);
}

TEST(ReportPrivacy, FactsComeFromTheRunsAccountant)
{
    const Ran ran = runSmall(smallExperiment());
    const RunResult &noisy = ran.result.points[0].runs[0];
    auto facts = privacyFacts(ran.experiment, 0, noisy);
    ASSERT_TRUE(facts.ok());
    EXPECT_EQ(facts->accountant, noisy.accountant);
    if (!noisy.accountant.empty()) {
        ASSERT_EQ(facts->epsilonPerAgent.size(), 4);
        // The mean over the two repetitions of the per-agent ε the runner reported.
        for (int i = 0; i < 4; ++i)
            EXPECT_DOUBLE_EQ(facts->epsilonPerAgent[i],
                             (noisy.repetitions[0].epsilonPerAgent[i] + noisy.repetitions[1].epsilonPerAgent[i]) / 2);
        EXPECT_EQ(facts->repetitions, 2);
    }
    EXPECT_EQ(facts->iterations, 30);
}

TEST(ReportHtml, ContainsEveryLabelParameterAndStatement)
{
    const Ran ran = runSmall(smallExperiment());
    std::vector<ReportImage> images = {{"graph", "The graph", "graph.png", 300},
                                       {"plot-consensus_error", "Consensus error", "plot1.png", 500}};
    ReportInfo info;
    info.date = "2026-01-02";
    const std::string html = reportHtml(ran.experiment, ran.result, images, info);
    EXPECT_NE(html.find("report &lt;test&gt;"), std::string::npos) << "name is escaped";
    EXPECT_NE(html.find("seed 11"), std::string::npos);
    EXPECT_NE(html.find(dplabVersion()), std::string::npos);
    EXPECT_NE(html.find("2026-01-02"), std::string::npos);
    // The summary and the privacy statements first, then the plots, then the details (graph…).
    EXPECT_LT(html.find("<h2>Summary</h2>"), html.find("src=\"plot1.png\""));
    EXPECT_LT(html.find("class=\"privacy\""), html.find("src=\"plot1.png\""));
    EXPECT_LT(html.find("src=\"plot1.png\""), html.find("src=\"graph.png\""));
    for (std::size_t r = 0; r < ran.experiment.runs.size(); ++r) {
        const RunSpec &run = ran.experiment.runs[r];
        EXPECT_NE(html.find(htmlEscape(run.label)), std::string::npos) << run.label;
        EXPECT_NE(html.find(htmlEscape(run.algorithm->reference)), std::string::npos);
        for (auto it = run.params.begin(); it != run.params.end(); ++it)
            EXPECT_NE(html.find("<td>" + htmlEscape(formatParamValue(it.value())) + "</td>"), std::string::npos)
                << run.label << " " << it.key();
        for (auto it = run.privacy.begin(); it != run.privacy.end(); ++it)
            EXPECT_NE(html.find("<td>" + htmlEscape(formatParamValue(it.value())) + "</td>"), std::string::npos)
                << run.label << " privacy." << it.key();
        auto facts = privacyFacts(ran.experiment, static_cast<int>(r), ran.result.points[0].runs[r]);
        ASSERT_TRUE(facts.ok());
        EXPECT_NE(html.find(htmlEscape(privacyStatement(run.label, *facts))), std::string::npos) << run.label;
    }
    EXPECT_NE(html.find("0.1/(t+1)^0.6"), std::string::npos);
    EXPECT_NE(html.find("metropolis"), std::string::npos);
    EXPECT_NE(html.find("spectral gap"), std::string::npos);
    EXPECT_NE(html.find("How to reproduce"), std::string::npos);
    EXPECT_NE(html.find("experiment.json"), std::string::npos);
}

TEST(ReportCsv, EpsilonPerAgentAndFinalValues)
{
    const Ran ran = runSmall(smallExperiment());
    const auto eps = lines(epsilonPerAgentCsv(ran.experiment, ran.result));
    ASSERT_FALSE(eps.empty());
    EXPECT_EQ(eps[0], "run,repetition,agent,epsilon");
    int expected = 0;
    for (const auto &run : ran.result.points[0].runs)
        for (const auto &rep : run.repetitions)
            expected += static_cast<int>(rep.epsilonPerAgent.size());
    EXPECT_EQ(static_cast<int>(eps.size()) - 1, expected);

    const auto fin = lines(finalValuesCsv(ran.experiment, ran.result));
    ASSERT_EQ(fin.size(), 3u); // header + 2 runs
    EXPECT_EQ(fin[0].rfind("run,status,", 0), 0u) << fin[0];
    EXPECT_EQ(fin[1].rfind("GT noisy,ok,", 0), 0u) << fin[1];
    EXPECT_EQ(fin[2].rfind("DGD,ok,", 0), 0u) << fin[2];
    // The consensus_error mean is the mean of the two repetitions' last values.
    const RunResult &dgd = ran.result.points[0].runs[1];
    const auto col = std::find(dgd.metricNames.begin(), dgd.metricNames.end(), "consensus_error") - dgd.metricNames.begin();
    const double mean = (dgd.repetitions[0].values.back()[col] + dgd.repetitions[1].values.back()[col]) / 2;
    EXPECT_DOUBLE_EQ(finalMetricStats(dgd, static_cast<int>(col)).mean, mean);
    EXPECT_NE(fin[2].find(formatValue(mean)), std::string::npos);
}

TEST(ReportBlocks, SummaryFirstAndRoundOffSpreadIsZero)
{
    Ran ran = runSmall(smallExperiment());
    // Two repetitions of DGD that agree up to round-off in their last consensus error, and
    // differ truly in another metric.
    RunResult &dgd = ran.result.points[0].runs[1];
    const auto col = std::find(dgd.metricNames.begin(), dgd.metricNames.end(), "consensus_error") - dgd.metricNames.begin();
    ASSERT_LT(col, static_cast<long>(dgd.metricNames.size()));
    const double v = 1e4;
    dgd.repetitions[0].values.back()[col] = v;
    dgd.repetitions[1].values.back()[col] = v * (1 + 4e-15);
    const MetricStats stats = finalMetricStats(dgd, static_cast<int>(col));
    ASSERT_GT(stats.std, 0.0); // the raw spread is round-off, not zero
    const auto blocks = reportBlocks(ran.experiment, ran.result, ReportInfo());
    // Page 1 first: the title, the header, the summary and the privacy statements, then the page break.
    ASSERT_GE(blocks.size(), 4u);
    EXPECT_EQ(blocks[2].kind, ReportBlock::Kind::Heading);
    EXPECT_EQ(blocks[2].plainText(), "Summary");
    std::size_t pageBreak = 0;
    while (pageBreak < blocks.size() && blocks[pageBreak].kind != ReportBlock::Kind::PageBreak)
        ++pageBreak;
    ASSERT_LT(pageBreak, blocks.size());
    int statements = 0;
    for (std::size_t k = 0; k < pageBreak; ++k)
        statements += blocks[k].style == ReportBlock::Style::Privacy;
    EXPECT_EQ(statements, 2);
    // The final values table: "10000 ± 0", not "1e+04 ± 2.8e-11".
    bool found = false;
    for (std::size_t k = pageBreak; k < blocks.size(); ++k)
        if (blocks[k].kind == ReportBlock::Kind::Table && !blocks[k].header.empty() && blocks[k].header[0] == "metric")
            for (const auto &row : blocks[k].rows) {
                // Metric names in words, the window's (metricDisplayName), never the raw key.
                EXPECT_EQ(row[0].find('_'), std::string::npos) << row[0];
                if (row[0] == "Consensus error") {
                    EXPECT_EQ(row[2], "1e+04 ± 0");
                    found = true;
                }
            }
    EXPECT_TRUE(found);
    EXPECT_EQ(spreadAboveRoundOff(1e4, 9.1e-12), 0.0);
    EXPECT_EQ(spreadAboveRoundOff(1e-20, 1e-22), 1e-22); // small, but not round-off
    EXPECT_EQ(spreadAboveRoundOff(0.0123, 0.00456), 0.00456);
}

TEST(ReportCsv, SweepAddsTheValueColumn)
{
    Json doc = smallExperiment();
    doc["sweep"] = Json{{"parameter", "runs[*].privacy.noise_x"}, {"values", {0.01, 0.1}}};
    doc["runs"].erase(1);
    const Ran ran = runSmall(doc);
    const auto fin = lines(finalValuesCsv(ran.experiment, ran.result));
    ASSERT_EQ(fin.size(), 3u);
    EXPECT_EQ(fin[0].rfind("value,run,status", 0), 0u);
    EXPECT_EQ(fin[1].rfind("0.01,GT noisy,", 0), 0u) << fin[1];
    const auto eps = lines(epsilonPerAgentCsv(ran.experiment, ran.result));
    EXPECT_EQ(eps[0], "run,repetition,value,agent,epsilon");
    const std::string html = reportHtml(ran.experiment, ran.result, {}, ReportInfo{});
    EXPECT_NE(html.find("runs[*].privacy.noise_x"), std::string::npos);
    // The sweep's final-values table names its metric columns in words too.
    bool table = false;
    for (const ReportBlock &b : reportBlocks(ran.experiment, ran.result, ReportInfo()))
        if (b.kind == ReportBlock::Kind::Table && b.header.size() > 3 && b.header[1] == "run") {
            table = true;
            for (std::size_t c = 3; c < b.header.size(); ++c)
                EXPECT_EQ(b.header[c].find('_'), std::string::npos) << b.header[c];
            EXPECT_NE(std::find(b.header.begin(), b.header.end(), "Consensus error"), b.header.end());
        }
    EXPECT_TRUE(table);
}

TEST(MetricNames, EveryMetricHasItsNameInWords)
{
    for (const std::string &name : allMetricNames()) {
        const std::string words = metricDisplayName(name);
        EXPECT_NE(words, name);
        EXPECT_EQ(words.find('_'), std::string::npos) << words;
    }
    EXPECT_EQ(metricDisplayName("distance_to_optimum"), "Distance to optimum");
    EXPECT_EQ(metricDisplayName("no_such_metric"), "no_such_metric");
}

} // namespace
} // namespace dplab
