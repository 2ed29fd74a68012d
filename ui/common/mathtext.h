// SPDX-License-Identifier: GPL-3.0-or-later
//
// Formulas in descriptor texts for people. The explanations, help texts and theorem conditions of
// the descriptors are written with a little LaTeX — `H^{k+1}`, `Z_t^{-1}`, `\sqrt{1-\sigma_2^2}`,
// `\frac{a}{b}`, `$…$` — which mathToHtml() renders as HTML (superscripts and subscripts as
// <sup>/<sub>, commands as their Unicode symbols, the rest escaped) for labels, tooltips, the help
// panel and the report. Only what the descriptors use is understood; anything else stays as
// written, never dropped. A `_` inside a word (`record_every`) is an underscore, not a subscript.
//
// Threading: pure functions.
#pragma once

#include <QString>

namespace dplab {

/** The text as HTML with its formulas rendered (no enclosing tags). */
QString mathToHtml(const QString &text);

/** The text as rich text for a tooltip or a label (HTML, marked so Qt renders it as such). */
QString mathToRichText(const QString &text);

} // namespace dplab
