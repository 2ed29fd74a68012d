// SPDX-License-Identifier: GPL-3.0-or-later
//
// Run identity: a stable key for the result of one repetition of one run. It is the hash of the
// run's resolved specification — everything the runner reads to compute that repetition's
// numbers: the resolved graph, the problem, iterations, recording cadence, opt-in metrics, the
// eavesdropper, common random numbers, the run's algorithm, parameters, privacy, compressor,
// initialisation and weight spec (as resolved, defaults filled in), the seed, the repetition and,
// without common random numbers, the run's index (it then keys the noise) — and of nothing else:
// the experiment's name, description, presentation, the run's label and colour and the number of
// repetitions do not change a repetition's numbers and are left out. A sweep point's key is the
// key of the point's own resolved document, so the same configuration has the same key whether it
// comes from a sweep, a tuning candidate or a file.
//
// The hash is FNV-1a over 128 bits of a canonical text of the specification (object keys sorted,
// no white space, a number written the same whether it was given as 1 or 1.0), so neither key
// order nor formatting of the file changes it. Data files are named by their path: a data file
// whose contents change under the same name keeps its key.
//
// Uses: tuning candidates (dplab/engine/tuning.h) and best.json; re-running only what changed,
// run history and the results manifest key results the same way (docs/architecture.md).
//
// Threading: pure functions.
#pragma once

#include "dplab/common/result.h"
#include "dplab/engine/experiment.h"

#include <string>

namespace dplab {

/** A JSON value as canonical text: objects with sorted keys, no white space, integers and
 *  integral floats below 2^53 written as integers, other floats with 17 significant digits. */
std::string canonicalJson(const Json &value);

/** "fnv1a128:" + 32 hex digits: FNV-1a (128 bits) of canonicalJson(value). */
std::string canonicalHash(const Json &value);

/** The resolved specification of run `run` of an experiment without a sweep (a point): what the
 *  runner reads to compute its numbers (see the header comment), seed included, repetition not. */
Json runSpecification(const Experiment &point, int run);

/** The key of repetition `repetition` of run `run` of an experiment without a sweep; with
 *  repetition = -1, the key of the run's whole result (all experiment.repetitions of it). */
std::string runIdentity(const Experiment &point, int run, int repetition);

/** A run's whole-result key and the specification it hashes, computed from one
 *  specification: identity == runIdentity(point, run, -1), specification ==
 *  runSpecification(point, run). The run history keeps both for every finished (point, run). */
struct RunKey {
    std::string identity;
    Json specification;
};
RunKey runKey(const Experiment &point, int run);

/** The key of a job of any experiment: with a sweep, the point's document (the sweep value set,
 *  the sweep removed) is resolved first (no data loaded). Errors: the point does not resolve. */
Result<std::string> runIdentityAt(const Experiment &experiment, int point, int run, int repetition);

/** Point `point` of an experiment with a sweep as runIdentityAt resolves it (the sweep value set,
 *  the sweep removed, no data loaded): runIdentity and runSpecification of it give the keys of
 *  every run of the point from one resolution. Errors: the point does not resolve. */
Result<Experiment> sweepPointForKeys(const Experiment &experiment, int point);

} // namespace dplab
