// SPDX-License-Identifier: GPL-3.0-or-later
//
// The text names of an enum's values (in files, messages and `list --json`), written as one table
// next to the enum's name function instead of a switch per function:
//
//     const char *damageName(Damage damage)
//     {
//         return nameIn<Damage>({{Damage::None, "intact"}, {Damage::Missing, "missing"}, …},
//                               damage, "?");
//     }
//
// Threading: pure functions.
#pragma once

#include <initializer_list>
#include <utility>

namespace dplab {

/** One table row: a value and its name. */
template <class Enum>
using EnumName = std::pair<Enum, const char *>;

/** The name `names` gives `value`, or `fallback` when the table lacks it. */
template <class Enum>
constexpr const char *nameIn(std::initializer_list<EnumName<Enum>> names, Enum value,
                             const char *fallback)
{
    for (const auto &[v, name] : names)
        if (v == value)
            return name;
    return fallback;
}

} // namespace dplab
