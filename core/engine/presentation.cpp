// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/presentation.h"
#include "dplab/engine/jsonpath.h"

#include <algorithm>

namespace dplab {

namespace {

Result<std::vector<std::string>> readStrings(const Json &json, const char *key, const std::string &path)
{
    std::vector<std::string> out;
    if (!json.contains(key))
        return out;
    const Json &list = json.at(key);
    const std::string keyPath = joinPath(path, key);
    if (!list.is_array())
        return Error::invalid(keyPath, "must be a list of strings");
    for (std::size_t k = 0; k < list.size(); ++k) {
        if (!list[k].is_string())
            return Error::invalid(indexPath(keyPath, k), "must be a string");
        out.push_back(list[k].get<std::string>());
    }
    return out;
}

Status checkPaths(const std::vector<std::string> &paths, const Json &resolved, const std::string &keyPath);

/** The list of JSON paths under `key` (absent: none), each checked against the experiment. */
Result<std::vector<std::string>> readPaths(const Json &json, const char *key, const Json &resolved,
                                           const std::string &path)
{
    auto paths = readStrings(json, key, path);
    if (!paths)
        return paths.error();
    if (auto s = checkPaths(*paths, resolved, joinPath(path, key)); !s)
        return s.error();
    return paths;
}

Status checkPaths(const std::vector<std::string> &paths, const Json &resolved, const std::string &keyPath)
{
    for (std::size_t k = 0; k < paths.size(); ++k) {
        const auto parsed = splitJsonPath(paths[k], indexPath(keyPath, k));
        if (!parsed)
            return parsed.error();
        const std::vector<std::string> &segs = *parsed;
        if (segs.front() != "runs" && segs.front() != "graph" && segs.front() != "problem" && segs.front() != "iterations"
            && segs.front() != "repetitions" && segs.front() != "seed" && segs.front() != "record_every")
            return Error::invalid(indexPath(keyPath, k), "\"" + paths[k] + "\" must address runs[..], graph, problem, "
                                                                            "iterations, repetitions, seed or record_every");
        if (!findJsonPath(resolved, paths[k]))
            return Error::invalid(indexPath(keyPath, k), "\"" + paths[k] + "\" addresses nothing in this experiment");
    }
    return {};
}

} // namespace

const std::vector<std::string> &presentationPanelIds()
{
    static const std::vector<std::string> ids = {"graph",       "experiment", "inspector", "plots",
                                                 "playback",    "messages",   "state_space", "attack",
                                                 "frontier",    "theory",     "notes"};
    return ids;
}

bool Presentation::isPanelHidden(const std::string &id) const
{
    return std::find(hiddenPanels.begin(), hiddenPanels.end(), id) != hiddenPanels.end();
}

bool Presentation::isLocked(const std::string &path) const
{
    return std::any_of(locked.begin(), locked.end(), [&](const std::string &p) { return jsonPathMatches(p, path); });
}

bool Presentation::isParamHidden(const std::string &path) const
{
    return std::any_of(hiddenParams.begin(), hiddenParams.end(),
                       [&](const std::string &p) { return jsonPathMatches(p, path); });
}

Result<Presentation> parsePresentation(const Json &json, const Json &resolved)
{
    const std::string path = "presentation";
    if (!json.is_object())
        return Error::invalid(path, "must be an object {\"hidden_panels\": [...], \"locked\": [...], \"notes\": \"...\"}");
    for (auto it = json.begin(); it != json.end(); ++it) {
        const std::string &key = it.key();
        if (key != "hidden_panels" && key != "hidden_params" && key != "locked" && key != "notes" && key != "start"
            && key != "live")
            return Error::invalid(joinPath(path, key), "unknown key (expected one of: hidden_panels, hidden_params, "
                                                       "locked, notes, start, live)");
    }
    Presentation p;
    auto panels = readStrings(json, "hidden_panels", path);
    if (!panels)
        return panels.error();
    const auto &ids = presentationPanelIds();
    for (std::size_t k = 0; k < panels->size(); ++k) {
        if (std::find(ids.begin(), ids.end(), (*panels)[k]) == ids.end()) {
            std::string list;
            for (const auto &id : ids)
                list += (list.empty() ? "" : ", ") + id;
            return Error::invalid(indexPath("presentation.hidden_panels", k),
                                  "unknown panel \"" + (*panels)[k] + "\" (known: " + list + ")");
        }
        if (!p.isPanelHidden((*panels)[k]))
            p.hiddenPanels.push_back((*panels)[k]);
    }
    auto hidden = readPaths(json, "hidden_params", resolved, path);
    if (!hidden)
        return hidden.error();
    p.hiddenParams = *hidden;
    auto locked = readPaths(json, "locked", resolved, path);
    if (!locked)
        return locked.error();
    p.locked = *locked;
    if (json.contains("notes")) {
        if (!json.at("notes").is_string())
            return Error::invalid("presentation.notes", "must be a string (Markdown)");
        p.notes = json.at("notes").get<std::string>();
    }
    if (json.contains("start")) {
        if (!json.at("start").is_boolean())
            return Error::invalid("presentation.start", "must be true or false");
        p.start = json.at("start").get<bool>();
    }
    if (json.contains("live")) {
        if (!json.at("live").is_boolean())
            return Error::invalid("presentation.live", "must be true or false");
        p.live = json.at("live").get<bool>();
    }
    return p;
}

Json presentationToJson(const Presentation &p)
{
    return Json{{"hidden_panels", p.hiddenPanels},
                {"hidden_params", p.hiddenParams},
                {"locked", p.locked},
                {"notes", p.notes},
                {"start", p.start},
                {"live", p.live}};
}

} // namespace dplab
