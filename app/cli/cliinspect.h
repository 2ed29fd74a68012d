// SPDX-License-Identifier: GPL-3.0-or-later
//
// The dplab-cli subcommands that look without running: `validate`, `list` and `graph`
// (docs/architecture.md §5).
#pragma once

namespace dplab::cli {

/** dplab-cli validate EXPERIMENT.json [--deep] [--max-memory SIZE]. Returns the exit code. */
int commandValidate(int argc, char **argv);

/** dplab-cli list algorithms|compressors|problems|generators|weights [--json]. Returns the exit code. */
int commandList(int argc, char **argv);

/** dplab-cli graph --generator TYPE [--nodes N] [--weights SCHEME] [--set KEY=VALUE]... [--json].
 *  Returns the exit code. */
int commandGraph(int argc, char **argv);

} // namespace dplab::cli
