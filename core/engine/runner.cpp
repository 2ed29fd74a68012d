// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/runner.h"
#include "dplab/engine/pointrunner.h"

#include "dplab/common/agentteam.h"
#include "dplab/common/decomposition.h"
#include "dplab/engine/metrics.h"
#include "teaching/probe.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

namespace dplab {

void RunControl::cancel()
{
    std::lock_guard lock(mMutex);
    mCancelled = true;
    mWake.notify_all();
}

void RunControl::pause()
{
    std::lock_guard lock(mMutex);
    mPaused = true;
}

void RunControl::resume()
{
    std::lock_guard lock(mMutex);
    mPaused = false;
    mWake.notify_all();
}

void RunControl::step()
{
    std::lock_guard lock(mMutex);
    ++mStepTicket;
    mWake.notify_all();
}

void RunControl::waitIfPaused(long long &stepTicketSeen)
{
    if (!mPaused.load(std::memory_order_relaxed))
        return;
    std::unique_lock lock(mMutex);
    mWake.wait(lock, [&] { return !mPaused || mCancelled || mStepTicket > stepTicketSeen; });
    stepTicketSeen = mStepTicket;
}

const char *runStatusName(RunStatus status)
{
    switch (status) {
    case RunStatus::Ok:
        return "ok";
    case RunStatus::Diverged:
        return "diverged";
    case RunStatus::Cancelled:
        return "cancelled";
    }
    return "ok";
}

RunStatus RunResult::status() const
{
    RunStatus worst = RunStatus::Ok;
    for (const auto &rep : repetitions) {
        if (rep.status == RunStatus::Diverged)
            return RunStatus::Diverged;
        if (rep.status == RunStatus::Cancelled)
            worst = RunStatus::Cancelled;
    }
    return worst;
}

bool ExperimentResult::diverged() const
{
    for (const auto &p : points)
        for (const auto &r : p.runs)
            if (r.status() == RunStatus::Diverged)
                return true;
    return false;
}

Result<Shard> parseShard(const std::string &text, const std::string &option)
{
    const auto slash = text.find('/');
    auto number = [](const std::string &t, long long &out) {
        if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos)
            return false;
        out = std::stoll(t);
        return true;
    };
    long long index = 0, count = 0;
    if (slash == std::string::npos || !number(text.substr(0, slash), index) || !number(text.substr(slash + 1), count)
        || count < 1 || index < 1 || index > count)
        return Error::invalid(option, "must be i/N with 1 ≤ i ≤ N (e.g. 3/8), got \"" + text + "\"");
    return Shard{static_cast<int>(index), static_cast<int>(count)};
}

namespace {

struct Job {
    int point;
    int run;
    int repetition;
};

/** Serializes observer calls from the worker threads and keeps the progress count. */
class ObserverGate
{
public:
    ObserverGate(RunObserver *observer, long long total) : mObserver(observer), mTotal(total) {}
    void batch(const MetricsBatch &b)
    {
        if (!mObserver)
            return;
        std::lock_guard lock(mMutex);
        mObserver->onBatch(b);
    }
    void status(StatusEvent e)
    {
        if (!mObserver)
            return;
        std::lock_guard lock(mMutex);
        mObserver->onStatus(e);
    }
    void progress(long long iterations)
    {
        const long long done = mDone.fetch_add(iterations) + iterations;
        if (!mObserver)
            return;
        StatusEvent e;
        e.kind = StatusEvent::Kind::Progress;
        e.done = done;
        e.total = mTotal;
        status(e);
    }

private:
    RunObserver *mObserver;
    long long mTotal;
    std::atomic<long long> mDone{0};
    std::mutex mMutex;
};

double blowUpLimit(const Eigen::MatrixXd &x0, const std::optional<Reference> &reference)
{
    double scale = 1.0;
    if (x0.size() > 0)
        scale = std::max(scale, x0.cwiseAbs().maxCoeff());
    if (reference && reference->x.size() > 0)
        scale = std::max(scale, reference->x.cwiseAbs().maxCoeff());
    return 1e12 * scale;
}

/** The jobs this runner's shard runs, in the order of the job list (point, run, repetition). */
struct JobPlan {
    std::vector<Job> jobs;
    std::vector<std::vector<int>> firstRepetition; ///< per point and run: the first repetition run here (-1: none)
    long long iterations = 0;                      ///< of all the jobs, for the progress count
};

/** The reference optimum of point `e`'s problem, solved once per Problem object (points that share
 *  a built problem share it); the solve's seconds go to the point that solved it. */
const Result<Reference> &referenceOf(const Experiment &e, PointResult &pr,
                                     std::map<const Problem *, std::pair<Result<Reference>, double>> &references)
{
    auto it = references.find(e.problem.get());
    if (it == references.end()) {
        const auto solveStarted = std::chrono::steady_clock::now();
        Result<Reference> solved = solveReference(*e.problem);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - solveStarted).count();
        it = references.emplace(e.problem.get(), std::make_pair(std::move(solved), seconds)).first;
        pr.referenceSeconds = seconds;
    }
    return it->second.first;
}

