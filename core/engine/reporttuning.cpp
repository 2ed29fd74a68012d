// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/reporttuning.h"

#include "dplab/engine/writers.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace dplab {

namespace {

std::string numberText(const Json &v)
{
    return v.is_number() ? formatSignificant(v.get<double>(), 6) : std::string("—");
}

ReportBlock block(ReportBlock::Kind kind, std::string text)
{
    ReportBlock b;
    b.kind = kind;
    b.text = {ReportText{std::move(text)}};
    return b;
}

} // namespace

Result<std::vector<ReportBlock>> compareTunedBlocks(const Json &best)
{
    std::vector<ReportBlock> out;
    if (!best.is_object() || !best.contains("comparisons"))
        return out;
    if (!best.at("comparisons").is_array())
        return Error::invalid("best.json: comparisons", "must be a list");
    if (!best.contains("runs") || !best.at("runs").is_object())
        return Error::invalid("best.json: runs", "must be an object keyed by run label");
    try {
        const std::string metric = best.value("metric", std::string());
        const std::string parameter = best.value("parameter", std::string());
        const bool maximise = best.value("goal", std::string()) == "maximise";
        out.push_back(block(ReportBlock::Kind::Heading, "Compare tuned"));
        std::string sentence = "Every run was tuned on its own for the " + std::string(maximise ? "highest" : "lowest")
                               + " mean final " + metric + " over " + parameter;
        if (best.contains("epsilon") && best.at("epsilon").is_number())
            sentence += ", every candidate calibrated to the same target ε = " + numberText(best.at("epsilon"));
        sentence += " (" + std::to_string(best.value("jobs", 0LL)) + " jobs). The pairs are compared at their best "
                    "values over the common seeds: a two-sided Wilcoxon signed-rank test (significant: p < 0.05) and "
                    "a 95 % paired bootstrap interval of the mean difference.";
        out.push_back(block(ReportBlock::Kind::Paragraph, sentence));

        // Runs in the experiment's order (best.json keys them by label).
        std::vector<std::pair<long long, std::string>> order;
        for (auto it = best.at("runs").begin(); it != best.at("runs").end(); ++it)
            order.push_back({it.value().value("run", 0LL), it.key()});
        std::sort(order.begin(), order.end());
        ReportBlock runs;
        runs.kind = ReportBlock::Kind::Table;
        runs.header = {"run", "best " + parameter, metric + " mean ± 95 % CI", "repetitions"};
        for (const auto &[index, label] : order) {
            const Json &r = best.at("runs").at(label);
            if (!r.value("comparable", true)) {
                runs.rows.push_back({label, r.value("reason", std::string("not comparable")), "", ""});
                continue;
            }
            if (!r.contains("value")) {
                runs.rows.push_back({label, r.value("reason", std::string("not tuned")), "", ""});
                continue;
            }
            std::string mean = numberText(r.value("mean", Json()));
            if (r.value("ci_low", Json()).is_number() && r.value("ci_high", Json()).is_number())
                mean += " ± " + formatSignificant((r.at("ci_high").get<double>() - r.at("ci_low").get<double>()) / 2, 3);
            runs.rows.push_back({label, numberText(r.at("value")), mean, std::to_string(r.value("repetitions", 0))});
        }
        out.push_back(std::move(runs));

        ReportBlock pairs;
        pairs.kind = ReportBlock::Kind::Table;
        pairs.header = {"pair", "mean difference", "bootstrap 95 %", "signed-rank p", "pairs", "verdict"};
        for (const Json &pc : best.at("comparisons")) {
            const std::string a = pc.at("run_a").get<std::string>(), b = pc.at("run_b").get<std::string>();
            const double difference = pc.value("mean_difference", Json()).is_number() ? pc.at("mean_difference").get<double>() : NAN;
            const bool aBetter = maximise ? difference > 0 : difference < 0;
            const int n = pc.value("n", 0);
            std::string verdict = pc.value("significant", false) ? (aBetter ? a : b) + " better"
                                  : n < 6 ? "not significant (fewer than 6 pairs can never be)"
                                          : "not significant";
            pairs.rows.push_back({a + " − " + b, numberText(pc.value("mean_difference", Json())),
                                  numberText(pc.value("bootstrap_low", Json())) + " … "
                                      + numberText(pc.value("bootstrap_high", Json())),
                                  numberText(pc.value("wilcoxon_p", Json())), std::to_string(n), verdict});
        }
        out.push_back(std::move(pairs));
    } catch (const Json::exception &e) {
        return Error::invalid("best.json", std::string("malformed: ") + e.what());
    }
    return out;
}

void insertCompareTuned(std::vector<ReportBlock> &report, std::vector<ReportBlock> section)
{
    if (section.empty())
        return;
    // After the "Final values" section: before the next heading that follows it.
    auto at = report.end();
    auto finals = std::find_if(report.begin(), report.end(), [](const ReportBlock &b) {
        return b.kind == ReportBlock::Kind::Heading && b.plainText() == "Final values";
    });
    if (finals != report.end())
        at = std::find_if(finals + 1, report.end(),
                          [](const ReportBlock &b) { return b.kind == ReportBlock::Kind::Heading; });
    report.insert(at, std::make_move_iterator(section.begin()), std::make_move_iterator(section.end()));
}

} // namespace dplab
