// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/runner.h"
#include "dplab/engine/pointrunner.h"

#include "dplab/engine/metrics.h"
#include "teaching/probe.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <system_error>
#include <thread>

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
    std::vector<const Experiment *> points;
    for (const auto &p : pointJobs)
        points.push_back(p.point);
    ExperimentResult result;
    auto selected = [&](std::size_t p, std::size_t r) {
        const auto &runs = pointJobs[p].runs;
        return runs.empty() || std::find(runs.begin(), runs.end(), static_cast<int>(r)) != runs.end();
    };

    // The job list (point, run, repetition) and the part of it this runner's shard runs.
    const Shard shard = options.shard;
    result.shard = shard;
    for (std::size_t p = 0; p < points.size(); ++p)
        for (std::size_t r = 0; r < points[p]->runs.size(); ++r)
            if (selected(p, r))
                for (int rep = 0; rep < points[p]->repetitions; ++rep)
                    result.jobs.push_back({static_cast<int>(p), static_cast<int>(r), rep});
    std::vector<Job> jobs;
    std::vector<std::vector<int>> firstRepetition(points.size()); // per point and run: first one run here
    long long total = 0;
    result.points.resize(points.size());
    // One reference solve per problem: points that share a built problem share its reference.
    std::map<const Problem *, std::pair<Result<Reference>, double>> references;
    std::size_t position = 0;
    for (std::size_t p = 0; p < points.size(); ++p) {
        const Experiment &e = *points[p];
        PointResult &pr = result.points[p];
        pr.value = pointJobs[p].value;
        std::size_t pointJobCount = 0;
        for (std::size_t r = 0; r < e.runs.size(); ++r)
            pointJobCount += selected(p, r) ? static_cast<std::size_t>(e.repetitions) : 0;
        bool anyHere = false;
        for (std::size_t k = 0; k < pointJobCount && !anyHere; ++k)
            anyHere = shard.contains(position + k);
        const Result<Reference> *reference = nullptr;
        if (anyHere) { // a point none of whose jobs run here needs no reference
            auto it = references.find(e.problem.get());
            if (it == references.end()) {
                const auto solveStarted = std::chrono::steady_clock::now();
                Result<Reference> solved = solveReference(*e.problem);
                const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - solveStarted).count();
                it = references.emplace(e.problem.get(), std::make_pair(std::move(solved), seconds)).first;
                pr.referenceSeconds = seconds;
            }
            reference = &it->second.first;
        }
        if (reference && *reference)
            pr.reference = reference->value();
        pr.runs.resize(e.runs.size());
        firstRepetition[p].assign(e.runs.size(), -1);
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
                if (firstRepetition[p][r] < 0)
                    firstRepetition[p][r] = rep;
                jobs.push_back({static_cast<int>(p), static_cast<int>(r), rep});
                total += e.iterations;
            }
        }
    }

    ObserverGate gate(observer, total);
    std::mutex errorMutex;
    std::optional<Error> firstError;
    std::atomic<std::size_t> nextJob{0};

    auto runJob = [&](const Job &job) {
        const Experiment &e = *points[job.point];
        const RunSpec &spec = e.runs[job.run];
        PointResult &pr = result.points[job.point];
        RunResult &rr = pr.runs[job.run];
        RepetitionResult &out = rr.repetitions[job.repetition];
        const auto started = std::chrono::steady_clock::now();
        const RunContext ctx = makeRunContext(e, job.run, job.repetition);

        std::unique_ptr<Algorithm> algorithm = spec.algorithm->create();
        if (Status s = algorithm->reset(ctx); !s) {
            Error err = s.error();
            err.where = joinPath(indexPath("runs", job.run), err.where);
            std::lock_guard lock(errorMutex);
            if (!firstError)
                firstError = err;
            return;
        }
        const PrivacyAccountant *accountant = algorithm->accountant();
        const std::optional<Reference> &reference = pr.reference;
        std::vector<std::string> names = applicableMetrics(*e.problem, reference.has_value(), accountant != nullptr,
                                                           e.extraMetrics);
        TeachingProbe probe(e, spec, ctx, job.repetition, options.messages);
        if (probe.active())
            algorithm->setRecordMessages(true);
        if (probe.attacks())
            names.push_back(metric::AttackError); // last in the canonical order
        if (job.repetition == firstRepetition[job.point][job.run]) {
            rr.metricNames = names;
            rr.accountant = accountant ? accountant->name() : "";
            if (accountant)
                for (const AlternativeBound &b : accountant->alternatives())
                    rr.alternativeBounds.push_back(b.name);
            rr.attack = probe.description();
            std::vector<std::string> warnings = algorithm->warnings();
            if (!probe.warning().empty())
                warnings.push_back(probe.warning());
            for (const auto &w : warnings) {
                rr.warnings.push_back(w);
                StatusEvent ev{StatusEvent::Kind::Warning, job.point, job.run, 0, 0, w};
                gate.status(ev);
            }
        }
        gate.status({StatusEvent::Kind::Started, job.point, job.run, job.repetition, 0, ""});

        MetricTracker tracker(*e.problem, reference ? &*reference : nullptr, names);
        const bool wantResidual = std::find(names.begin(), names.end(), metric::Residual) != names.end();
        std::vector<Eigen::MatrixXd> iterates;
        MetricsBatch batch{job.point, job.run, job.repetition, names, {}, {}, {}, {}, {}, {}};
        if (accountant)
            for (const AlternativeBound &b : accountant->alternatives())
                batch.alternativeNames.push_back(b.name);
        std::vector<double> row;
        auto flush = [&] {
            if (batch.iterations.empty())
                return;
            gate.batch(batch);
            batch.iterations.clear();
            batch.values.clear();
            batch.epsilonAgents.clear();
            batch.epsilonAlternatives.clear();
            batch.messages.clear();
        };
        auto record = [&](long long t) {
            const Eigen::MatrixXd &x = algorithm->decisions();
            tracker.compute(x, t, *algorithm, row);
            probe.fill(names, row);
            out.iterations.push_back(t);
            out.values.push_back(row);
            batch.iterations.push_back(t);
            batch.values.push_back(row);
            if (accountant) {
                const Eigen::VectorXd &eps = accountant->epsilon();
                std::vector<double> perAgent(eps.data(), eps.data() + eps.size());
                batch.epsilonAgents.push_back(perAgent);
                out.epsilonAgents.push_back(std::move(perAgent));
                const std::vector<AlternativeBound> alternatives = accountant->alternatives();
                if (!alternatives.empty()) {
                    std::vector<double> maxima;
                    for (const AlternativeBound &b : alternatives)
                        maxima.push_back(b.epsilon.size() > 0 ? b.epsilon.maxCoeff() : 0.0);
                    batch.epsilonAlternatives.push_back(maxima);
                    out.epsilonAlternatives.push_back(std::move(maxima));
                }
            }
            if (options.trace)
                out.trace.push_back(x);
            if (wantResidual)
                iterates.push_back(x);
            if (static_cast<int>(batch.iterations.size()) >= options.batchSize)
                flush();
        };

        const double limit = blowUpLimit(ctx.x0, reference);
        long long ticket = 0;
        long long sinceProgress = 0;
        record(0);
        for (long long t = 0; t < e.iterations; ++t) {
            if (control) {
                control->waitIfPaused(ticket);
                if (control->isCancelled()) {
                    out.status = RunStatus::Cancelled;
                    break;
                }
            }
            if (tracker.needsObserve())
                tracker.observe(algorithm->decisions(), t);
            algorithm->step();
            if (probe.active())
                probe.afterStep(t, *algorithm, batch, out);
            const Eigen::MatrixXd &x = algorithm->decisions();
            const bool finite = x.allFinite();
            if (!finite || x.cwiseAbs().maxCoeff() > limit) {
                out.status = RunStatus::Diverged;
                out.divergedAt = t + 1;
                if (finite)
                    record(t + 1);
                gate.status({StatusEvent::Kind::Diverged, job.point, job.run, job.repetition, t + 1,
                             finite ? "decisions blew up" : "decisions became NaN/Inf"});
                break;
            }
            if ((t + 1) % e.recordEvery == 0 || t + 1 == e.iterations)
                record(t + 1);
            if (++sinceProgress >= 100) {
                gate.progress(sinceProgress);
                sinceProgress = 0;
            }
        }
        if (wantResidual && !iterates.empty()) {
            const auto series = residualSeries(iterates);
            const std::size_t col = std::find(names.begin(), names.end(), metric::Residual) - names.begin();
            // The residual needs the last iterate: batches sent during the run carry NaN for it;
            // the stored result (what the writers and the final plots use) has the values.
            for (std::size_t k = 0; k < series.size(); ++k)
                out.values[k][col] = series[k];
        }
        flush();
        gate.progress(sinceProgress);
        if (accountant)
            out.epsilonPerAgent = accountant->epsilon();
        probe.finish(out);
        out.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (out.status == RunStatus::Cancelled)
            gate.status({StatusEvent::Kind::Cancelled, job.point, job.run, job.repetition, algorithm->iteration(), ""});
        gate.status({StatusEvent::Kind::Finished, job.point, job.run, job.repetition, algorithm->iteration(),
                     runStatusName(out.status)});
    };

    auto worker = [&] {
        for (;;) {
            const std::size_t k = nextJob.fetch_add(1);
            if (k >= jobs.size())
                return;
            {
                std::lock_guard lock(errorMutex);
                if (firstError)
                    return;
            }
            if (control && control->isCancelled()) {
                auto &rep = result.points[jobs[k].point].runs[jobs[k].run].repetitions[jobs[k].repetition];
                rep.status = RunStatus::Cancelled;
                continue;
            }
            runJob(jobs[k]);
        }
    };

    int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::max(1, std::min<int>(threads, static_cast<int>(jobs.size())));
    auto startedWorker = [&] {
        if (options.onWorkerStart)
            options.onWorkerStart();
        worker();
    };
    if (threads == 1) {
        startedWorker();
    } else {
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
    if (firstError)
        return *firstError;
    result.cancelled = control && control->isCancelled();
    return result;
}

} // namespace dplab