/** Sharding: lays the result out (points, their runs, repetitions marked skipped where another
 *  shard or another selection runs them, references where a job runs) and lists the jobs that run
 *  here. */
JobPlan planJobs(const std::vector<PointJobs> &pointJobs, const Shard &shard, ExperimentResult &result)
{
    auto selected = [&](std::size_t p, std::size_t r) {
        const auto &runs = pointJobs[p].runs;
        return runs.empty() || std::find(runs.begin(), runs.end(), static_cast<int>(r)) != runs.end();
    };
    result.shard = shard;
    for (std::size_t p = 0; p < pointJobs.size(); ++p)
        for (std::size_t r = 0; r < pointJobs[p].point->runs.size(); ++r)
            if (selected(p, r))
                for (int rep = 0; rep < pointJobs[p].point->repetitions; ++rep)
                    result.jobs.push_back({static_cast<int>(p), static_cast<int>(r), rep});
    JobPlan plan;
    plan.firstRepetition.resize(pointJobs.size());
    result.points.resize(pointJobs.size());
    std::map<const Problem *, std::pair<Result<Reference>, double>> references;
    std::size_t position = 0;
    for (std::size_t p = 0; p < pointJobs.size(); ++p) {
        const Experiment &e = *pointJobs[p].point;
        PointResult &pr = result.points[p];
        pr.value = pointJobs[p].value;
        std::size_t pointJobCount = 0;
        for (std::size_t r = 0; r < e.runs.size(); ++r)
            pointJobCount += selected(p, r) ? static_cast<std::size_t>(e.repetitions) : 0;
        bool anyHere = false;
        for (std::size_t k = 0; k < pointJobCount && !anyHere; ++k)
            anyHere = shard.contains(position + k);
        // A point none of whose jobs run here needs no reference.
        const Result<Reference> *reference = anyHere ? &referenceOf(e, pr, references) : nullptr;
        if (reference && *reference)
            pr.reference = reference->value();
        pr.runs.resize(e.runs.size());
        plan.firstRepetition[p].assign(e.runs.size(), -1);
        for (std::size_t r = 0; r < e.runs.size(); ++r) {
            pr.runs[r].label = e.runs[r].label;
            pr.runs[r].algorithm = e.runs[r].algorithm->id;
            pr.runs[r].repetitions.resize(e.repetitions);
            if (!selected(p, r)) {
                for (auto &rep : pr.runs[r].repetitions)
                    rep.skipped = true;
                continue;
            }
            if (reference && !*reference)
                pr.runs[r].warnings.push_back("no reference optimum (" + reference->error().message
                                              + "): distance_to_optimum and optimality_gap are not shown");
            for (int rep = 0; rep < e.repetitions; ++rep, ++position) {
                if (!shard.contains(position)) {
                    pr.runs[r].repetitions[rep].skipped = true;
                    continue;
                }
                if (plan.firstRepetition[p][r] < 0)
                    plan.firstRepetition[p][r] = rep;
                plan.jobs.push_back({static_cast<int>(p), static_cast<int>(r), rep});
                plan.iterations += e.iterations;
            }
        }
    }
    return plan;
}

/** Evaluates the metrics at x̄ (MetricTracker::evaluateGlobal: F, ∇F and the accuracies, one pass
 *  over every agent's data) of one recorded row on a worker of the job's AgentTeam while the job's
 *  thread steps on (fewer jobs than threads). The values are those of the same call on the job's
 *  thread: the same function of the same x̄, whichever thread runs it. A worker busy with it claims
 *  no chunks of the step's split work; when none has taken it by the time the row is needed, the
 *  job's thread runs it itself. */
