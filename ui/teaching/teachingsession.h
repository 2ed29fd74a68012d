// SPDX-License-Identifier: GPL-3.0-or-later
//
// TeachingSession: the recording the teaching views play back. It runs a copy of the experiment
// (first sweep point, one repetition, every iteration recorded, at most kMaxIterations) on a
// background thread with the core Runner asked to keep the decisions (trace) and every message
// (RunnerOptions::messages) — the same engine, seed and noise streams as a normal run, so the
// played-back numbers are the run's numbers. It then answers per (run, iteration) questions:
// decisions, the messages sent, and per-agent quantities for colouring the graph.
//
// Threading: GUI thread; the run happens on a std::thread whose result is queued back.
#pragma once

#include "dplab/engine/runner.h"
#include "dplab/engine/messages.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <Eigen/Core>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace dplab {

class TeachingSession : public QObject
{
    Q_OBJECT

public:
    /** What colours an agent. */
    enum class Quantity { DistanceToOptimum, LocalLoss, Epsilon, ConsensusDeviation };
    static QStringList quantityNames();

    /** Longest recording (iterations), and the largest n·d·iterations kept in memory. */
    static constexpr long long kMaxIterations = 2000;
    static constexpr long long kMaxValues = 20'000'000;

    explicit TeachingSession(QObject *parent = nullptr);
    ~TeachingSession() override;

    /** Starts recording `experiment` (replacing any recording in progress). */
    void start(std::shared_ptr<const Experiment> experiment);
    /** Runs synchronously (tests). Returns false with `error` on failure. */
    bool runNow(std::shared_ptr<const Experiment> experiment, QString *error = nullptr);
    /** Cancels a recording in progress and forgets the recording (another experiment was
     *  opened): every accessor answers as before the first recording. Emits cleared(). */
    void clear();
    bool isBusy() const { return mBusy; }
    bool hasResult() const { return mResult != nullptr; }

    /** The experiment that was recorded (the playback copy), its result. */
    const Experiment *experiment() const { return mPlayback.get(); }
    const ExperimentResult *result() const { return mResult.get(); }
    /** Why the recording is shorter than the experiment ("" when it is not). */
    QString note() const { return mNote; }

    int runCount() const;
    QString runLabel(int run) const;
    int agentCount() const;
    int dimension() const;
    /** Recorded iterations of run `run` (0, 1, 2, ...; shorter when the run diverged). */
    const std::vector<long long> &iterations(int run) const;
    /** Decisions after `iterations(run)[index]` iterations (n×d). */
    const Eigen::MatrixXd &decisions(int run, int index) const;
    /** The messages sent in iteration k (the step k → k+1), or nullptr. */
    const MessageRecord *messages(int run, long long k) const;
    /** Channels the run's algorithm sends on, in the order of its messages. */
    QStringList channels(int run) const;
    /** Whether the run's messages are compressed (its compressor is not the identity). */
    bool compressed(int run) const;
    /** Per-agent value of `q` at recorded index `index` (empty when it does not apply, e.g. no
     *  reference or no accountant). */
    Eigen::VectorXd quantity(int run, int index, Quantity q) const;
    /** The reference optimum x* (nullopt when none). */
    const std::optional<Reference> &reference() const { return mReference; }

signals:
    void busyChanged(bool busy);
    /** A recording finished; every accessor now answers for it. */
    void ready();
    void failed(const QString &message);
    /** clear() dropped the recording. */
    void cleared();
    /** Internal: emitted by the recording thread, queued to the GUI thread. */
    void recorded(int generation);

private:
    struct Outcome {
        std::shared_ptr<const Experiment> playback;
        std::shared_ptr<const ExperimentResult> result;
        std::optional<Reference> reference;
        QString note;
        QString error;
    };
    static Outcome record(const std::shared_ptr<const Experiment> &experiment, const std::atomic<bool> &cancel);
    void accept(Outcome outcome);
    void join();
    void onRecorded(int generation);

    // Written by the recording thread, read on the GUI thread only after joining it.
    std::optional<Outcome> mRecorded;

    std::shared_ptr<const Experiment> mPlayback;
    std::shared_ptr<const ExperimentResult> mResult;
    std::optional<Reference> mReference;
    QString mNote;
    bool mBusy = false;
    std::thread mThread;
    std::shared_ptr<std::atomic<bool>> mCancel;
    int mGeneration = 0;
    std::vector<long long> mEmpty;
};

} // namespace dplab
