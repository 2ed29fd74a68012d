// SPDX-License-Identifier: GPL-3.0-or-later
//
// TuneRunner: runs core's tune() (dplab/engine/tuning.h, docs/tuning.md) off the GUI thread, the
// same function `dplab-cli tune` calls with the same experiment and options, so the same seed
// gives the same candidates and the same tuning.csv. Between rounds it reports the candidates
// just evaluated (for a live tuning curve); it keeps the recorded metrics of every candidate's
// repetitions, keyed by the candidate's run identity, so a click on a candidate can draw its
// curves without running it again.
//
// Threading: start/stop/accessors on the GUI thread; tune() runs on a std::thread the runner
// owns; results come back to the GUI thread through queued calls (no exception crosses: errors
// arrive as failed(message)). The destructor cancels and joins.
#pragma once

#include "runtypes.h"

#include "dplab/engine/experiment.h"
#include "dplab/engine/tuning.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QVector>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace dplab {

class TuneRunner : public QObject
{
    Q_OBJECT

public:
    explicit TuneRunner(QObject *parent = nullptr);
    ~TuneRunner() override;

    /** Builds the experiment `document` (as the CLI parses a file: data loaded relative to
     *  `baseDir`) on the worker thread and tunes it with `options` on `threads` threads (0: all
     *  cores). False when a tuning is running. */
    bool start(const Json &document, const std::string &baseDir, const TuneOptions &options, int threads);
    /** Cancels the tuning in flight; it finishes with what was evaluated (cancelled = true). */
    void stop();
    bool isRunning() const { return mRunning; }

    /** The last finished tuning (null before one finished). */
    std::shared_ptr<const TuneResult> result() const { return mResult; }
    /** The experiment the last tuning ran (built), null before. */
    std::shared_ptr<const Experiment> experiment() const { return mExperiment; }
    QString lastError() const { return mLastError; }
    /** Recorded metrics of every repetition of the candidate with run identity `identity`
     *  (point 0, the candidate's run); empty when it was not kept (see kMaxKeptValues). */
    QVector<RunBatch> batches(const std::string &identity) const;
    /** At most this many recorded numbers are kept over all candidates (8 bytes each). */
    static constexpr long long kMaxKeptValues = 32LL * 1024 * 1024;

signals:
    /** A round finished: `candidates` were evaluated; `jobs` of `budget` run so far. */
    void progressed(int round, qint64 jobs, qint64 budget, const QVector<dplab::TuneCandidate> &candidates);
    /** result() holds the finished tuning (also a cancelled one). */
    void finished();
    /** The tuning could not run: one line naming the field or option. */
    void failed(const QString &message);

private:
    class Observer;
    void join();

    std::thread mThread;
    std::shared_ptr<RunControl> mControl;
    bool mRunning = false;
    std::shared_ptr<const TuneResult> mResult;
    std::shared_ptr<const Experiment> mExperiment;
    QString mLastError;
    mutable std::mutex mMutex; ///< guards mKept and mKeptValues (written on the worker thread)
    std::map<std::string, QVector<RunBatch>> mKept;
    long long mKeptValues = 0;
};

} // namespace dplab