class GlobalHelper
{
public:
    GlobalHelper(const MetricTracker &tracker, AgentTeam &team)
        : mTracker(tracker), mTeam(team), mTask([this] { mTracker.evaluateGlobal(mMean, mGlobal); })
    {
    }
    ~GlobalHelper()
    {
        if (!mPosted)
            return;
        try {
            mTeam.wait();
        } catch (...) { // the job is failing already; its own error is the one reported
        }
    }
    GlobalHelper(const GlobalHelper &) = delete;
    GlobalHelper &operator=(const GlobalHelper &) = delete;

    /** Starts the evaluation at `mean` (the previous one must have been waited for). */
    void post(Eigen::VectorXd &mean)
    {
        mMean.swap(mean);
        mPosted = true;
        mTeam.post(mTask);
    }
    /** The evaluation posted last, once done; what it threw is thrown here, on the job's thread. */
    const GlobalEvaluation &wait()
    {
        mPosted = false;
        mTeam.wait();
        return mGlobal;
    }

private:
    const MetricTracker &mTracker;
    AgentTeam &mTeam;
    const std::function<void()> mTask;
    bool mPosted = false;
    Eigen::VectorXd mMean;
    GlobalEvaluation mGlobal;
};

/** A job's recording: the metrics, ε and trace at the recorded iterations go into its repetition
 *  result and, in batches, to the observer. With a GlobalHelper, row k's metrics at x̄ are
 *  evaluated while the job steps on to row k + 1, and row k goes out (result and batch) when
 *  row k + 1 is recorded or the job ends: the same rows in the same order. */
class Recorder
{
public:
    Recorder(const Experiment &e, const Job &job, const Algorithm &algorithm, const std::vector<std::string> &names,
             const std::optional<Reference> &reference, const TeachingProbe &probe, RepetitionResult &out,
             const RunnerOptions &options, ObserverGate &gate)
        : mAlgorithm(algorithm)
        , mAccountant(algorithm.accountant())
        , mNames(names)
        , mProbe(probe)
        , mOut(out)
        , mOptions(options)
        , mGate(gate)
        , mTracker(*e.problem, reference ? &*reference : nullptr, names)
        , mWantResidual(std::find(names.begin(), names.end(), metric::Residual) != names.end())
        , mBatch{job.point, job.run, job.repetition, names, {}, {}, {}, {}, {}, {}}
    {
        if (mAccountant)
            for (const AlternativeBound &b : mAccountant->alternatives())
                mBatch.alternativeNames.push_back(b.name);
    }

    MetricTracker &tracker() { return mTracker; }
    MetricsBatch &batch() { return mBatch; }

    /** Evaluates the metrics at x̄ on a worker of `team` from now on (see GlobalHelper). */
    void useHelper(AgentTeam &team)
    {
        mHelper = std::make_unique<GlobalHelper>(mTracker, team);
    }

    /** Records the decisions after t iterations. */
    void record(long long t)
    {
        const Eigen::MatrixXd &x = mAlgorithm.decisions();
        if (!mHelper) {
            mTracker.compute(x, t, mAlgorithm, mRow);
            mProbe.fill(mNames, mRow);
            captureEpsilon();
            append(t);
        } else {
            Eigen::VectorXd mean;
            const bool global = mTracker.computeLocal(x, mAlgorithm, mNext, mean);
            mProbe.fill(mNames, mNext);
            finishPending();
            captureEpsilon();
            if (global)
                mHelper->post(mean);
            mRow.swap(mNext);
            mPending = t;
            mPendingGlobal = global;
        }
        if (mOptions.trace)
            mOut.trace.push_back(x);
        if (mWantResidual)
            mIterates.push_back(x);
    }

    /** Sends the batch recorded since the last one. */
    void flush()
    {
        finishPending();
        if (mBatch.iterations.empty())
            return;
        mGate.batch(mBatch);
        mBatch.iterations.clear();
        mBatch.values.clear();
        mBatch.epsilonAgents.clear();
        mBatch.epsilonAlternatives.clear();
        mBatch.messages.clear();
    }

