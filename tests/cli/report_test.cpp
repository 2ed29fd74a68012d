// SPDX-License-Identifier: GPL-3.0-or-later
// `dplab-cli report` on every preset at reduced size: report.html (self-contained) and
// report.pdf (checked with poppler's pdfinfo / pdftotext / pdfimages) hold every run label, every
// parameter value and the privacy statement, the PDF's pictures are vectors (no embedded image)
// and a two-run report takes at most five pages with no near-empty last one (--plot-size single
// no more); the run outputs are written next to them.
#include "clitest.h"

#include "dplab/common/csv.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iterator>
#include <sstream>
#include <regex>

namespace dplab::test {
namespace {

using Json = nlohmann::json;

/** Runs a shell command, returning its stdout ("" and a failure when it fails). */
std::string capture(const std::string &command)
{
    const auto out = std::filesystem::temp_directory_path() / ("dplab-capture-" + std::to_string(::getpid()) + ".txt");
    const int status = std::system((command + " >" + quote(out.string()) + " 2>/dev/null").c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command;
    std::string text = readText(out);
    std::filesystem::remove(out);
    return text;
}

/** Collapses every run of white space to one space (pdftotext breaks lines where the PDF does). */
std::string squeeze(const std::string &text)
{
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f') {
            space = true;
            continue;
        }
        if (space && !out.empty())
            out += ' ';
        space = false;
        out += c;
    }
    return out;
}

bool hasTool(const char *tool)
{
    return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

std::vector<std::string> presetNames()
{
    std::vector<std::string> names;
    for (const auto &entry : std::filesystem::directory_iterator(std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets"))
        if (entry.path().extension() == ".json")
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

/** `report` needs the UI library; a build with DPLAB_BUILD_UI=OFF says so (exit 2). */
#define DPLAB_SKIP_WITHOUT_UI()                                                                     \
    if (!DPLAB_TEST_HAVE_UI)                                                                        \
    GTEST_SKIP() << "report needs the UI library (this build has DPLAB_BUILD_UI=OFF)"

class PresetReport : public ::testing::TestWithParam<std::string>
{
};

TEST_P(PresetReport, WritesHtmlAndPdfWithEveryRunParameterAndStatement)
{
    DPLAB_SKIP_WITHOUT_UI();
    if (!hasTool("pdfinfo") || !hasTool("pdftotext"))
        GTEST_SKIP() << "poppler-utils (pdfinfo, pdftotext) are not installed";
    TempDir dir;
    const auto out = dir / "report";
    // Big data sets are cut down too (their reference solve dominates otherwise); the file is
    // then a reduced copy, which only works for data given by absolute path or as a resource.
    std::string file = preset(GetParam());
    Json doc = Json::parse(readText(file));
    Json &data = doc["problem"]["data"];
    if (data.is_object() && data.value("max_samples", 0) > 2000) {
        for (const char *key : {"images", "labels", "path"})
            if (data.contains(key) && !std::filesystem::exists(data.at(key).get<std::string>()))
                GTEST_SKIP() << "data set not installed: " << data.at(key);
        data["max_samples"] = 2000;
        if (doc["problem"].contains("reference_iterations"))
            doc["problem"]["reference_iterations"] = 5;
        file = (dir / GetParam()).string();
        writeText(file, doc.dump(2));
    }
    const auto r = runCli("report " + quote(file) + " --out " + quote(out.string())
                          + " --iterations 12 --repetitions 1 --threads 2");
    ASSERT_TRUE(r.exitCode == 0 || r.exitCode == 3) << r.err;
    for (const char *file : {"report.html", "report.pdf", "experiment.json", "metrics.csv", "summary.json",
                             "final_values.csv", "epsilon_per_agent.csv"})
        ASSERT_TRUE(std::filesystem::exists(out / file)) << file;

    // The resolved experiment written next to the report reproduces the reduced run.
    auto experiment = loadExperimentFile((out / "experiment.json").string());
    ASSERT_TRUE(experiment.ok()) << experiment.error().toString();
    EXPECT_EQ(experiment->iterations, 12);
    EXPECT_EQ(experiment->repetitions, 1);

    // HTML: self-contained, every label, parameter value and privacy statement.
    const std::string html = readText(out / "report.html");
    EXPECT_EQ(html.find("src=\"http"), std::string::npos);
    EXPECT_EQ(html.find("src=\"file"), std::string::npos);
    std::regex imgSrc("<img src=\"([^\"]{0,30})");
    int images = 0;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), imgSrc); it != std::sregex_iterator(); ++it, ++images)
        EXPECT_EQ((*it)[1].str().rfind("data:image/png;base64,", 0), 0u) << (*it)[1].str();
    EXPECT_GE(images, 2) << "the graph and at least one plot";
    EXPECT_NE(html.find("Privacy guarantee"), std::string::npos);
    const std::string pdfText = squeeze(capture("pdftotext -layout " + quote((out / "report.pdf").string()) + " -"));
    EXPECT_NE(pdfText.find(squeeze(experiment->name)), std::string::npos) << experiment->name;
    EXPECT_NE(pdfText.find("Privacy guarantee"), std::string::npos);
    EXPECT_NE(pdfText.find("How to reproduce"), std::string::npos);
    for (const RunSpec &run : experiment->runs) {
        EXPECT_NE(html.find(htmlEscape(run.label)), std::string::npos) << run.label;
        EXPECT_NE(pdfText.find(squeeze(run.label)), std::string::npos) << run.label;
        EXPECT_NE(html.find("<p class=\"privacy\">Run &quot;" + htmlEscape(run.label) + "&quot;"), std::string::npos)
            << "privacy statement of " << run.label;
        for (const Json *values : {&run.params, &run.privacy})
            for (auto it = values->begin(); it != values->end(); ++it) {
                const std::string v = formatParamValue(it.value());
                EXPECT_NE(html.find("<td>" + htmlEscape(v) + "</td>"), std::string::npos) << run.label << " " << it.key();
                EXPECT_NE(pdfText.find(squeeze(v)), std::string::npos) << run.label << " " << it.key() << " = " << v;
            }
    }

    // PDF: valid, A4, with the page count the writer reported.
    const std::string info = capture("pdfinfo " + quote((out / "report.pdf").string()));
    std::smatch m;
    ASSERT_TRUE(std::regex_search(info, m, std::regex("Pages:\\s+(\\d+)"))) << info;
    const int pages = std::stoi(m[1]);
    EXPECT_GE(pages, 2);
    std::smatch reported;
    ASSERT_TRUE(std::regex_search(r.err, reported, std::regex("\\((\\d+) pages\\)"))) << r.err;
    EXPECT_EQ(std::stoi(reported[1]), pages);
    EXPECT_NE(info.find("(A4)"), std::string::npos) << info;

    // Vector pictures: `pdfimages -list` prints its two header lines and no image.
    if (hasTool("pdfimages")) {
        const std::string images = capture("pdfimages -list " + quote((out / "report.pdf").string()));
        EXPECT_EQ(std::count(images.begin(), images.end(), '\n'), 2) << images;
    }
}

INSTANTIATE_TEST_SUITE_P(EveryPreset, PresetReport, ::testing::ValuesIn(presetNames()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                             std::string name = info.param.substr(0, info.param.size() - 5);
                             for (char &c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c)))
                                     c = '_';
                             return name;
                         });

