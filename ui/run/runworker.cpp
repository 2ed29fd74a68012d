// SPDX-License-Identifier: GPL-3.0-or-later
#include "runworker.h"

#include "runfeed.h"
#include "textconvert.h"

#include <exception>

namespace dplab {

namespace {

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
        batch.names.reserve(static_cast<int>(b.names.size()));
        for (const std::string &name : b.names)
            batch.names << toQString(name);
        batch.iterations.reserve(static_cast<int>(b.iterations.size()));
        for (long long k : b.iterations)
            batch.iterations.push_back(k);
        batch.values.reserve(static_cast<int>(b.iterations.size() * b.names.size()));
        for (const auto &row : b.values)
            for (double v : row)
                batch.values.push_back(v);
        if (!b.epsilonAlternatives.empty() && b.epsilonAlternatives.size() == b.iterations.size()) {
            batch.alternatives = static_cast<int>(b.epsilonAlternatives.front().size());
            for (const std::string &name : b.alternativeNames)
                batch.alternativeNames << toQString(name);
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
    RunWorker *mWorker;
    RunFeed *mFeed;
};

} // namespace

RunWorker::RunWorker(std::shared_ptr<RunFeed> feed)
    : mFeed(std::move(feed))
{
}

void RunWorker::run(std::shared_ptr<const Experiment> experiment, std::shared_ptr<RunControl> control, int threads)
{
    try {
        RunnerOptions options;
        options.threads = threads;
        options.batchSize = 1; // the feed batches; single steps must show at once
        Runner runner(options);
        FeedObserver observer(this, mFeed.get());
        auto result = runner.run(*experiment, &observer, control.get());
        if (!result) {
            emit failed(toQString(result.error().toString()));
            return;
        }
        emit finished(std::make_shared<const ExperimentResult>(std::move(result.value())));
    } catch (const std::exception &e) {
        emit failed(tr("the run failed: %1").arg(QString::fromUtf8(e.what())));
    } catch (...) {
        emit failed(tr("the run failed with an unknown error"));
    }
}

} // namespace dplab