    /** Fills in the residual, which needs the last iterate: batches sent during the run carry NaN
     *  for it; the stored result (what the writers and the final plots use) has the values. */
    void finishResidual()
    {
        finishPending();
        if (!mWantResidual || mIterates.empty())
            return;
        const auto series = residualSeries(mIterates);
        const std::size_t col = std::find(mNames.begin(), mNames.end(), metric::Residual) - mNames.begin();
        for (std::size_t k = 0; k < series.size(); ++k)
            mOut.values[k][col] = series[k];
    }

private:
    /** Row t (in mRow) into the result and the batch, ε with it. */
    void append(long long t)
    {
        mOut.iterations.push_back(t);
        mOut.values.push_back(mRow);
        mBatch.iterations.push_back(t);
        mBatch.values.push_back(mRow);
        if (mAccountant)
            recordEpsilon();
        if (static_cast<int>(mBatch.iterations.size()) >= mOptions.batchSize)
            flush();
    }

    /** Completes the row whose metrics at x̄ the helper evaluates, and appends it. */
    void finishPending()
    {
        if (mPending < 0)
            return;
        const long long t = mPending;
        mPending = -1;
        if (mPendingGlobal)
            mTracker.fillGlobal(mHelper->wait(), mRow);
        append(t);
    }

    /** ε after the iteration being recorded, read now (appended with its row). */
    void captureEpsilon()
    {
        if (!mAccountant)
            return;
        const Eigen::VectorXd &eps = mAccountant->epsilon();
        mEpsilonAgents.assign(eps.data(), eps.data() + eps.size());
        const std::vector<AlternativeBound> alternatives = mAccountant->alternatives();
        mEpsilonMaxima.clear();
        for (const AlternativeBound &b : alternatives)
            mEpsilonMaxima.push_back(b.epsilon.size() > 0 ? b.epsilon.maxCoeff() : 0.0);
    }

    void recordEpsilon()
    {
        mBatch.epsilonAgents.push_back(mEpsilonAgents);
        mOut.epsilonAgents.push_back(mEpsilonAgents);
        if (mEpsilonMaxima.empty())
            return;
        mBatch.epsilonAlternatives.push_back(mEpsilonMaxima);
        mOut.epsilonAlternatives.push_back(mEpsilonMaxima);
    }

    const Algorithm &mAlgorithm;
    const PrivacyAccountant *mAccountant;
    const std::vector<std::string> &mNames;
    const TeachingProbe &mProbe;
    RepetitionResult &mOut;
    const RunnerOptions &mOptions;
    ObserverGate &mGate;
    MetricTracker mTracker;
    const bool mWantResidual;
    MetricsBatch mBatch;
    std::vector<double> mRow;
    std::vector<Eigen::MatrixXd> mIterates;
    std::unique_ptr<GlobalHelper> mHelper;
    std::vector<double> mEpsilonAgents, mEpsilonMaxima; ///< ε of the row not yet appended
    std::vector<double> mNext;   ///< the row being recorded (with a helper)
    long long mPending = -1;     ///< the iteration of the row in mRow not yet appended (with a helper)
    bool mPendingGlobal = false; ///< whether that row waits for the helper
};

/** What every job of one job list shares. */
struct JobShared {
    const std::vector<PointJobs> &points;
    ExperimentResult &result;
    const JobPlan &plan;
    const RunnerOptions &options;
    ObserverGate &gate;
    RunControl *control;
    /** Threads per job beyond the job's own (threads / jobs − 1): each job gets an AgentTeam of
     *  that many workers, which split its per-agent work and evaluate its metrics at x̄. */
    int teamWorkers = 0;
};

/** The run's description, from the first repetition run here: metric names, accountant and its
 *  alternative bounds, the attack, and the warnings (also sent to the observer). */
void describeRun(RunResult &rr, const Job &job, const Algorithm &algorithm, const TeachingProbe &probe,
                 const std::vector<std::string> &names, ObserverGate &gate)
{
    const PrivacyAccountant *accountant = algorithm.accountant();
    rr.metricNames = names;
    rr.accountant = accountant ? accountant->name() : "";
    if (accountant)
        for (const AlternativeBound &b : accountant->alternatives())
            rr.alternativeBounds.push_back(b.name);
    rr.attack = probe.description();
    std::vector<std::string> warnings = algorithm.warnings();
    if (!probe.warning().empty())
        warnings.push_back(probe.warning());
    for (const auto &w : warnings) {
        rr.warnings.push_back(w);
        StatusEvent ev{StatusEvent::Kind::Warning, job.point, job.run, 0, 0, w};
        gate.status(ev);
    }
}

