// SPDX-License-Identifier: GPL-3.0-or-later
//
// JSON paths into an experiment document (docs/architecture.md §4): the one syntax that a
// sweep's "parameter", the presentation's "hidden_params" and "locked", and `tune --param` (with
// the Tune dialog and the sweep editor) are written in.
//
//   path  := key ( "." key | "[" index "]" )*
//   key   := one or more characters other than ".", "[", "]"
//   index := digits | "*"
//
// e.g. "runs[1].params.stepsize", "runs[*].privacy.noise_y", "graph.generator.nodes". "[*]" is
// every element: setting sets each one, a pattern matches any index, a look-up takes the first
// element that has the rest of the path. Anything else — an empty key ("a..b", ".a", "a."), a
// key right after "]" ("runs[0]params"), a path starting with an index, "[]", an index with a
// sign, space or letter — is an error naming the field the path was read from.
//
// Threading: pure functions.
#pragma once

#include "dplab/common/params.h"

#include <cstddef>
#include <string>
#include <vector>

namespace dplab {

/** "runs[1].params.stepsize" → {"runs", "[1]", "params", "stepsize"} (an index segment keeps
 *  its brackets); an error at `field` quoting `path` when it is not in the syntax above. */
Result<std::vector<std::string>> splitJsonPath(const std::string &path, const std::string &field);

/** Whether a segment of splitJsonPath is an index ("[3]" or "[*]"), not a key. */
inline bool isJsonPathIndex(const std::string &segment)
{
    return !segment.empty() && segment.front() == '[';
}

/** The number of an index segment "[12]" → 12; SIZE_MAX for "[*]" and for a number too large
 *  to address an element. */
std::size_t jsonPathIndex(const std::string &segment);

// The operations on such paths, implemented in jsonpath.cpp over splitJsonPath, are declared
// where their users look for them: setJsonPath in experiment.h, jsonPathMatches and
// findJsonPath in presentation.h.

} // namespace dplab
