// SPDX-License-Identifier: GPL-3.0-or-later
// `cmake --install` into a temporary prefix: dplab-cli (and dplab) in bin/, the presets and the
// data sets in share/dplab/, a desktop entry and an icon; the installed CLI runs from there and
// reads its bundled data from <prefix>/share/dplab, not from the source tree.
#include "clitest.h"

#include <set>

namespace dplab::test {
namespace {

/** Runs a shell command without DPLAB_RESOURCES (the tests set it to the source tree). */
CliResult shell(const std::string &command, const std::filesystem::path &dir)
{
    const std::string out = (dir / "shell.out").string(), err = (dir / "shell.err").string();
    const int status = std::system(("env -u DPLAB_RESOURCES " + command + " >" + quote(out) + " 2>" + quote(err)).c_str());
    CliResult r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readText(out);
    r.err = readText(err);
    return r;
}

TEST(Install, PutsProgramsPresetsDataDesktopEntryAndIconUnderThePrefix)
{
    TempDir dir;
    const auto prefix = dir / "prefix";
    const auto installed = shell(quote(DPLAB_CMAKE_COMMAND) + " --install " + quote(DPLAB_TEST_BINARY_DIR) + " --prefix "
                                     + quote(prefix.string()),
                                 dir.path());
    ASSERT_EQ(installed.exitCode, 0) << installed.out << installed.err;
    const auto bin = prefix / "bin" / "dplab-cli";
    ASSERT_TRUE(std::filesystem::exists(bin));
    if (DPLAB_TEST_HAVE_UI) {
        EXPECT_TRUE(std::filesystem::exists(prefix / "bin" / "dplab"));
        const std::string desktop = readText(prefix / "share" / "applications" / "dplab.desktop");
        EXPECT_NE(desktop.find("Exec=dplab"), std::string::npos) << desktop;
        EXPECT_NE(desktop.find("Icon=dplab"), std::string::npos) << desktop;
        EXPECT_TRUE(std::filesystem::exists(prefix / "share" / "icons" / "hicolor" / "scalable" / "apps" / "dplab.svg"));
    }
    // The installed CLI runs.
    const auto list = shell(quote(bin.string()) + " list algorithms", dir.path());
    ASSERT_EQ(list.exitCode, 0) << list.err;
    EXPECT_NE(list.out.find("push-pull"), std::string::npos);
    // Every committed preset is installed, nothing else.
    std::set<std::string> source, copied;
    for (const auto &e : std::filesystem::directory_iterator(std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets"))
        if (e.path().extension() == ".json" && e.path().filename() != "manifest.json" && e.path().filename() != "summary.json"
            && e.path().filename() != "experiment.json")
            source.insert(e.path().filename().string());
    for (const auto &e : std::filesystem::directory_iterator(prefix / "share" / "dplab" / "presets"))
        copied.insert(e.path().filename().string());
    EXPECT_EQ(copied, source);
    EXPECT_TRUE(std::filesystem::exists(prefix / "share" / "dplab" / "data" / "breast_cancer_standardized.csv"));
    // An installed preset with bundled data validates from the prefix alone ...
    const std::string preset = quote((prefix / "share" / "dplab" / "presets" / "teaching-gradient-tracking-logistic.json").string());
    const auto valid = shell(quote(bin.string()) + " validate --deep " + preset, dir.path());
    EXPECT_EQ(valid.exitCode, 0) << valid.err;
    // ... and the data come from the prefix: without the installed file it is missing there.
    std::filesystem::remove(prefix / "share" / "dplab" / "data" / "breast_cancer_standardized.csv");
    const auto missing = shell(quote(bin.string()) + " validate --deep " + preset, dir.path());
    EXPECT_EQ(missing.exitCode, 2) << missing.out;
    EXPECT_NE(missing.err.find((prefix / "share" / "dplab" / "data").string()), std::string::npos) << missing.err;
}

} // namespace
} // namespace dplab::test
