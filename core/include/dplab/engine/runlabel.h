// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Run labels: what a label may hold (one rule for the validator, the window and the README) and
// the label a new run gets from its algorithm.
//
// A label is any non-empty text without control characters (C0, DEL, C1). Commas, quotes and
// non-Latin text are fine: the CSV writers quote them as RFC 4180 says and the report escapes
// them in HTML.

#include <string>

namespace dplab {

struct AlgorithmDescriptor;

/** Why `label` is not a valid run label ("" when it is). The text completes "label: …". */
std::string runLabelProblem(const std::string &label);

/** The label a run of `algorithm` gets by default: its name up to the first parenthesis or
 *  comma ("LDP gradient tracking (online, directed)" → "LDP gradient tracking"), at most
 *  kDefaultRunLabelMax characters (cut between words). Always a valid label. */
std::string defaultRunLabel(const AlgorithmDescriptor &algorithm);

inline constexpr std::size_t kDefaultRunLabelMax = 32;

} // namespace dplab
