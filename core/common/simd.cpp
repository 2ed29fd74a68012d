// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/simd.h"

#include <cstdlib>
#include <cstring>

namespace dplab::simd {

bool cpuHasAvx2()
{
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return has;
}

Isa activeIsa()
{
    static const Isa isa = [] {
        const char *forced = std::getenv("DPLAB_KERNELS");
        if (forced && std::strcmp(forced, "sse2") == 0)
            return Isa::Sse2;
        return cpuHasAvx2() ? Isa::Avx2 : Isa::Sse2;
    }();
    return isa;
}

} // namespace dplab::simd
