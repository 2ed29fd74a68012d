// SPDX-License-Identifier: GPL-3.0-or-later
//
// Presentation mode, stored in the experiment file under "presentation":
//
//   "presentation": {
//     "hidden_panels": ["bits", "inspector"],          panels the lecturer hides (ids below)
//     "hidden_params": ["runs[*].privacy.noise_y"],     parameter controls hidden from the form
//     "locked": ["runs[0].params.stepsize"],            parameters shown but not editable
//     "notes": "## Why gossip converges\n...",          lesson notes (Markdown)
//     "start": false,                                    open the file in presentation mode
//     "live": true                                       opening the file switches Run ▸ Live Mode on
//   }
//
// Paths are JSON paths into the resolved experiment ("runs[1].params.stepsize"; "[*]" = every
// run) and must address a value that exists there, so a typo is reported when the file is read.
//
// Threading: plain values and pure functions.
#pragma once

#include "dplab/common/params.h"

#include <string>
#include <vector>

namespace dplab {

/** The panel ids "hidden_panels" accepts, in display order. */
const std::vector<std::string> &presentationPanelIds();

struct Presentation {
    std::vector<std::string> hiddenPanels;
    std::vector<std::string> hiddenParams;
    std::vector<std::string> locked;
    std::string notes;
    bool start = false;
    bool live = false; ///< opening the file switches live mode on (re-run after every edit)

    bool isPanelHidden(const std::string &id) const;
    /** Whether `path` (e.g. "runs[1].params.stepsize") is locked, directly or through "[*]". */
    bool isLocked(const std::string &path) const;
    bool isParamHidden(const std::string &path) const;
    bool operator==(const Presentation &) const = default;
};

/** Validates a "presentation" object against the resolved experiment document `resolved`
 *  (which the paths must address); errors name the JSON path. */
Result<Presentation> parsePresentation(const Json &json, const Json &resolved);
/** The resolved "presentation" object (every key written). */
Json presentationToJson(const Presentation &presentation);

/** Whether a concrete path matches a pattern that may use "[*]" for any index. */
bool jsonPathMatches(const std::string &pattern, const std::string &path);
/** The value at a JSON path such as "runs[0].params.stepsize" ("[*]": the first element), or
 *  nullptr when it does not exist. */
const Json *findJsonPath(const Json &document, const std::string &path);

} // namespace dplab
