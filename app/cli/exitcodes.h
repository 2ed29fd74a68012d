// SPDX-License-Identifier: GPL-3.0-or-later
//
// The CLI's exit codes in one place (docs/errors.md): what each error, escaped exception and
// signal ends with. tests/cli/exitcodes_test.cpp enumerates every path that ends in 1.
#pragma once

#include <exception>
#include <string>

namespace dplab {
struct Error;
}

namespace dplab::cli {

/** Exit codes of the CLI contract; an interrupted run ends with 128 + the signal's number. */
enum ExitCode { Success = 0, Failure = 1, InvalidInput = 2, Diverged = 3 };

/** The exit code of an error: 1 (Failure) only for ErrorCode::Internal — a bug by definition —
 *  and 2 (InvalidInput) for everything the input decides (values, files, limits, I/O). */
int exitCodeOf(const dplab::Error &error);

/** The exit code of an exception that reached main, and the one line to print: 2 when the system
 *  refused worker threads (fewer --threads helps), 1 for everything else (out of memory an
 *  estimate missed, any other exception: bugs). */
int exitCodeOfException(std::exception_ptr exception, std::string *line);

/** The exit code of a run stopped by SIGINT or SIGTERM: 128 + the signal, the shells'
 *  convention (130, 143); not 1, which is kept for bugs. */
int exitCodeOfSignal(int signal);

} // namespace dplab::cli
