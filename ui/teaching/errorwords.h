// SPDX-License-Identifier: GPL-3.0-or-later
//
// errorInWords: a validation error of the experiment ("runs[0].privacy.epsilon: needs the ℓ1
// gradient bound c_l…") as the Teaching views show it: which run and which setting in words, and
// the fix, with the JSON path kept at the end for the file's author.
//
// Threading: pure function.
#pragma once

#include <QString>

namespace dplab {

QString errorInWords(const QString &error);

} // namespace dplab
