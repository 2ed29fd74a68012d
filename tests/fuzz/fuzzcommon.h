// SPDX-License-Identifier: GPL-3.0-or-later
//
// Shared by the fuzz targets: a per-process scratch file for loaders that read paths, and the
// limits the targets run under (small, so a fuzzed size cannot exhaust the machine).
#pragma once

#include "dplab/common/limits.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include <unistd.h>

namespace dplab::fuzz {

/** Writes `size` bytes to a scratch file of this process (suffix decides how loaders see it) and
 *  returns its path. */
inline std::string scratchFile(const std::uint8_t *data, std::size_t size, const std::string &suffix)
{
    const std::string path = "/tmp/dplab-fuzz-" + std::to_string(::getpid()) + suffix;
    if (std::FILE *f = std::fopen(path.c_str(), "wb")) {
        if (size > 0)
            std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    return path;
}

/** A memory limit (default 256 MiB) for everything a target may allocate on purpose; set once,
 *  by the first call. */
inline void limitMemory(std::uint64_t bytes = 256ull << 20)
{
    static const bool once = [bytes] {
        ResourceLimits::setDefaultMemoryLimit(bytes);
        return true;
    }();
    (void)once;
}

} // namespace dplab::fuzz
