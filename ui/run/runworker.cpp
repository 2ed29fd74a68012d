// SPDX-License-Identifier: GPL-3.0-or-later
#include "runworker.h"

#include "runfeed.h"
#include "textconvert.h"

#include <cerrno>
#include <exception>

#include <sys/resource.h>
#include <unistd.h>

namespace dplab {

namespace {

constexpr int kRunNice = 10;

/** Adapts the core observer to the feed (called from the runner's threads, serialized). */
class FeedObserver final : public RunObserver
{
public:
    FeedObserver(RunWorker *worker, RunFeed *feed)
        : mWorker(worker)
        , mFeed(feed)
    {
    }

    void onBatch(const MetricsBatch &b) override
    {
        RunBatch batch;
        batch.point = b.point;
        batch.run = b.run;
        batch.repetition = b.repetition;
        batch.names = converted(b.names, mNames, mQNames);
        batch.iterations.reserve(static_cast<int>(b.iterations.size()));
        for (long long k : b.iterations)
            batch.iterations.push_back(k);
        batch.values.reserve(static_cast<int>(b.iterations.size() * b.names.size()));
        for (const auto &row : b.values)
            for (double v : row)
                batch.values.push_back(v);
        if (!b.epsilonAlternatives.empty() && b.epsilonAlternatives.size() == b.iterations.size()) {
            batch.alternatives = static_cast<int>(b.epsilonAlternatives.front().size());
            batch.alternativeNames = converted(b.alternativeNames, mAlternativeNames, mQAlternativeNames);
            for (const auto &row : b.epsilonAlternatives)
                for (double v : row)
                    batch.epsilonAlternatives.push_back(v);
        }
        if (!b.epsilonAgents.empty() && b.epsilonAgents.size() == b.iterations.size()) {
            batch.agents = static_cast<int>(b.epsilonAgents.front().size());
            batch.epsilonAgents.reserve(static_cast<int>(b.epsilonAgents.size()) * batch.agents);
            for (const auto &row : b.epsilonAgents)
                for (double v : row)
                    batch.epsilonAgents.push_back(v);
        }
        if (mFeed->push(std::move(batch)))
            emit mWorker->dataReady();
    }

    void onStatus(const StatusEvent &e) override
    {
        if (e.kind == StatusEvent::Kind::Progress) {
            mFeed->setProgress(e.done, e.total);
            return;
        }
        RunEvent event{e.kind, e.point, e.run, e.repetition, e.iteration, toQString(e.message)};
        if (mFeed->push(std::move(event)))
            emit mWorker->dataReady();
    }

private:
    /** `names` as Qt strings: the names are the same in every batch of a run, so they are
     *  converted once (`last` holds what `cache` was converted from) and then shared. */
    static const QStringList &converted(const std::vector<std::string> &names, std::vector<std::string> &last,
                                        QStringList &cache)
    {
        if (names != last) {
            last = names;
            cache.clear();
            for (const std::string &name : names)
                cache << toQString(name);
        }
        return cache;
    }

    RunWorker *mWorker;
    RunFeed *mFeed;
    std::vector<std::string> mNames, mAlternativeNames; ///< the last batch's, as converted below
    QStringList mQNames, mQAlternativeNames;
};

/** Linux schedules nice values per thread: a run's threads at nice 10 give way to the GUI
 *  thread whenever both want a core (with every core computing, the window otherwise froze for
 *  100–200 ms at a time) and still use every idle core. Never raises a thread's priority. */
void yieldToTheGui()
{
#ifdef __linux__
    const auto tid = static_cast<id_t>(::gettid());
    errno = 0;
    const int now = ::getpriority(PRIO_PROCESS, tid);
    if (errno == 0 && now < kRunNice)
        ::setpriority(PRIO_PROCESS, tid, kRunNice);
#endif
}

} // namespace

RunWorker::RunWorker(std::shared_ptr<RunFeed> feed)
    : mFeed(std::move(feed))
{
}

void RunWorker::post(Job job)
{
    std::lock_guard lock(mMutex);
    mJob = std::move(job);
}

void RunWorker::end(Outcome outcome)
{
    // ended() is queued; emitting it under the lock makes it this thread's last touch of the
    // worker that the next locker (takeOutcome, from any thread) is ordered after.
    std::lock_guard lock(mMutex);
    mOutcome = std::move(outcome);
    emit ended();
}

std::optional<RunWorker::Outcome> RunWorker::takeOutcome()
{
    std::lock_guard lock(mMutex);
    std::optional<Outcome> outcome;
    outcome.swap(mOutcome);
    return outcome;
}

void RunWorker::runPosted()
{
    std::optional<Job> job;
    {
        std::lock_guard lock(mMutex);
        job.swap(mJob);
    }
    if (job)
        run(std::move(job->experiment), std::move(job->control), job->threads, std::move(job->plan),
            std::move(job->previous));
}

void RunWorker::run(std::shared_ptr<const Experiment> experiment, std::shared_ptr<RunControl> control, int threads,
                    std::shared_ptr<const RerunPlan> plan, std::shared_ptr<const ExperimentResult> previous)
{
    try {
        RunnerOptions options;
        options.threads = threads;
        options.batchSize = 1; // the feed batches; single steps must show at once
        options.onWorkerStart = yieldToTheGui;
        FeedObserver observer(this, mFeed.get());
        int jobsRun = 0;
        // Without a plan every run runs (what Runner::run does); either way the run's keys come
        // from the sweep points built for it, so the GUI thread does not resolve them again.
        const RerunPlan everything = plan ? RerunPlan() : RerunPlan::everything(*experiment);
        auto keys = std::make_shared<RunKeys>();
        Result<ExperimentResult> result = runChanged(*experiment, plan ? *plan : everything, previous.get(), options,
                                                     &observer, control.get(), &jobsRun, keys.get());
        if (!result) {
            end({nullptr, toQString(result.error().toString()), 0, nullptr});
            return;
        }
        end({std::make_shared<const ExperimentResult>(std::move(result.value())), QString(), jobsRun, std::move(keys)});
    } catch (const std::exception &e) {
        end({nullptr, tr("the run failed: %1").arg(QString::fromUtf8(e.what())), 0, nullptr});
    } catch (...) {
        end({nullptr, tr("the run failed with an unknown error"), 0, nullptr});
    }
}

} // namespace dplab
