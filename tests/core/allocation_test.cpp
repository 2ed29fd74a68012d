// SPDX-License-Identifier: GPL-3.0-or-later
// No heap allocation per iteration in the step loop (docs/architecture.md §2: "step()
// allocates nothing"): for one preset of every algorithm family, after a warm-up (scratch buffers
// reach their size, a block of PD-FTGL completes), step() and the online metric's observe() are
// run with every allocation counted. The global operator new/delete are replaced here, and so
// are malloc and friends (Eigen allocates with malloc, not operator new), forwarding to glibc's
// __libc_* functions. This file is its own test executable, so the replacement is local to it.
#include "dplab/engine/experiment.h"
#include "dplab/engine/metrics.h"
#include "dplab/problem/problem.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

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

namespace dplab {
namespace {

struct Case {
    const char *preset;
    int warmUp;
    int counted;
};

class StepLoop : public ::testing::TestWithParam<Case>
{
};

TEST_P(StepLoop, AllocatesNothingPerIteration)
{
#if !DPLAB_COUNT_ALLOCATIONS
    GTEST_SKIP() << "allocation counting is off under sanitizers";
#endif
    const Case c = GetParam();
    auto e = loadExperimentFile(resourceDir() + "/presets/" + c.preset + ".json");
    ASSERT_TRUE(e.ok()) << e.error().toString();
    for (std::size_t r = 0; r < e->runs.size(); ++r) {
        const RunContext ctx = makeRunContext(*e, static_cast<int>(r), 0);
        std::unique_ptr<Algorithm> algorithm = e->runs[r].algorithm->create();
        ASSERT_TRUE(algorithm->reset(ctx).ok());
        const std::vector<std::string> names =
            applicableMetrics(*e->problem, false, algorithm->accountant() != nullptr, {});
        MetricTracker tracker(*e->problem, nullptr, names);
        auto iterate = [&](int steps) {
            for (int s = 0; s < steps; ++s) {
                if (tracker.needsObserve())
                    tracker.observe(algorithm->decisions(), algorithm->iteration());
                algorithm->step();
            }
        };
        iterate(c.warmUp);
        gAllocations = 0;
        gCounting = true;
        iterate(c.counted);
        gCounting = false;
        EXPECT_EQ(gAllocations.load(), 0) << c.preset << " run " << r << " (" << e->runs[r].algorithm->id
                                          << "): heap allocations in " << c.counted << " iterations";
    }
}

// One preset per algorithm family.
INSTANTIATE_TEST_SUITE_P(
    AlgorithmFamilies, StepLoop,
    ::testing::Values(Case{"teaching-gradient-tracking-logistic", 20, 50}, // dgd, gradient-tracking
                      Case{"teaching-push-pull-quadratic", 20, 50},        // push-pull
                      Case{"paper003-fig1-dpop", 20, 50},                  // robust-dp-gt, dpop
                      Case{"paper003-fig2-diadsp", 20, 50},                // diadsp
                      Case{"paper001-fig2-nonconvex-logistic", 20, 50},    // pgtc, ppdc (compressors)
                      Case{"paper000-fig2-logistic", 20, 50},              // ldp-gt, push-pull online
                      Case{"paper002-teaching-gossip", 20, 50},            // gossip
                      Case{"paper002-fig1-digits", 20, 50}),               // pd-ogd, pd-ftgl, pd-ocg
    [](const ::testing::TestParamInfo<Case> &info) {
        std::string name = info.param.preset;
        for (char &ch : name)
            if (ch == '-')
                ch = '_';
        return name;
    });

} // namespace
} // namespace dplab
