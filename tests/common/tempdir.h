// SPDX-License-Identifier: GPL-3.0-or-later
//
// A fresh temporary folder per test, and whole-file text I/O, for the tests that write files.
// Included by path ("../common/tempdir.h"): header-only.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace dplab::test {

inline std::string readText(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void writeText(const std::filesystem::path &path, const std::string &text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
}

/** A fresh temporary folder for the running test (named after it and the process), removed at
 *  the end. */
class TempDir
{
public:
    TempDir()
    {
        const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
        mPath = std::filesystem::temp_directory_path()
                / ("dplab-" + std::string(info->test_suite_name()) + "-" + info->name() + "-"
                   + std::to_string(::getpid()));
        std::filesystem::remove_all(mPath);
        std::filesystem::create_directories(mPath);
    }
    ~TempDir() { std::filesystem::remove_all(mPath); }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::filesystem::path &path() const { return mPath; }
    std::filesystem::path operator/(const std::string &name) const { return mPath / name; }

private:
    std::filesystem::path mPath;
};

} // namespace dplab::test
