// SPDX-License-Identifier: GPL-3.0-or-later
#include "tunerunner.h"

#include "textconvert.h"

#include <exception>
#include <utility>

namespace dplab {

/** Gathers the batches of the round in flight by job (the candidate's index in the round). */
class TuneRunner::Observer final : public RunObserver
{
public:
    void onBatch(const MetricsBatch &b) override
    {
        std::lock_guard lock(mMutex);
        RunBatch batch;
        batch.point = 0;
        batch.run = b.run;
        batch.repetition = b.repetition;
        for (const auto &n : b.names)
            batch.names << toQString(n);
        for (long long k : b.iterations)
            batch.iterations.push_back(k);
        for (const auto &row : b.values)
            for (double v : row)
                batch.values.push_back(v);
        if (!b.epsilonAgents.empty() && b.epsilonAgents.size() == b.iterations.size()) {
            batch.agents = static_cast<int>(b.epsilonAgents.front().size());
            for (const auto &row : b.epsilonAgents)
                for (double v : row)
                    batch.epsilonAgents.push_back(v);
        }
        mValues += batch.values.size() + batch.epsilonAgents.size();
        mRound[b.point].push_back(std::move(batch));
    }
    void onStatus(const StatusEvent &) override {}

    /** The round's batches by job, and how many numbers they hold; starts the next round. */
    std::map<int, QVector<RunBatch>> takeRound(long long *values)
    {
        std::lock_guard lock(mMutex);
        *values = mValues;
        mValues = 0;
        return std::exchange(mRound, {});
    }

private:
    std::mutex mMutex;
    std::map<int, QVector<RunBatch>> mRound;
    long long mValues = 0;
};

TuneRunner::TuneRunner(QObject *parent)
    : QObject(parent)
{
}

TuneRunner::~TuneRunner()
{
    if (mControl)
        mControl->cancel();
    join();
}

void TuneRunner::join()
{
    if (mThread.joinable())
        mThread.join();
}

QVector<RunBatch> TuneRunner::batches(const std::string &identity) const
{
    std::lock_guard lock(mMutex);
    auto it = mKept.find(identity);
    return it == mKept.end() ? QVector<RunBatch>() : it->second;
}

void TuneRunner::stop()
{
    if (mControl)
        mControl->cancel();
}

bool TuneRunner::start(const Json &document, const std::string &baseDir, const TuneOptions &options, int threads)
{
    if (mRunning)
        return false;
    join();
    mRunning = true;
    mLastError.clear();
    {
        std::lock_guard lock(mMutex);
        mKept.clear();
        mKeptValues = 0;
    }
    mControl = std::make_shared<RunControl>();
    mThread = std::thread([this, document, baseDir, options, threads, control = mControl] {
        Observer observer;
        std::shared_ptr<const Experiment> built;
        Result<TuneResult> result = Error::internal("tune", "did not run");
        try {
            auto experiment = parseExperiment(document, baseDir);
            if (!experiment) {
                result = experiment.error();
            } else {
                built = std::make_shared<const Experiment>(std::move(*experiment));
                RunnerOptions runner;
                runner.threads = threads;
                result = tune(*built, options, runner, &observer, control.get(), [&](const TuneProgress &p) {
                    long long values = 0;
                    auto round = observer.takeRound(&values);
                    {
                        std::lock_guard lock(mMutex);
                        // Candidate k of the round was job k (tune's order); a candidate taken
                        // from its cache ran no job and has its batches already.
                        if (mKeptValues + values <= kMaxKeptValues)
                            for (std::size_t k = 0; k < p.candidates.size(); ++k) {
                                auto it = round.find(static_cast<int>(k));
                                if (it != round.end() && !it->second.isEmpty()
                                    && it->second.front().run == p.candidates[k].run)
                                    mKept[p.candidates[k].identity] = std::move(it->second);
                            }
                        mKeptValues += values;
                    }
                    QVector<TuneCandidate> candidates(p.candidates.begin(), p.candidates.end());
                    QMetaObject::invokeMethod(
                        this,
                        [this, round = p.round, jobs = p.jobs, budget = p.budget, candidates] {
                            emit progressed(round, jobs, budget, candidates);
                        },
                        Qt::QueuedConnection);
                });
            }
        } catch (const std::exception &e) {
            result = Error::internal("tune", e.what());
        }
        std::shared_ptr<const TuneResult> out;
        QString error;
        if (result)
            out = std::make_shared<const TuneResult>(std::move(*result));
        else
            error = toQString(result.error().toString());
        QMetaObject::invokeMethod(
            this,
            [this, out, error, built] {
                join();
                mRunning = false;
                mControl.reset();
                if (out) {
                    mResult = out;
                    mExperiment = built;
                    emit finished();
                } else {
                    mLastError = error;
                    emit failed(error);
                }
            },
            Qt::QueuedConnection);
    });
    return true;
}

} // namespace dplab
