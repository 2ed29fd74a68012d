// SPDX-License-Identifier: GPL-3.0-or-later
//
// One job over several threads (docs/architecture.md §7): when the runner has more threads than
// jobs, each job gets an AgentTeam — its own thread plus the spare worker threads — and the
// per-agent work of a step (the agents' gradients) is split over them by forAgents().
//
// Deterministic by construction. forAgents(n, …) cuts the agents 0 … n−1 into chunks of
// consecutive agents; the job's thread and the workers claim chunks until none is left (whoever is
// free takes the next one, so a worker the machine has not scheduled yet delays nothing), and the
// job's thread returns when every chunk is done. The callback must compute each agent's outputs
// from that agent's inputs only, writing nothing another agent writes and summing nothing across
// agents: then every output element is computed by exactly the same operations whichever thread
// runs its chunk and however the chunks fall, and the result is bit for bit fn(0, n) on one thread.
//
// The team also runs one background task at a time on a worker (the runner's metrics at x̄ of a
// recorded row while the job steps on): a worker busy with it simply claims no chunks.
//
// Threading: an AgentTeam belongs to one job's thread, which alone calls run(), post() and wait();
// the callbacks run on that thread and on the workers. No allocation once the scratch buffers
// have their size (they grow on the job's thread, in run()).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <type_traits>
#include <vector>

namespace dplab {

class AgentTeam
{
public:
    /** Per-call work (the callback's multiply-adds over all agents, e.g. samples × features for a
     *  gradient pass) from which forAgents splits: below it the hand-over costs more than the
     *  second thread gains (docs/benchmarks.md, "Issue 27, fourth pass"). */
    static constexpr double DefaultMinWork = 2.0e5;

    /** Who runs which chunk. Claim: whoever is free takes the next one (the runner's). RoundRobin:
     *  chunk k runs on participant k mod (workers + 1), 0 being the calling thread, so every worker
     *  takes part in every call of enough agents (the allocation test: every thread's buffers reach
     *  their size in its warm-up). Either gives the same results. */
    enum class Schedule { Claim, RoundRobin };

    /** A team of the calling thread and `workers` worker threads, each calling `onWorkerStart`
     *  first (fewer when the system refuses a thread: the results do not depend on the count). */
    AgentTeam(int workers, const std::function<void()> &onWorkerStart = {}, Schedule schedule = Schedule::Claim);
    ~AgentTeam();
    AgentTeam(const AgentTeam &) = delete;
    AgentTeam &operator=(const AgentTeam &) = delete;

    int workers() const { return static_cast<int>(mThreads.size()); }

    /** fn(begin, end, scratch) over chunks covering [0, n), on this thread and the workers;
     *  `scratch` holds `scratchSize` doubles of the calling thread's own (not zeroed). Returns when
     *  every chunk is done; an exception of a chunk is rethrown here. */
    template <class F>
    void run(int n, std::ptrdiff_t scratchSize, F &&fn)
    {
        using Fn = std::remove_reference_t<F>;
        runErased(n, scratchSize, [](void *f, int b, int e, double *s) { (*static_cast<Fn *>(f))(b, e, s); },
                  const_cast<void *>(static_cast<const void *>(&fn)));
    }

    /** Starts task() on a free worker (the previous task must have been waited for; `task` must
     *  live until wait()). Without workers it runs at wait(). */
    void post(const std::function<void()> &task);
    /** Waits for the posted task; what it threw is thrown here. */
    void wait();

    /** Makes `team` the calling thread's team for forAgents (null: none) with the split threshold
     *  `minWork`, until the scope ends. DPLAB_SPLIT_MIN_WORK in the environment overrides the
     *  default threshold (for benchmarks: it cannot change a result). */
    class Scope
    {
    public:
        explicit Scope(AgentTeam *team, double minWork = defaultMinWork());
        ~Scope();
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;

    private:
        AgentTeam *mPrevious;
        double mPreviousMinWork;
    };
    /** The threshold Scope uses by default (DefaultMinWork or the environment's). */
    static double defaultMinWork();
    /** The calling thread's team when a call of `work` should be split, else null. */
    static AgentTeam *forWork(double work);

private:
    using Call = void (*)(void *, int, int, double *);
    void runErased(int n, std::ptrdiff_t scratchSize, Call call, void *fn);
    bool claimChunks(std::size_t participant);
    bool runOwnChunks(std::size_t participant);
    void runChunk(std::size_t participant, int chunk, int count);
    bool runBackground();
    void loop(std::size_t participant);
    void signal();

    Schedule mSchedule;
    std::vector<std::uint32_t> mSeen; ///< RoundRobin: the last generation each participant ran
    std::vector<std::thread> mThreads;
    std::vector<std::vector<double>> mScratch; ///< per participant: 0 = the job's thread, k = worker k
    // The current call: the chunk claims of generation g as one word, g << 32 | count << 16 | next.
    std::atomic<std::uint64_t> mClaims{0};
    std::atomic<int> mDone{0};
    std::uint32_t mGeneration = 0;
    Call mCall = nullptr;
    void *mFn = nullptr;
    int mN = 0, mChunk = 1;
    std::exception_ptr mChunkError;
    std::atomic<bool> mChunkFailed{false};
    // The background task: 0 idle, 1 posted, 2 running, 3 done.
    std::atomic<int> mBackground{0};
    const std::function<void()> *mTask = nullptr;
    std::exception_ptr mTaskError;
    std::atomic<std::uint32_t> mSignal{0}; ///< bumped on every event the workers wait for
    std::atomic<bool> mStop{false};
};

/** The serial path's scratch: `size` doubles of the calling thread's own (grows once). */
double *agentScratch(std::ptrdiff_t size);

/** fn(begin, end, scratch) over [0, n): split over the calling thread's AgentTeam when `work`
 *  reaches its threshold, else fn(0, n, scratch) on this thread. See the file comment for what fn
 *  must respect so the result does not depend on the split. */
template <class F>
void forAgents(int n, double work, std::ptrdiff_t scratchSize, F &&fn)
{
    if (AgentTeam *team = n > 1 ? AgentTeam::forWork(work) : nullptr)
        team->run(n, scratchSize, fn);
    else
        fn(0, n, agentScratch(scratchSize));
}

} // namespace dplab
