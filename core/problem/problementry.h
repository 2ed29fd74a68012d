// SPDX-License-Identifier: GPL-3.0-or-later
//
// The one way a problem's registry entry is written (problem.cpp lists the entries).
//
// Threading: pure functions.
#pragma once

#include "dplab/problem/objectives.h"

#include <string>
#include <vector>

namespace dplab {

/** A registry entry: the descriptor (id, display name, paper reference ("" when none),
 *  explanation, parameters) and the two steps. */
ProblemEntry problemEntry(std::string id, std::string name, std::string reference,
                          std::string explanation, std::vector<ParamSpec> params,
                          decltype(ProblemEntry::resolve) resolve,
                          decltype(ProblemEntry::build) build);

/** What every problem's description states: its type, agents and dimension. */
Json problemFacts(const Problem &problem);

/** The resolve step's common part: the plain keys of `spec` (an object; else an error naming
 *  `path`) resolved against `specs`, without "type" and the `nested` keys the caller resolves
 *  itself, and "type" set to `type`. */
Result<Json> resolveProblemKeys(const std::vector<ParamSpec> &specs, const Json &spec,
                                const std::string &path, const std::string &type,
                                const std::vector<std::string> &nested = {});

} // namespace dplab
