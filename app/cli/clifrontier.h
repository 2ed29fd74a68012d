// SPDX-License-Identifier: GPL-3.0-or-later
//
// `dplab-cli frontier`: the privacy–utility frontier of an experiment (core/teaching/frontier.h).
#pragma once

namespace dplab::cli {

/** dplab-cli frontier EXPERIMENT.json --epsilons LIST|FROM:TO:COUNT --out DIR [--repetitions R]
 *  [--seed S] [--iterations N] [--threads K] [--quiet]. Returns the exit code. */
int commandFrontier(int argc, char **argv);

extern const char *const kFrontierUsage;

} // namespace dplab::cli
