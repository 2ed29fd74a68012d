// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/jsonpath.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/presentation.h"

#include <limits>

namespace dplab {

namespace {

constexpr std::size_t kNoIndex = std::numeric_limits<std::size_t>::max();

Error notAPath(const std::string &field, const std::string &path, const std::string &why)
{
    return Error::invalid(field, "\"" + path + "\" is not a JSON path (" + why
                                     + "): keys joined by dots, indices in brackets, e.g. runs[0].params.stepsize, "
                                       "runs[*].privacy.epsilon");
}

bool isDigits(const std::string &s)
{
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

} // namespace

Result<std::vector<std::string>> splitJsonPath(const std::string &path, const std::string &field)
{
    if (path.empty())
        return notAPath(field, path, "it is empty");
    std::vector<std::string> segments;
    std::size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '[') {
            if (segments.empty())
                return notAPath(field, path, "it starts with an index");
            const std::size_t close = path.find(']', i);
            if (close == std::string::npos)
                return notAPath(field, path, "a [ without ]");
            const std::string inner = path.substr(i + 1, close - i - 1);
            if (inner != "*" && !isDigits(inner))
                return notAPath(field, path, "[" + inner + "] is not an index (a whole number or *)");
            segments.push_back(path.substr(i, close - i + 1));
            i = close + 1;
            if (i < path.size() && path[i] != '.' && path[i] != '[')
                return notAPath(field, path, "a key right after ]: a dot goes between them");
            continue;
        }
        if (path[i] == '.') {
            if (segments.empty())
                return notAPath(field, path, "it starts with a dot");
            ++i;
        }
        const std::size_t end = path.find_first_of(".[]", i);
        const std::string key = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
        if (key.empty())
            return notAPath(field, path, end != std::string::npos && path[end] == ']' ? "a ] without [" : "an empty key");
        segments.push_back(key);
        i = end == std::string::npos ? path.size() : end;
        if (i < path.size() && path[i] == ']')
            return notAPath(field, path, "a ] without [");
    }
    return segments;
}

std::size_t jsonPathIndex(const std::string &segment)
{
    std::size_t index = 0;
    for (std::size_t k = 1; k + 1 < segment.size(); ++k) {
        const char c = segment[k];
        if (c < '0' || c > '9')
            return kNoIndex;
        const std::size_t digit = static_cast<std::size_t>(c - '0');
        if (index > (kNoIndex - digit) / 10)
            return kNoIndex;
        index = index * 10 + digit;
    }
    return index;
}

bool jsonPathMatches(const std::string &pattern, const std::string &path)
{
    const auto p = splitJsonPath(pattern, "");
    const auto q = splitJsonPath(path, "");
    if (!p || !q || p->size() > q->size())
        return false;
    for (std::size_t k = 0; k < p->size(); ++k) {
        if ((*p)[k] == (*q)[k])
            continue;
        if ((*p)[k] == "[*]" && isJsonPathIndex((*q)[k]))
            continue;
        return false;
    }
    // A pattern naming an object matches everything under it ("runs[0].params").
    return true;
}

namespace {

const Json *findSegments(const Json &node, const std::vector<std::string> &segs, std::size_t k)
{
    if (k == segs.size())
        return &node;
    const std::string &seg = segs[k];
    if (isJsonPathIndex(seg)) {
        if (!node.is_array())
            return nullptr;
        if (seg == "[*]") {
            for (const Json &child : node)
                if (const Json *found = findSegments(child, segs, k + 1))
                    return found;
            return nullptr;
        }
        const std::size_t index = jsonPathIndex(seg);
        return index < node.size() ? findSegments(node[index], segs, k + 1) : nullptr;
    }
    if (!node.is_object() || !node.contains(seg))
        return nullptr;
    return findSegments(node.at(seg), segs, k + 1);
}

Status setSegments(Json &node, const std::vector<std::string> &segments, std::size_t k, const Json &value,
                   const std::string &fullPath)
{
    const std::string &seg = segments[k];
    const bool last = k + 1 == segments.size();
    if (isJsonPathIndex(seg)) {
        if (!node.is_array())
            return Error::invalid("sweep.parameter", "\"" + fullPath + "\": " + seg + " applied to a non-array");
        if (seg == "[*]") {
            for (auto &child : node) {
                if (last)
                    child = value;
                else if (auto s = setSegments(child, segments, k + 1, value, fullPath); !s)
                    return s;
            }
            return {};
        }
        const std::size_t index = jsonPathIndex(seg);
        if (index >= node.size())
            return Error::invalid("sweep.parameter", "\"" + fullPath + "\": index " + seg + " out of range");
        if (last) {
            node[index] = value;
            return {};
        }
        return setSegments(node[index], segments, k + 1, value, fullPath);
    }
    if (!node.is_object())
        return Error::invalid("sweep.parameter", "\"" + fullPath + "\": \"" + seg + "\" applied to a non-object");
    if (last) {
        node[seg] = value;
        return {};
    }
    if (!node.contains(seg))
        node[seg] = isJsonPathIndex(segments[k + 1]) ? Json::array() : Json::object();
    return setSegments(node[seg], segments, k + 1, value, fullPath);
}

} // namespace

const Json *findJsonPath(const Json &document, const std::string &path)
{
    const auto segs = splitJsonPath(path, "");
    return segs ? findSegments(document, *segs, 0) : nullptr;
}

Status setJsonPath(Json &document, const std::string &path, const Json &value)
{
    auto segments = splitJsonPath(path, "sweep.parameter");
    if (!segments)
        return segments.error();
    return setSegments(document, *segments, 0, value, path);
}

} // namespace dplab
