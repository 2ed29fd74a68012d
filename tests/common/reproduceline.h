// SPDX-License-Identifier: GPL-3.0-or-later
//
// One line "reproduce: KEY v1 v2 …" on standard error, at full precision: how a test that
// measures a documented number hands it to scripts/reproduce.py (see docs/claims.md). Included
// by path ("../common/reproduceline.h"): header-only.
#pragma once

#include <iostream>
#include <string>

namespace dplab::test {

/** Writes "reproduce: KEY" and every value of `values` (any range of doubles) at 17 digits. */
template <typename Values>
void printReproduceLine(const std::string &key, const Values &values)
{
    const std::streamsize previous = std::cerr.precision(17);
    std::cerr << "reproduce: " << key;
    for (double v : values)
        std::cerr << " " << v;
    std::cerr << "\n";
    std::cerr.precision(previous);
}

} // namespace dplab::test
