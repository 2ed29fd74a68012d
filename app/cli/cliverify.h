// SPDX-License-Identifier: GPL-3.0-or-later
//
// `dplab-cli verify`: checks a results folder (a run, a shard or a merge) against its
// manifest.json — every file's size, rows and SHA-256 — and, with --rerun K, runs K of its jobs
// again (chosen from the experiment seed) and compares their rows byte for byte.
#pragma once

#include <cstdint>
#include <cstddef>
#include <vector>

namespace dplab::cli {

/** dplab-cli verify DIR [--rerun K] [--threads T] [--max-memory SIZE]. Exit 0: intact (and the
 *  rerun rows identical); 2: damaged, unverifiable (no digests) or a rerun row differs. */
int commandVerify(int argc, char **argv);

/** The K positions (ascending) of `jobs` that --rerun K runs again: a partial Fisher–Yates
 *  shuffle of `jobs` with xoshiro256** seeded from the experiment seed (RngPurpose::Other,
 *  run, repetition and agent 0), so every reader of a folder reruns the same jobs. K ≥ the job
 *  count gives them all. */
std::vector<std::size_t> chooseRerunJobs(std::uint64_t seed, const std::vector<std::size_t> &jobs, std::size_t k);

extern const char *const kVerifyUsage;

} // namespace dplab::cli
