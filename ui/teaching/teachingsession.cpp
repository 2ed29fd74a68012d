// SPDX-License-Identifier: GPL-3.0-or-later
#include "teachingsession.h"

#include "textconvert.h"

#include <algorithm>
#include <utility>

namespace dplab {

QStringList TeachingSession::quantityNames()
{
    return {tr("Distance to x*"), tr("Local loss f_i(x_i)"), tr("Cumulative ε_i"), tr("Consensus deviation ‖x_i − x̄‖")};
}

TeachingSession::TeachingSession(QObject *parent)
    : QObject(parent)
{
    // A signal rather than invokeMethod with a functor: the queued event is then made inside Qt,
    // and the outcome is read only after joining the thread (see mRecorded).
    connect(this, &TeachingSession::recorded, this, &TeachingSession::onRecorded, Qt::QueuedConnection);
}

TeachingSession::~TeachingSession()
{
    join();
}

void TeachingSession::join()
{
    if (mCancel)
        mCancel->store(true);
    if (mThread.joinable())
        mThread.join();
}

TeachingSession::Outcome TeachingSession::record(const std::shared_ptr<const Experiment> &experiment,
                                                 const std::atomic<bool> &cancel)
{
    Outcome out;
    try {
        const Experiment *source = experiment.get();
        std::optional<Experiment> first;
        if (experiment->sweep) {
            auto point = experimentAtSweepValue(*experiment, experiment->sweep->values.front());
            if (!point) {
                out.error = toQString(point.error().toString());
                return out;
            }
            first = std::move(point.value());
            source = &*first;
            out.note = tr("Sweep: the first value of %1 is played back.").arg(toQString(experiment->sweep->parameter));
        }
        Json doc = source->resolved;
        doc.erase("sweep");
        doc["repetitions"] = 1;
        doc["record_every"] = 1;
        const long long perIteration = std::max<long long>(1, static_cast<long long>(source->runs.size())
                                                                  * source->graph.nodeCount()
                                                                  * source->problem->dimension());
        const long long cap = std::max<long long>(10, std::min(kMaxIterations, kMaxValues / perIteration));
        if (source->iterations > cap) {
            doc["iterations"] = cap;
            out.note += (out.note.isEmpty() ? QString() : QStringLiteral(" "))
                        + tr("The first %1 of %2 iterations are played back.").arg(cap).arg(source->iterations);
        }
        auto playback = parseExperiment(doc, experiment->baseDir);
        if (!playback) {
            out.error = toQString(playback.error().toString());
            return out;
        }
        auto shared = std::make_shared<const Experiment>(std::move(playback.value()));
        RunnerOptions options;
        options.trace = true;
        options.messages.enabled = true;
        options.messages.repetition = 0;
        options.messages.maxRecords = shared->iterations;
        RunControl control;
        class CancelWatch : public RunObserver
        {
        public:
            CancelWatch(const std::atomic<bool> &c, RunControl &r) : mCancel(c), mControl(r) {}
            void onStatus(const StatusEvent &) override
            {
                if (mCancel.load())
                    mControl.cancel();
            }

        private:
            const std::atomic<bool> &mCancel;
            RunControl &mControl;
        } watch(cancel, control);
        auto result = Runner(options).run(*shared, &watch, &control);
        if (!result) {
            out.error = toQString(result.error().toString());
            return out;
        }
        out.playback = shared;
        out.reference = result->points.front().reference;
        out.result = std::make_shared<const ExperimentResult>(std::move(result.value()));
    } catch (const std::exception &e) {
        out.error = tr("internal error: %1").arg(QString::fromUtf8(e.what()));
    }
    return out;
}

void TeachingSession::start(std::shared_ptr<const Experiment> experiment)
{
    join();
    mRecorded.reset();
    const int generation = ++mGeneration;
    mCancel = std::make_shared<std::atomic<bool>>(false);
    mBusy = true;
    emit busyChanged(true);
    auto cancel = mCancel;
    mThread = std::thread([this, experiment, cancel, generation] {
        Outcome outcome = record(experiment, *cancel);
        if (cancel->load())
            return;
        // The outcome stays in this object rather than in the queued call: the GUI thread reads
        // it after joining this thread, an order a race detector can see.
        mRecorded = std::move(outcome);
        emit recorded(generation);
    });
}

void TeachingSession::clear()
{
    join();
    mRecorded.reset();
    ++mGeneration; // a queued recorded() of the cancelled recording is ignored
    mPlayback.reset();
    mResult.reset();
    mReference.reset();
    mNote.clear();
    if (mBusy) {
        mBusy = false;
        emit busyChanged(false);
    }
    emit cleared();
}

void TeachingSession::onRecorded(int generation)
{
    if (generation != mGeneration)
        return;
    join();
    if (auto outcome = std::exchange(mRecorded, std::nullopt))
        accept(std::move(*outcome));
}

bool TeachingSession::runNow(std::shared_ptr<const Experiment> experiment, QString *error)
{
    join();
    ++mGeneration;
    std::atomic<bool> cancel{false};
    Outcome outcome = record(experiment, cancel);
    const bool ok = outcome.error.isEmpty();
    if (!ok && error)
        *error = outcome.error;
    accept(std::move(outcome));
    return ok;
}

void TeachingSession::accept(Outcome outcome)
{
    if (mThread.joinable() && mThread.get_id() != std::this_thread::get_id())
        mThread.join();
    mBusy = false;
    emit busyChanged(false);
    if (!outcome.error.isEmpty()) {
        emit failed(outcome.error);
        return;
    }
    mPlayback = std::move(outcome.playback);
    mResult = std::move(outcome.result);
    mReference = std::move(outcome.reference);
    mNote = outcome.note;
    emit ready();
}

int TeachingSession::runCount() const
{
    return mResult ? static_cast<int>(mResult->points.front().runs.size()) : 0;
}

QString TeachingSession::runLabel(int run) const
{
    return run >= 0 && run < runCount() ? toQString(mResult->points.front().runs[run].label) : QString();
}

int TeachingSession::agentCount() const
{
    return mPlayback ? mPlayback->graph.nodeCount() : 0;
}

int TeachingSession::dimension() const
{
    return mPlayback ? mPlayback->problem->dimension() : 0;
}

const std::vector<long long> &TeachingSession::iterations(int run) const
{
    if (run < 0 || run >= runCount())
        return mEmpty;
    return mResult->points.front().runs[run].repetitions.front().iterations;
}

const Eigen::MatrixXd &TeachingSession::decisions(int run, int index) const
{
    const auto &trace = mResult->points.front().runs[run].repetitions.front().trace;
    return trace[static_cast<std::size_t>(std::clamp<int>(index, 0, static_cast<int>(trace.size()) - 1))];
}

const MessageRecord *TeachingSession::messages(int run, long long k) const
{
    if (run < 0 || run >= runCount())
        return nullptr;
    const auto &records = mResult->points.front().runs[run].repetitions.front().messages;
    // Records are in iteration order, one per iteration from 0.
    if (k >= 0 && k < static_cast<long long>(records.size()) && records[k].iteration == k)
        return &records[k];
    for (const auto &r : records)
        if (r.iteration == k)
            return &r;
    return nullptr;
}

QStringList TeachingSession::channels(int run) const
{
    QStringList out;
    const MessageRecord *first = messages(run, 0);
    if (!first)
        return out;
    for (const Message &m : first->messages) {
        const QString c = toQString(m.channel);
        if (!out.contains(c))
            out << c;
    }
    return out;
}

bool TeachingSession::compressed(int run) const
{
    return mPlayback && run >= 0 && run < static_cast<int>(mPlayback->runs.size())
           && !mPlayback->runs[run].compressorImpl->isIdentity();
}

Eigen::VectorXd TeachingSession::quantity(int run, int index, Quantity q) const
{
    if (!mResult || run < 0 || run >= runCount())
        return {};
    const auto &rep = mResult->points.front().runs[run].repetitions.front();
    if (index < 0 || index >= static_cast<int>(rep.trace.size()))
        return {};
    const Eigen::MatrixXd &x = rep.trace[index];
    switch (q) {
    case Quantity::DistanceToOptimum:
        if (!mReference)
            return {};
        return (x.rowwise() - mReference->x.transpose()).rowwise().norm();
    case Quantity::LocalLoss: {
        Eigen::VectorXd out(x.rows());
        mPlayback->problem->values(x, out, rep.iterations[index]);
        return out;
    }
    case Quantity::Epsilon: {
        if (index >= static_cast<int>(rep.epsilonAgents.size()))
            return {};
        const auto &eps = rep.epsilonAgents[index];
        return Eigen::Map<const Eigen::VectorXd>(eps.data(), static_cast<Eigen::Index>(eps.size()));
    }
    case Quantity::ConsensusDeviation: {
        const Eigen::RowVectorXd mean = x.colwise().mean();
        return (x.rowwise() - mean).rowwise().norm();
    }
    }
    return {};
}

} // namespace dplab
