// SPDX-License-Identifier: GPL-3.0-or-later
#include "runfeed.h"

#include <algorithm>

namespace dplab {

bool RunFeed::markPending()
{
    if (mNotified)
        return false;
    mNotified = true;
    return true;
}

namespace {

/** Whether two batches of one job have the same columns, so that their rows can be joined. */
bool sameColumns(const RunBatch &pending, const RunBatch &next)
{
    return pending.agents == next.agents && pending.alternatives == next.alternatives
        && pending.names == next.names && pending.alternativeNames == next.alternativeNames;
}

} // namespace

bool RunFeed::push(RunBatch batch)
{
    std::lock_guard lock(mMutex);
    // The runner reports every recorded iteration on its own; between two drains a job's rows
    // join its newest pending batch, so the GUI thread takes one batch per job, not one per row.
    // Only the few newest batches are looked at: at most one per concurrently running job.
    const qsizetype stop = std::max<qsizetype>(0, mBatches.size() - kCoalesceWindow);
    for (qsizetype i = mBatches.size(); i-- > stop;) {
        RunBatch &pending = mBatches[i];
        if (pending.point != batch.point || pending.run != batch.run || pending.repetition != batch.repetition)
            continue;
        if (!sameColumns(pending, batch))
            break; // the columns changed: keep the rows apart
        pending.iterations += batch.iterations;
        pending.values += batch.values;
        pending.epsilonAgents += batch.epsilonAgents;
        pending.epsilonAlternatives += batch.epsilonAlternatives;
        return markPending();
    }
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
