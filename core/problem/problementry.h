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

} // namespace dplab
