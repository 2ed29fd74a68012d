// SPDX-License-Identifier: GPL-3.0-or-later
// Counting heap allocations in a test executable: the global operator new/delete are replaced
// here, and so are malloc and friends (Eigen allocates with malloc, not operator new),
// forwarding to glibc's __libc_* functions. Include this header in exactly ONE source file of
// a test executable, after every other header (the replacement is then local to that
// executable, and system headers have declared malloc first), and count with
//     gAllocations = 0; gCounting = true;  ...  gCounting = false;
// DPLAB_COUNT_ALLOCATIONS is 0 under AddressSanitizer and ThreadSanitizer, which replace
// malloc themselves: tests skip the count there.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DPLAB_COUNT_ALLOCATIONS 0
#else
#define DPLAB_COUNT_ALLOCATIONS 1
#endif

namespace {
std::atomic<bool> gCounting{false};
std::atomic<long long> gAllocations{0};

// DPLAB_ALLOCATION_TRAP=1 stops at the first counted allocation (run under gdb for its stack).
const bool gTrap = std::getenv("DPLAB_ALLOCATION_TRAP") != nullptr;

inline void counted()
{
    if (gCounting.load(std::memory_order_relaxed)) {
        gAllocations.fetch_add(1, std::memory_order_relaxed);
        if (gTrap)
            __builtin_trap();
    }
}
} // namespace

#if DPLAB_COUNT_ALLOCATIONS
extern "C" {
void *__libc_malloc(std::size_t);
void *__libc_calloc(std::size_t, std::size_t);
void *__libc_realloc(void *, std::size_t);
void *__libc_memalign(std::size_t, std::size_t);
void __libc_free(void *);

void *malloc(std::size_t size)
{
    counted();
    return __libc_malloc(size);
}
void *calloc(std::size_t count, std::size_t size)
{
    counted();
    return __libc_calloc(count, size);
}
void *realloc(void *p, std::size_t size)
{
    counted();
    return __libc_realloc(p, size);
}
void free(void *p)
{
    __libc_free(p);
}
void *aligned_alloc(std::size_t alignment, std::size_t size)
{
    counted();
    return __libc_memalign(alignment, size);
}
void *memalign(std::size_t alignment, std::size_t size)
{
    counted();
    return __libc_memalign(alignment, size);
}
int posix_memalign(void **out, std::size_t alignment, std::size_t size)
{
    counted();
    void *p = __libc_memalign(alignment, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}
}

void *operator new(std::size_t size)
{
    counted();
    if (void *p = __libc_malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}
void *operator new[](std::size_t size)
{
    return operator new(size);
}
void *operator new(std::size_t size, std::align_val_t alignment)
{
    counted();
    if (void *p = __libc_memalign(static_cast<std::size_t>(alignment), size ? size : 1))
        return p;
    throw std::bad_alloc();
}
void *operator new[](std::size_t size, std::align_val_t alignment)
{
    return operator new(size, alignment);
}
void operator delete(void *p) noexcept
{
    __libc_free(p);
}
void operator delete[](void *p) noexcept
{
    __libc_free(p);
}
void operator delete(void *p, std::size_t) noexcept
{
    __libc_free(p);
}
void operator delete[](void *p, std::size_t) noexcept
{
    __libc_free(p);
}
void operator delete(void *p, std::align_val_t) noexcept
{
    __libc_free(p);
}
void operator delete[](void *p, std::align_val_t) noexcept
{
    __libc_free(p);
}
void operator delete(void *p, std::size_t, std::align_val_t) noexcept
{
    __libc_free(p);
}
void operator delete[](void *p, std::size_t, std::align_val_t) noexcept
{
    __libc_free(p);
}
#endif
