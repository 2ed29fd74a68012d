// SPDX-License-Identifier: GPL-3.0-or-later
#include "runfeed.h"

namespace dplab {

bool RunFeed::markPending()
{
    if (mNotified)
        return false;
    mNotified = true;
    return true;
}

bool RunFeed::push(RunBatch batch)
{
    std::lock_guard lock(mMutex);
    mBatches.push_back(std::move(batch));
    return markPending();
}

bool RunFeed::push(RunEvent event)
{
    std::lock_guard lock(mMutex);
    mEvents.push_back(std::move(event));
    return markPending();
}

void RunFeed::setProgress(long long done, long long total)
{
    // Progress events may arrive out of order from several threads: keep the largest.
    long long previous = mDone.load();
    while (done > previous && !mDone.compare_exchange_weak(previous, done)) {
    }
    mTotal.store(total);
}

void RunFeed::take(QVector<RunBatch> &batches, QVector<RunEvent> &events)
{
    std::lock_guard lock(mMutex);
    batches.swap(mBatches);
    events.swap(mEvents);
    mBatches.clear();
    mEvents.clear();
    mNotified = false;
}

void RunFeed::clear()
{
    std::lock_guard lock(mMutex);
    mBatches.clear();
    mEvents.clear();
    mNotified = false;
    mDone = 0;
    mTotal = 0;
}

} // namespace dplab
