// SPDX-License-Identifier: GPL-3.0-or-later
//
// Reading a registry (algorithms, problems, generators, compressors): the descriptors of its
// entries and the entry with a given id.
//
// Threading: pure functions.
#pragma once

#include "dplab/common/params.h"

#include <string>
#include <vector>

namespace dplab {

/** The descriptors of a registry's entries (structs with a `descriptor` member), in order. */
template <class Entries>
std::vector<Descriptor> descriptorsOf(const Entries &entries)
{
    std::vector<Descriptor> out;
    for (const auto &entry : entries)
        out.push_back(entry.descriptor);
    return out;
}

/** The first of `items` whose `id` is `id`, or nullptr. */
template <class Items>
auto findById(const Items &items, const std::string &id) -> decltype(&*items.begin())
{
    for (const auto &item : items)
        if (item.id == id)
            return &item;
    return nullptr;
}

} // namespace dplab
