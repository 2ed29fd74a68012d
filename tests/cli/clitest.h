// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers for end-to-end tests of dplab-cli: run the binary, capture exit code and output.
#pragma once

#include "../common/tempdir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dplab::test {

struct CliResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/** The cells of one CSV line (no quoting in our files); a trailing comma is an empty last cell. */
inline std::vector<std::string> csvCells(const std::string &line)
{
    std::vector<std::string> out;
    std::stringstream in(line);
    std::string cell;
    while (std::getline(in, cell, ','))
        out.push_back(cell);
    if (!line.empty() && line.back() == ',')
        out.push_back("");
    return out;
}

inline std::string quote(const std::string &s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

inline std::string quotedPath(const std::filesystem::path &p)
{
    return quote(p.string());
}

/** Runs dplab-cli with `args` (already shell-quoted where needed). */
inline CliResult runCli(const std::string &args)
{
    static int counter = 0;
    const auto base = std::filesystem::temp_directory_path()
                      / ("dplab-cli-out-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    const std::string outFile = base.string() + ".out", errFile = base.string() + ".err";
    const std::string command = std::string(DPLAB_CLI_PATH) + " " + args + " >" + quote(outFile) + " 2>" + quote(errFile);
    const int status = std::system(command.c_str());
    CliResult r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readText(outFile);
    r.err = readText(errFile);
    std::filesystem::remove(outFile);
    std::filesystem::remove(errFile);
    return r;
}

/** In a forked child: sends stdout and stderr to `log` and becomes dplab-cli `args` (exit 127 if
 *  it cannot). */
[[noreturn]] inline void execCli(const std::vector<std::string> &args, const std::filesystem::path &log)
{
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    ::dup2(fd, 2);
    ::dup2(fd, 1);
    std::vector<char *> argv{const_cast<char *>(DPLAB_CLI_PATH)};
    for (const auto &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(DPLAB_CLI_PATH, argv.data());
    ::_exit(127);
}

inline std::string preset(const std::string &name)
{
    return std::string(DPLAB_TEST_SOURCE_DIR) + "/resources/presets/" + name;
}

/** The mean final value of `metric` for the run labelled `label` in a summary.json (or one of its
 *  sweep points: the same "runs" list); a test failure when no run has that label. */
inline double finalMean(const nlohmann::json &summary, const std::string &label, const std::string &metric)
{
    for (const auto &run : summary["runs"])
        if (run["label"] == label)
            return run["final"][metric]["mean"].get<double>();
    ADD_FAILURE() << "no run " << label;
    return 0;
}

} // namespace dplab::test
