// SPDX-License-Identifier: GPL-3.0-or-later
//
// `dplab-cli tune`: searches one parameter of every run (core: dplab/engine/tuning.h) and writes
// tuning.csv, best.json, tuned.json and, with --compare, comparison.csv (docs/tuning.md).
#pragma once

namespace dplab::cli {

/** dplab-cli tune EXPERIMENT.json --param PATH --range LO:HI [--log] --metric NAME [--epsilon E]
 *  [--repetitions R] [--budget JOBS] [--seed S] [--iterations N] [--threads K] [--out DIR]
 *  [--compare] [--quiet]. Returns the exit code. */
int commandTune(int argc, char **argv);

extern const char *const kTuneUsage;

} // namespace dplab::cli
