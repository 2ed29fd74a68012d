// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every path that ends dplab-cli with exit code 1, enumerated: an ErrorCode::Internal error and an
// exception escaping to main other than the system refusing threads. Every other error code is
// the input's fault (2), and an interrupted run ends with 128 + the signal. docs/errors.md lists
// the same paths under "Exit code 1".
#include "exitcodes.h"

#include "dplab/common/result.h"

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <system_error>

using namespace dplab;
using namespace dplab::cli;

namespace {

int codeOf(std::exception_ptr e, std::string *line)
{
    return exitCodeOfException(std::move(e), line);
}

template <class Throw>
std::exception_ptr thrown(Throw t)
{
    try {
        t();
    } catch (...) {
        return std::current_exception();
    }
    return nullptr;
}

} // namespace

TEST(ExitCodes, OnlyInternalErrorsAreExitOne)
{
    static_assert(static_cast<int>(ErrorCode::Internal) == 5,
                  "a new ErrorCode needs its exit code decided in exitCodeOf and checked here");
    for (ErrorCode code : {ErrorCode::InvalidArgument, ErrorCode::NotFound, ErrorCode::ParseError,
                           ErrorCode::IoError, ErrorCode::Unsupported})
        EXPECT_EQ(exitCodeOf(Error{code, "e.json", "bad"}), InvalidInput) << static_cast<int>(code);
    EXPECT_EQ(exitCodeOf(Error{ErrorCode::Internal, "solver", "did not converge"}), Failure);
}

TEST(ExitCodes, EscapedExceptionsAreBugsExceptRefusedThreads)
{
    std::string line;
    EXPECT_EQ(codeOf(thrown([] { throw std::bad_alloc(); }), &line), Failure);
    EXPECT_EQ(line.rfind("dplab-cli: out of memory", 0), 0u) << line;
    EXPECT_EQ(codeOf(thrown([] { throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again)); }), &line),
              InvalidInput);
    EXPECT_EQ(line.rfind("dplab-cli: cannot start worker threads", 0), 0u) << line;
    EXPECT_NE(line.find("fewer --threads"), std::string::npos) << line;
    EXPECT_EQ(codeOf(thrown([] { throw std::out_of_range("vector::at"); }), &line), Failure);
    EXPECT_EQ(line, "dplab-cli: internal error: vector::at");
    EXPECT_EQ(codeOf(thrown([] { throw std::logic_error("broken invariant"); }), &line), Failure);
    EXPECT_EQ(line, "dplab-cli: internal error: broken invariant");
    EXPECT_EQ(codeOf(thrown([] { throw 42; }), &line), Failure);
    EXPECT_EQ(line, "dplab-cli: internal error: an exception of unknown type");
}

TEST(ExitCodes, InterruptedRunsEndWithTheSignalsCode)
{
    EXPECT_EQ(exitCodeOfSignal(SIGINT), 130);
    EXPECT_EQ(exitCodeOfSignal(SIGTERM), 143);
}

TEST(ExitCodes, TheDocsListTheSameExitOnePaths)
{
    std::ifstream in(DPLAB_TEST_SOURCE_DIR "/docs/errors.md");
    ASSERT_TRUE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::string docs = text.str();
    const auto start = docs.find("## Exit code 1");
    ASSERT_NE(start, std::string::npos);
    const std::string section = docs.substr(start, docs.find("\n## ", start + 1) - start);
    for (const char *path : {"`Internal`", "out of memory", "internal error", "unknown type", "130", "143"})
        EXPECT_NE(section.find(path), std::string::npos) << path;
}
