// SPDX-License-Identifier: GPL-3.0-or-later
//
// File dialogs remember their folder per kind of file: importing a graph starts where the last
// graph came from, Open Results where the last results folder was, a plot export where the
// last plot went — each independently of the others, across sessions (QSettings
// "folders/<kind>"). A folder that no longer exists falls back to the home folder.
//
// Threading: GUI thread (QSettings).
#pragma once

#include <QString>

namespace dplab {

/** Kinds used by the window: "graph" (import/export graph), "results" (Open Results), "plots"
 *  (plot and picture exports), "data" (Export Data), "report" (Export Report). */
QString rememberedFolder(const QString &kind);
/** Remembers the folder of `path` (a file: its folder; a folder: itself) for `kind`. */
void rememberFolder(const QString &kind, const QString &path);

} // namespace dplab
