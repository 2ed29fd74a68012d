// SPDX-License-Identifier: GPL-3.0-or-later
//
// messages.csv (`dplab-cli run … --messages`): what every agent sent in the first iterations of
// every job, the record the Teaching panel's message inspector shows (MessageRecord), written so
// that an outside reader can replay an algorithm's noisy trajectory and see where the noise
// enters.
//
//   run,repetition,iteration[,value],sender,receivers,channel,coordinate,clean,noise,sent,bits
//
// One row per coordinate of each message actually sent: `iteration` k is the step that produced
// iteration k+1 (the messages of iteration k's state), `receivers` the sender's out-neighbours in
// the graph, space-separated, listed once for the broadcast (every DPLab message is a
// broadcast: one noise draw, one compression, the same value to every out-neighbour), `clean`
// the value before noise, `noise` the noise added, `sent` what the receivers got (noised, then
// compressed), `bits` the message's bits on its coordinate-0 row (empty on the others, so the
// column sums to the bits sent). For the reference-point channels of paper 001 (PGTC, PPDC)
// `clean` is the noise-free difference to the reference point, a − ξ − c, and `sent` the
// compressed C(a − c) (see algo/referencechannel.h).
//
// Threading: pure functions of their arguments.
#pragma once

#include "dplab/common/limits.h"
#include "dplab/engine/runner.h"

#include <string>

namespace dplab {

/** The default of --messages-iterations: the first iterations recorded. */
inline constexpr long long kDefaultMessageIterations = 10;

/** The recording the runner needs for messages.csv: every repetition, iterations 0..N−1. */
MessageRecording messageRecording(long long iterations);

/** The memory the recorded messages and their CSV text take (for the memory limit), one
 *  estimate item "recorded messages" at `path`. Every algorithm sends at most three channels;
 *  a channel's message has at most max(d, n) coordinates. */
ResourceItem estimateMessageBytes(const Experiment &experiment, long long iterations, const std::string &path);

/** messages.csv of a finished run (the messages RunnerOptions::messages recorded). The graph
 *  of each sweep point gives the receivers. Errors: a sweep point that does not resolve. */
Result<std::string> messagesCsv(const Experiment &experiment, const ExperimentResult &result);

} // namespace dplab