namespace {

int pdfPages(const std::string &pdf)
{
    std::smatch m;
    const std::string info = capture("pdfinfo " + pdf);
    return std::regex_search(info, m, std::regex("Pages:\\s+(\\d+)")) ? std::stoi(m[1]) : -1;
}

std::string pageText(const std::string &pdf, int page)
{
    return capture("pdftotext -layout -f " + std::to_string(page) + " -l " + std::to_string(page) + " " + pdf + " -");
}

} // namespace

TEST(CliReport, TwoRunReportPagesAndPlotSizes)
{
    // The default preset (two runs, five pictures) at the size the README shows: page 1 the
    // summary, the plots three a page at the text width, then the details — at most five A4
    // pages (Qt's rich-text layout needed eight, one small plot a page), the last one not a
    // stranded line. --plot-size single puts two plots a row (the single-column preset), so
    // the report is no longer.
    DPLAB_SKIP_WITHOUT_UI();
    if (!hasTool("pdfinfo") || !hasTool("pdftotext"))
        GTEST_SKIP() << "poppler-utils (pdfinfo, pdftotext) are not installed";
    TempDir dir;
    const std::string file = quote(preset("teaching-push-pull-quadratic.json"));
    const auto out = dir / "report";
    const auto r = runCli("report " + file + " --out " + quote(out.string()) + " --iterations 200 --repetitions 2 --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string pdf = quote((out / "report.pdf").string());
    const int pages = pdfPages(pdf);
    EXPECT_GE(pages, 3);
    EXPECT_LE(pages, 5);
    // The plots' captions: three of them on one page.
    int most = 0;
    for (int page = 1; page <= pages; ++page) {
        const std::string text = squeeze(pageText(pdf, page));
        int captions = 0;
        for (const char *caption : {"Consensus error", "Distance to optimum", "Optimality gap", "Gradient norm", "Bits sent"})
            captions += text.find(caption) != std::string::npos;
        most = std::max(most, captions);
    }
    EXPECT_GE(most, 3);
    // The last page holds more than a few lines besides its footer.
    const std::string last = pageText(pdf, pages);
    int lines = 0;
    for (std::size_t at = 0, end; at < last.size(); at = end + 1) {
        end = last.find('\n', at);
        if (end == std::string::npos)
            end = last.size();
        const std::string line = last.substr(at, end - at);
        lines += line.find_first_not_of(" \f") != std::string::npos && line.find(" of " + std::to_string(pages)) == std::string::npos;
    }
    EXPECT_GT(lines, 5) << last;

    const auto single = dir / "single";
    const auto s = runCli("report " + file + " --out " + quote(single.string())
                          + " --iterations 200 --repetitions 2 --plot-size single --quiet");
    ASSERT_EQ(s.exitCode, 0) << s.err;
    const int singlePages = pdfPages(quote((single / "report.pdf").string()));
    EXPECT_GE(singlePages, 2);
    EXPECT_LE(singlePages, pages);
    // The HTML's plots follow --plot-size too: the single-column preset's 336×250 logical pixels,
    // not the report's own text-width plots.
    const auto plotSizes = [](const std::filesystem::path &html) {
        const std::string text = readText(html);
        std::vector<std::string> sizes;
        for (std::size_t at = text.find("<img "); at != std::string::npos; at = text.find("<img ", at + 1)) {
            const std::size_t alt = text.find(" alt=\"", at);
            const std::size_t width = text.find(" width=\"", at);
            if (alt == std::string::npos || width == std::string::npos || width > alt)
                continue;
            const std::string caption = text.substr(alt + 6, text.find('"', alt + 6) - alt - 6);
            if (caption.rfind("The communication graph", 0) == 0)
                continue; // the graph keeps its own size
            sizes.push_back(text.substr(width + 1, alt - width - 1));
        }
        return sizes;
    };
    const auto singleSizes = plotSizes(single / "report.html");
    ASSERT_GE(singleSizes.size(), 3u);
    for (const std::string &size : singleSizes)
        EXPECT_EQ(size, "width=\"336\" height=\"250\"");
    for (const std::string &size : plotSizes(out / "report.html"))
        EXPECT_NE(size, "width=\"336\" height=\"250\"");

    const auto bad = runCli("report " + file + " --out " + quote((dir / "bad").string()) + " --plot-size huge");
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--plot-size huge"), std::string::npos) << bad.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "bad" / "report.pdf"));
}

TEST(CliReport, NeedsOutAndRejectsBadRepetitions)
{
    DPLAB_SKIP_WITHOUT_UI();
    EXPECT_EQ(runCli("report " + quote(preset("teaching-push-pull-quadratic.json"))).exitCode, 2);
    const auto r = runCli("report " + quote(preset("teaching-push-pull-quadratic.json")) + " --out /tmp/x --repetitions 0");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--repetitions"), std::string::npos) << r.err;
}

TEST(CliReport, FailedWriteKeepsTheExistingReport)
{
    DPLAB_SKIP_WITHOUT_UI();
    // Works as root: report.pdf is taken by a folder, so the final rename fails.
    TempDir dir;
    const auto out = dir / "out";
    std::filesystem::create_directories(out / "report.pdf");
    writeText(out / "report.pdf" / "keep.txt", "precious");
    const auto r = runCli("report " + quote(preset("teaching-push-pull-quadratic.json")) + " --out " + quote(out.string())
                          + " --iterations 5 --repetitions 1 --quiet");
    EXPECT_EQ(r.exitCode, 2) << r.err; // an output folder that cannot be written is the input's fault
    EXPECT_NE(r.err.find("report.pdf"), std::string::npos) << r.err;
    EXPECT_EQ(readText(out / "report.pdf" / "keep.txt"), "precious");
    for (const auto &entry : std::filesystem::directory_iterator(out))
        EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << entry.path();
}

TEST(CliReport, LabelsWithCommasQuotesAndNonLatinTextRoundTrip)
{
    // Labels are any text but control characters: the CSV files quote them (RFC 4180), the
    // report escapes them in HTML and prints them in the PDF. `validate` refused "A, B" before.
    DPLAB_SKIP_WITHOUT_UI();
    const std::vector<std::string> labels = {"A, B", "say \"hi\" <b>&", "日本語 🚀 Ελληνικά"};
    Json e = Json::parse(readText(preset("teaching-push-pull-quadratic.json")));
    e["runs"].push_back(e["runs"][0]);
    for (std::size_t k = 0; k < labels.size(); ++k)
        e["runs"][k]["label"] = labels[k];
    TempDir dir;
    writeText(dir / "e.json", e.dump());
    ASSERT_EQ(runCli("validate " + quote((dir / "e.json").string())).exitCode, 0);
    const auto r = runCli("report " + quote((dir / "e.json").string()) + " --out " + quote((dir / "out").string())
                          + " --iterations 10 --repetitions 2 --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto column = [&](const std::string &file) {
        auto table = parseCsv(readText(dir / "out" / file), file);
        EXPECT_TRUE(table.ok()) << (table.ok() ? "" : table.error().toString());
        std::vector<std::string> runs;
        if (!table.ok())
            return runs;
        const auto &header = table->rows.at(0);
        const auto at = std::find(header.begin(), header.end(), "run") - header.begin();
        for (std::size_t row = 1; row < table->rows.size(); ++row)
            if (runs.empty() || runs.back() != table->rows[row].at(std::size_t(at)))
                runs.push_back(table->rows[row].at(std::size_t(at)));
        return runs;
    };
    EXPECT_EQ(column("final_values.csv"), labels);
    EXPECT_EQ(column("metrics.csv"), labels);
    const std::string html = readText(dir / "out" / "report.html");
    EXPECT_NE(html.find("A, B"), std::string::npos);
    EXPECT_NE(html.find("say &quot;hi&quot; &lt;b&gt;&amp;"), std::string::npos);
    EXPECT_EQ(html.find("<b>&"), std::string::npos);
    EXPECT_NE(html.find("日本語 🚀 Ελληνικά"), std::string::npos);
    // The results folder reads back with the same labels.
    const auto again = runCli("report --from " + quote((dir / "out").string()) + " --out " + quote((dir / "again").string()) + " --quiet");
    ASSERT_EQ(again.exitCode, 0) << again.err;
    const std::string reread = readText(dir / "again" / "report.html");
    for (const std::string label : {"A, B", "say &quot;hi&quot; &lt;b&gt;&amp;", "日本語 🚀 Ελληνικά"})
        EXPECT_NE(reread.find(label), std::string::npos) << label;
    if (hasTool("pdftotext")) {
        const std::string pdf = capture("pdftotext " + quote((dir / "out" / "report.pdf").string()) + " -");
        EXPECT_NE(pdf.find("A, B"), std::string::npos);
        EXPECT_NE(pdf.find("say \"hi\" <b>&"), std::string::npos);
        EXPECT_NE(pdf.find("Ελληνικά"), std::string::npos);
        // Japanese and emoji printed as empty boxes: no font among the set-up's packages had
        // them (scripts/setup.sh installs fonts-droid-fallback and fonts-symbola).
        // (The rocket is drawn, with Symbola, but pdftotext does not extract characters beyond
        // U+FFFF from Qt's PDFs: checked through the embedded font below.)
        EXPECT_NE(pdf.find("日本語"), std::string::npos) << pdf;
    }
    if (hasTool("pdffonts")) {
        // Every font the PDF uses is embedded (the report reads the same on any machine).
        const std::string fonts = capture("pdffonts " + quote((dir / "out" / "report.pdf").string()));
        std::istringstream lines(fonts);
        std::string line;
        int listed = 0;
        bool cjk = false, emoji = false;
        for (int k = 0; std::getline(lines, line); ++k) {
            if (k < 2 || line.empty())
                continue; // header and rule
            ++listed;
            cjk = cjk || line.find("Fallback") != std::string::npos || line.find("CJK") != std::string::npos;
            emoji = emoji || line.find("Symbola") != std::string::npos || line.find("Emoji") != std::string::npos;
            // columns: name type encoding emb sub uni object ID
            std::istringstream words(line);
            std::vector<std::string> w{std::istream_iterator<std::string>(words), {}};
            ASSERT_GE(w.size(), 7u) << line;
            EXPECT_EQ(w[w.size() - 5], "yes") << "not embedded: " << line;
        }
        EXPECT_GT(listed, 0) << fonts;
        EXPECT_TRUE(cjk) << "no CJK font in the PDF:\n" << fonts;
        EXPECT_TRUE(emoji) << "no emoji font in the PDF:\n" << fonts;
    }
}

TEST(CliRun, RepetitionsOverrideAndTheNewTables)
{
    TempDir dir;
    const auto r = runCli("run " + quote(preset("teaching-push-pull-quadratic.json")) + " --out " + quote(dir.path().string())
                          + " --iterations 10 --repetitions 2 --quiet");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Json summary = Json::parse(readText(dir / "summary.json"));
    EXPECT_EQ(summary["repetitions"], 2);
    const std::string fin = readText(dir / "final_values.csv");
    EXPECT_EQ(fin.rfind("run,status,", 0), 0u) << fin;
    const std::string eps = readText(dir / "epsilon_per_agent.csv");
    EXPECT_EQ(eps.rfind("run,repetition,agent,epsilon\n", 0), 0u) << eps;
}

} // namespace
} // namespace dplab::test
