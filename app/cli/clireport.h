// SPDX-License-Identifier: GPL-3.0-or-later
//
// The Qt half of `dplab-cli report` (built only with the UI): a headless QApplication (the
// offscreen platform when no display is set) and the ReportWriter of dplab_ui.
//
// Threading: call from the main thread, once.
#pragma once

#include "dplab/engine/runner.h"

#include <memory>
#include <string>

namespace dplab::cli {

/** Writes DIR/report.html and DIR/report.pdf. `overrides` are the command-line overrides to
 *  mention in the reproduce section; `tuning` a best.json with compared runs for the "Compare
 *  tuned" section (null: none); `plotSize` "single", "double", "slide" (the plot export presets)
 *  or "" (the report's own). Returns false with `error` set on failure; `pages` gets the PDF's
 *  page count. */
bool writeReport(int argc, char **argv, const std::string &dir, std::shared_ptr<const Experiment> experiment,
                 std::shared_ptr<const ExperimentResult> result, const std::string &overrides, const Json &tuning,
                 std::string *error, int *pages, const std::string &plotSize = std::string());

} // namespace dplab::cli
