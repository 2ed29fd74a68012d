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

bool cpuHasAvx512()
{
    // __builtin_cpu_supports checks the CPU's flags and that the OS saves the 512-bit state.
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    }();
    return has;
}

Isa usableIsa(Isa wanted)
{
    if (wanted == Isa::Avx512 && !cpuHasAvx512())
        wanted = Isa::Avx2;
    if (wanted == Isa::Avx2 && !cpuHasAvx2())
        wanted = Isa::Sse2;
    return wanted;
}

Isa activeIsa()
{
    static const Isa isa = [] {
        const char *forced = std::getenv("DPLAB_KERNELS");
        if (forced && std::strcmp(forced, "sse2") == 0)
            return Isa::Sse2;
        if (forced && std::strcmp(forced, "avx2") == 0)
            return usableIsa(Isa::Avx2);
        return usableIsa(Isa::Avx512);
    }();
    return isa;
}

const char *isaName(Isa isa)
{
    switch (isa) {
    case Isa::Avx512: return "AVX-512";
    case Isa::Avx2: return "AVX2";
    default: return "SSE2";
    }
}

} // namespace dplab::simd
