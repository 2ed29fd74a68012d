// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/agentteam.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <system_error>
#include <utility>

namespace dplab {

namespace {

/** How long a thread busy-waits before it sleeps on a futex: the last chunk of a call, or the
 *  next call, usually comes within microseconds, and a sleeping thread takes tens of them to wake;
 *  longer waits (the step's other work between two gradient passes) are slept through. */
constexpr std::chrono::microseconds SpinTime{30};

inline void relax()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/** Spins while done() is false, for at most SpinTime; returns done(). */
template <class Done>
bool spinUntil(Done &&done)
{
    const auto until = std::chrono::steady_clock::now() + SpinTime;
    for (int round = 1;; ++round) {
        if (done())
            return true;
        relax();
        if (round % 32 == 0 && std::chrono::steady_clock::now() >= until)
            return done();
    }
}

struct CurrentTeam {
    AgentTeam *team = nullptr;
    double minWork = AgentTeam::DefaultMinWork;
};
thread_local CurrentTeam tCurrent;

constexpr std::uint64_t claimWord(std::uint32_t generation, int count, int next)
{
    return static_cast<std::uint64_t>(generation) << 32 | static_cast<std::uint64_t>(count) << 16
           | static_cast<std::uint64_t>(next);
}

} // namespace

AgentTeam::AgentTeam(int workers, const std::function<void()> &onWorkerStart, Schedule schedule)
    : mSchedule(schedule)
{
    workers = std::max(0, workers);
    mScratch.resize(static_cast<std::size_t>(workers) + 1);
    mSeen.resize(static_cast<std::size_t>(workers) + 1, 0);
    mThreads.reserve(static_cast<std::size_t>(workers));
    for (int k = 1; k <= workers; ++k) {
        try {
            mThreads.emplace_back([this, k, onWorkerStart] {
                if (onWorkerStart)
                    onWorkerStart();
                loop(static_cast<std::size_t>(k));
            });
        } catch (const std::system_error &) {
            break; // the system refused a thread: fewer workers give the same results
        }
    }
}

AgentTeam::~AgentTeam()
{
    mStop.store(true, std::memory_order_release);
    signal();
    for (std::thread &t : mThreads)
        t.join();
}

void AgentTeam::signal()
{
    mSignal.fetch_add(1, std::memory_order_release);
    mSignal.notify_all();
}

void AgentTeam::runErased(int n, std::ptrdiff_t scratchSize, Call call, void *fn)
{
    if (mThreads.empty() || n <= 1) {
        call(fn, 0, n, agentScratch(scratchSize));
        return;
    }
    for (std::vector<double> &s : mScratch)
        if (static_cast<std::ptrdiff_t>(s.size()) < scratchSize)
            s.resize(static_cast<std::size_t>(scratchSize));
    // Four chunks a participant: enough for a late worker to catch up, few enough that a claim
    // (one atomic operation) costs nothing against a chunk.
    const int participants = workers() + 1;
    const int wanted = std::min({n, 4 * participants, 0xffff});
    mChunk = (n + wanted - 1) / wanted;
    const int count = (n + mChunk - 1) / mChunk;
    mCall = call;
    mFn = fn;
    mN = n;
    mChunkFailed.store(false, std::memory_order_relaxed);
    mChunkError = nullptr;
    mDone.store(0, std::memory_order_relaxed);
    mClaims.store(claimWord(++mGeneration, count, 0), std::memory_order_release);
    signal();
    claimChunks(0);
    if (!spinUntil([&] { return mDone.load(std::memory_order_acquire) == count; }))
        for (int done = mDone.load(std::memory_order_acquire); done != count; done = mDone.load(std::memory_order_acquire))
            mDone.wait(done, std::memory_order_acquire);
    if (mChunkFailed.load(std::memory_order_relaxed))
        std::rethrow_exception(std::exchange(mChunkError, nullptr));
}

bool AgentTeam::claimChunks(std::size_t participant)
{
    if (mSchedule == Schedule::RoundRobin)
        return runOwnChunks(participant);
    bool claimed = false;
    std::uint64_t word = mClaims.load(std::memory_order_acquire);
    for (;;) {
        const int count = static_cast<int>(word >> 16 & 0xffff);
        const int next = static_cast<int>(word & 0xffff);
        if (next >= count)
            return claimed;
        if (!mClaims.compare_exchange_weak(word, word + 1, std::memory_order_acq_rel, std::memory_order_acquire))
            continue;
        // Chunk `next` of this generation is ours: the call's fields stay as they are until every
        // chunk of it is done, this one included.
        runChunk(participant, next, count);
        claimed = true;
        word = mClaims.load(std::memory_order_acquire);
    }
}

bool AgentTeam::runOwnChunks(std::size_t participant)
{
    const std::uint64_t word = mClaims.load(std::memory_order_acquire);
    const auto generation = static_cast<std::uint32_t>(word >> 32);
    if (generation == mSeen[participant])
        return false;
    mSeen[participant] = generation;
    const int count = static_cast<int>(word >> 16 & 0xffff);
    bool ran = false;
    for (int chunk = static_cast<int>(participant); chunk < count; chunk += workers() + 1) {
        runChunk(participant, chunk, count);
        ran = true;
    }
    return ran;
}

void AgentTeam::runChunk(std::size_t participant, int chunk, int count)
{
    const int begin = chunk * mChunk;
    const int end = std::min(mN, begin + mChunk);
    try {
        mCall(mFn, begin, end, mScratch[participant].data());
    } catch (...) {
        if (!mChunkFailed.exchange(true))
            mChunkError = std::current_exception();
    }
    if (mDone.fetch_add(1, std::memory_order_acq_rel) + 1 == count)
        mDone.notify_all();
}

void AgentTeam::post(const std::function<void()> &task)
{
    mTask = &task;
    mTaskError = nullptr;
    mBackground.store(1, std::memory_order_release);
    if (!mThreads.empty())
        signal();
}

bool AgentTeam::runBackground()
{
    int posted = 1;
    if (!mBackground.compare_exchange_strong(posted, 2, std::memory_order_acq_rel))
        return false;
    try {
        (*mTask)();
    } catch (...) {
        mTaskError = std::current_exception();
    }
    mBackground.store(3, std::memory_order_release);
    mBackground.notify_all();
    return true;
}

void AgentTeam::wait()
{
    // Not taken by a worker yet (none free, or none at all): this thread runs it.
    runBackground();
    for (int state = mBackground.load(std::memory_order_acquire); state != 3 && state != 0;
         state = mBackground.load(std::memory_order_acquire))
        mBackground.wait(state, std::memory_order_acquire);
    mBackground.store(0, std::memory_order_relaxed);
    if (mTaskError)
        std::rethrow_exception(std::exchange(mTaskError, nullptr));
}

void AgentTeam::loop(std::size_t participant)
{
    // After chunks, the step's next split call (the other channel's send, the gradients) comes
    // within microseconds: spin for it. After the background task, or when a spin found nothing,
    // the next work is an iteration or more away: sleep, not to burn a core (small problems).
    bool spin = false;
    for (;;) {
        const std::uint32_t seen = mSignal.load(std::memory_order_acquire);
        if (mStop.load(std::memory_order_acquire))
            return;
        const bool chunks = claimChunks(participant);
        const bool task = runBackground();
        if (chunks || task) {
            spin = chunks && !task;
            continue;
        }
        if (!spin || !spinUntil([&] { return mSignal.load(std::memory_order_acquire) != seen; }))
            mSignal.wait(seen, std::memory_order_acquire);
        spin = false;
    }
}

AgentTeam::Scope::Scope(AgentTeam *team, double minWork)
    : mPrevious(tCurrent.team), mPreviousMinWork(tCurrent.minWork)
{
    tCurrent.team = team;
    tCurrent.minWork = minWork;
}

AgentTeam::Scope::~Scope()
{
    tCurrent.team = mPrevious;
    tCurrent.minWork = mPreviousMinWork;
}

double AgentTeam::defaultMinWork()
{
    static const double value = [] {
        if (const char *text = std::getenv("DPLAB_SPLIT_MIN_WORK")) {
            char *end = nullptr;
            const double v = std::strtod(text, &end);
            if (end != text && v >= 0)
                return v;
        }
        return DefaultMinWork;
    }();
    return value;
}

AgentTeam *AgentTeam::forWork(double work)
{
    AgentTeam *team = tCurrent.team;
    return team && !team->mThreads.empty() && work >= tCurrent.minWork ? team : nullptr;
}

double *agentScratch(std::ptrdiff_t size)
{
    thread_local std::vector<double> buffer;
    if (static_cast<std::ptrdiff_t>(buffer.size()) < size)
        buffer.resize(static_cast<std::size_t>(size));
    return buffer.data();
}

} // namespace dplab
