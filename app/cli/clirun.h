// SPDX-License-Identifier: GPL-3.0-or-later
//
// The dplab-cli subcommands that run an experiment or make a results folder from others: `run`,
// `merge` and `report` (docs/architecture.md §5).
#pragma once

namespace dplab::cli {

/** dplab-cli run EXPERIMENT.json --out DIR [...]. Returns the exit code. */
int commandRun(int argc, char **argv);

/** dplab-cli merge DIR... --out DIR [--quiet]. Returns the exit code. */
int commandMerge(int argc, char **argv);

/** dplab-cli report EXPERIMENT.json --out DIR [...] or report --from RESULTS_DIR [--out DIR].
 *  Returns the exit code. */
int commandReport(int argc, char **argv);

} // namespace dplab::cli