/** The iterations of one job: steps the algorithm, recording every recordEvery iterations, until
 *  the last iteration, a cancel or a blow-up (beyond `limit` or not finite). Returns the
 *  iterations not yet counted in the progress. */
long long iterate(const Experiment &e, const Job &job, Algorithm &algorithm, Recorder &recorder,
                  TeachingProbe &probe, RepetitionResult &out, double limit, const JobShared &shared)
{
    long long ticket = 0;
    long long sinceProgress = 0;
    for (long long t = 0; t < e.iterations; ++t) {
        if (shared.control) {
            shared.control->waitIfPaused(ticket);
            if (shared.control->isCancelled()) {
                out.status = RunStatus::Cancelled;
                break;
            }
        }
        if (recorder.tracker().needsObserve())
            recorder.tracker().observe(algorithm.decisions(), t);
        algorithm.step();
        if (probe.active())
            probe.afterStep(t, algorithm, recorder.batch(), out);
        const Eigen::MatrixXd &x = algorithm.decisions();
        const bool finite = x.allFinite();
        if (!finite || x.cwiseAbs().maxCoeff() > limit) {
            out.status = RunStatus::Diverged;
            out.divergedAt = t + 1;
            if (finite)
                recorder.record(t + 1);
            shared.gate.status({StatusEvent::Kind::Diverged, job.point, job.run, job.repetition, t + 1,
                                finite ? "decisions blew up" : "decisions became NaN/Inf"});
            break;
        }
        if ((t + 1) % e.recordEvery == 0 || t + 1 == e.iterations)
            recorder.record(t + 1);
        if (++sinceProgress >= 100) {
            shared.gate.progress(sinceProgress);
            sinceProgress = 0;
        }
    }
    return sinceProgress;
}

/** One job: (point, run, repetition) from the algorithm's reset to its last iteration. Returns the
 *  error of a failed reset. */
std::optional<Error> runJob(const JobShared &shared, const Job &job)
{
    const Experiment &e = *shared.points[job.point].point;
    const RunSpec &spec = e.runs[job.run];
    PointResult &pr = shared.result.points[job.point];
    RunResult &rr = pr.runs[job.run];
    RepetitionResult &out = rr.repetitions[job.repetition];
    const auto started = std::chrono::steady_clock::now();
    const RunContext ctx = makeRunContext(e, job.run, job.repetition);

    std::unique_ptr<Algorithm> algorithm = spec.algorithm->create();
    if (Status s = algorithm->reset(ctx); !s) {
        Error err = s.error();
        err.where = joinPath(indexPath("runs", job.run), err.where);
        return err;
    }
    const PrivacyAccountant *accountant = algorithm->accountant();
    const std::optional<Reference> &reference = pr.reference;
    std::vector<std::string> names = applicableMetrics(*e.problem, reference.has_value(), accountant != nullptr,
                                                       e.extraMetrics);
    TeachingProbe probe(e, spec, ctx, job.repetition, shared.options.messages);
    if (probe.active())
        algorithm->setRecordMessages(true);
    if (probe.attacks())
        names.push_back(metric::AttackError); // last in the canonical order
    if (job.repetition == shared.plan.firstRepetition[job.point][job.run])
        describeRun(rr, job, *algorithm, probe, names, shared.gate);
    shared.gate.status({StatusEvent::Kind::Started, job.point, job.run, job.repetition, 0, ""});

    // Spare threads: the job's team (declared before the recorder, which may hold a task of it).
    std::optional<AgentTeam> team;
    if (shared.teamWorkers > 0)
        team.emplace(shared.teamWorkers, shared.options.onWorkerStart);
    const AgentTeam::Scope split(team ? &*team : nullptr);
    Recorder recorder(e, job, *algorithm, names, reference, probe, out, shared.options, shared.gate);
    if (team && !probe.active())
        recorder.useHelper(*team);
    recorder.record(0);
    const long long sinceProgress
        = iterate(e, job, *algorithm, recorder, probe, out, blowUpLimit(ctx.x0, reference), shared);
    recorder.finishResidual();
    recorder.flush();
    shared.gate.progress(sinceProgress);
    if (accountant)
        out.epsilonPerAgent = accountant->epsilon();
    probe.finish(out);
    out.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (out.status == RunStatus::Cancelled)
        shared.gate.status({StatusEvent::Kind::Cancelled, job.point, job.run, job.repetition, algorithm->iteration(), ""});
    shared.gate.status({StatusEvent::Kind::Finished, job.point, job.run, job.repetition, algorithm->iteration(),
                        runStatusName(out.status)});
    return std::nullopt;
}

