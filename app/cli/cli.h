// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace dplab {
struct Error;
}

namespace dplab::cli {

/** Exit codes of the CLI contract. */
enum ExitCode { Success = 0, Failure = 1, InvalidInput = 2, Diverged = 3 };

int main(int argc, char **argv);

/** The exit code of an error: 1 (Failure) only for ErrorCode::Internal — a bug by definition —
 *  and 2 (InvalidInput) for everything the input decides (values, files, limits, I/O). */
int exitCodeOf(const dplab::Error &error);

} // namespace dplab::cli
