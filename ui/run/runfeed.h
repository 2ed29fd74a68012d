// SPDX-License-Identifier: GPL-3.0-or-later
//
// RunFeed: the hand-over buffer between the core Runner's observer calls (on the runner's
// worker threads) and the GUI thread. The observer appends batches and events; the GUI thread
// takes everything at most ~20 times a second (RunController). push() reports whether the
// consumer must be notified, so at most one notification is in flight at a time.
//
// Threading: every function may be called from any thread.
#pragma once

#include "runtypes.h"

#include <atomic>
#include <mutex>

namespace dplab {

class RunFeed
{
public:
    /** Appends a batch (joining the job's pending rows when its columns are the same); returns
     *  true when the consumer should be notified. */
    bool push(RunBatch batch);
    /** Appends a status event; returns true when the consumer should be notified. */
    bool push(RunEvent event);
    /** Records progress (iterations done of total over all jobs). */
    void setProgress(long long done, long long total);
    /** Moves out everything pending. */
    void take(QVector<RunBatch> &batches, QVector<RunEvent> &events);
    long long done() const { return mDone.load(); }
    long long total() const { return mTotal.load(); }
    void clear();

private:
    bool markPending();

    /** How many of the newest pending batches a new one may join (more than any thread count
     *  keeps concurrently running jobs apart). */
    static constexpr qsizetype kCoalesceWindow = 512;

    std::mutex mMutex;
    QVector<RunBatch> mBatches;
    QVector<RunEvent> mEvents;
    bool mNotified = false;
    std::atomic<long long> mDone{0};
    std::atomic<long long> mTotal{0};
};

} // namespace dplab