/** The worker pool: `work` on `threads` threads, each calling `onWorkerStart` first; fewer when
 *  the system refuses a thread (the results do not depend on the count), none when one would do. */
void runWorkers(int threads, const std::function<void()> &onWorkerStart, const std::function<void()> &work)
{
    auto startedWorker = [&] {
        if (onWorkerStart)
            onWorkerStart();
        work();
    };
    if (threads == 1) {
        startedWorker();
        return;
    }
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i) {
        try {
            pool.emplace_back(startedWorker);
        } catch (const std::system_error &) {
            break; // the system refused a thread: fewer workers give the same results
        }
    }
    if (pool.empty())
        startedWorker();
    for (auto &t : pool)
        t.join();
}

} // namespace

Result<ExperimentResult> Runner::run(const Experiment &experiment, RunObserver *observer, RunControl *control)
{
    // Points: the experiment itself, or one experiment per sweep value (validated up front).
    std::vector<Experiment> sweepPoints;
    std::vector<PointJobs> points;
    if (experiment.sweep) {
        sweepPoints.reserve(experiment.sweep->values.size());
        for (const Json &value : experiment.sweep->values) {
            auto point = experimentAtSweepValue(experiment, value);
            if (!point)
                return point.error();
            sweepPoints.push_back(std::move(point.value()));
        }
        for (std::size_t p = 0; p < sweepPoints.size(); ++p)
            points.push_back({&sweepPoints[p], experiment.sweep->values[p], {}});
    } else {
        points.push_back({&experiment, Json(), {}});
    }
    return runPoints(points, mOptions, observer, control);
}

Result<ExperimentResult> runPoints(const std::vector<PointJobs> &pointJobs, const RunnerOptions &options,
                                   RunObserver *observer, RunControl *control)
{
    ExperimentResult result;
    const JobPlan plan = planJobs(pointJobs, options.shard, result);
    ObserverGate gate(observer, plan.iterations);
    int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
    // Threads the jobs leave idle join the jobs as AgentTeam workers: they split each job's
    // per-agent work (the agents' gradients) and take the metrics at x̄ (a pass over every agent's
    // data at each recorded iteration) off the job's thread; the values do not depend on it.
    const int perJob = plan.jobs.empty() ? 1 : static_cast<int>(static_cast<std::size_t>(std::max(1, threads)) / plan.jobs.size());
    const JobShared shared{pointJobs, result, plan, options, gate, control, std::max(0, perJob - 1)};
    std::mutex errorMutex;
    std::optional<Error> firstError;
    auto fail = [&](Error error) {
        std::lock_guard lock(errorMutex);
        if (!firstError)
            firstError = std::move(error);
    };
    std::atomic<std::size_t> nextJob{0};
    auto work = [&] {
        for (;;) {
            const std::size_t k = nextJob.fetch_add(1);
            if (k >= plan.jobs.size())
                return;
            {
                std::lock_guard lock(errorMutex);
                if (firstError)
                    return;
            }
            const Job &job = plan.jobs[k];
            if (control && control->isCancelled()) {
                result.points[job.point].runs[job.run].repetitions[job.repetition].status = RunStatus::Cancelled;
                continue;
            }
            try {
                if (std::optional<Error> error = runJob(shared, job))
                    fail(std::move(*error));
            } catch (const NumericalError &e) {
                // A decomposition failed inside an algorithm (dplab/common/decomposition.h): an
                // internal error of this run, reported like a failed reset, never a crash.
                fail(Error::internal(indexPath("runs", job.run), e.what()));
            }
        }
    };
    threads = std::max(1, std::min<int>(threads, static_cast<int>(plan.jobs.size())));
    runWorkers(threads, options.onWorkerStart, work);
    if (firstError)
        return *firstError;
    result.cancelled = control && control->isCancelled();
    return result;
}

} // namespace dplab
