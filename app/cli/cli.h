// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace dplab::cli {

/** Exit codes of the CLI contract. */
enum ExitCode { Success = 0, Failure = 1, InvalidInput = 2, Diverged = 3 };

int main(int argc, char **argv);

} // namespace dplab::cli
