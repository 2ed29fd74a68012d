// SPDX-License-Identifier: GPL-3.0-or-later
#include "rerunplan.h"

#include "dplab/engine/runidentity.h"

#include <algorithm>
#include <map>
#include <string>

namespace dplab {

namespace {

int pointCount(const Experiment &experiment)
{
    return experiment.sweep ? static_cast<int>(experiment.sweep->values.size()) : 1;
}

bool reusable(const RunResult &run, int repetitions)
{
    if (static_cast<int>(run.repetitions.size()) != repetitions)
        return false;
    for (const RepetitionResult &rep : run.repetitions)
        if (rep.skipped || rep.status == RunStatus::Cancelled)
            return false;
    return true;
}

void replay(const RunResult &run, int point, int runIndex, RunObserver *observer)
{
    if (!observer)
        return;
    for (int r = 0; r < static_cast<int>(run.repetitions.size()); ++r) {
        const RepetitionResult &rep = run.repetitions[static_cast<std::size_t>(r)];
        StatusEvent started;
        started.kind = StatusEvent::Kind::Started;
        started.point = point;
        started.run = runIndex;
        started.repetition = r;
        observer->onStatus(started);
        MetricsBatch batch;
        batch.point = point;
        batch.run = runIndex;
        batch.repetition = r;
        batch.names = run.metricNames;
        batch.iterations = rep.iterations;
        batch.values = rep.values;
        batch.epsilonAgents = rep.epsilonAgents;
        batch.epsilonAlternatives = rep.epsilonAlternatives;
        batch.alternativeNames = run.alternativeBounds;
        if (!batch.iterations.empty())
            observer->onBatch(batch);
        for (const std::string &warning : run.warnings) {
            StatusEvent w = started;
            w.kind = StatusEvent::Kind::Warning;
            w.message = warning;
            observer->onStatus(w);
        }
        StatusEvent end = started;
        end.kind = rep.status == RunStatus::Diverged ? StatusEvent::Kind::Diverged : StatusEvent::Kind::Finished;
        end.iteration = rep.status == RunStatus::Diverged ? rep.divergedAt
                                                          : (rep.iterations.empty() ? 0 : rep.iterations.back());
        observer->onStatus(end);
    }
}

} // namespace

int RerunPlan::changedRuns() const
{
    int n = 0;
    for (const auto &point : runs)
        n += static_cast<int>(point.size());
    return n;
}

RerunPlan RerunPlan::everything(const Experiment &next)
{
    RerunPlan plan;
    std::vector<int> all(next.runs.size());
    for (std::size_t r = 0; r < all.size(); ++r)
        all[r] = static_cast<int>(r);
    for (int p = 0; p < pointCount(next); ++p) {
        plan.reuse.emplace_back(next.runs.size(), std::make_pair(-1, -1));
        plan.runs.push_back(all);
    }
    return plan;
}

RerunPlan planRerun(const Experiment &next, const Experiment *previous, const ExperimentResult *previousResult)
{
    std::map<std::string, std::pair<int, int>> known;
    if (previous && previousResult && !previousResult->points.empty()
        && static_cast<int>(previousResult->points.size()) == pointCount(*previous)) {
        for (int p = 0; p < pointCount(*previous); ++p)
            for (int r = 0; r < static_cast<int>(previous->runs.size()); ++r) {
                const auto &runs = previousResult->points[static_cast<std::size_t>(p)].runs;
                if (r >= static_cast<int>(runs.size()) || !reusable(runs[static_cast<std::size_t>(r)], previous->repetitions))
                    continue;
                if (auto key = runIdentityAt(*previous, p, r, -1))
                    known.emplace(*key, std::make_pair(p, r));
            }
    }
    RerunPlan plan;
    for (int p = 0; p < pointCount(next); ++p) {
        std::vector<std::pair<int, int>> reuse;
        std::vector<int> runs;
        for (int r = 0; r < static_cast<int>(next.runs.size()); ++r) {
            auto key = runIdentityAt(next, p, r, -1);
            auto it = key ? known.find(*key) : known.end();
            if (it == known.end()) {
                reuse.emplace_back(-1, -1);
                runs.push_back(r);
            } else {
                reuse.push_back(it->second);
            }
        }
        plan.reuse.push_back(std::move(reuse));
        plan.runs.push_back(std::move(runs));
    }
    return plan;
}

Result<ExperimentResult> runChanged(const Experiment &next, const RerunPlan &plan,
                                    const ExperimentResult *previousResult, const RunnerOptions &options,
                                    RunObserver *observer, RunControl *control, int *jobsRun, RunKeys *keys)
{
    // Points: the experiment itself without a sweep, else one built experiment per sweep value.
    std::vector<Experiment> built;
    std::vector<PointJobs> jobs;
    const int points = pointCount(next);
    if (next.sweep) {
        built.reserve(static_cast<std::size_t>(points));
        for (int p = 0; p < points; ++p) {
            auto point = experimentAtSweepValue(next, next.sweep->values[static_cast<std::size_t>(p)]);
            if (!point)
                return point.error();
            built.push_back(std::move(*point));
        }
    }
    for (int p = 0; p < points; ++p) {
        const auto &runs = plan.runs[static_cast<std::size_t>(p)];
        if (runs.empty())
            continue;
        PointJobs job;
        job.point = next.sweep ? &built[static_cast<std::size_t>(p)] : &next;
        job.value = next.sweep ? next.sweep->values[static_cast<std::size_t>(p)] : Json();
        job.runs = runs;
        jobs.push_back(std::move(job));
    }
    // Replay what is kept first: those curves appear at once.
    if (previousResult)
        for (int p = 0; p < points; ++p)
            for (int r = 0; r < static_cast<int>(next.runs.size()); ++r) {
                const auto [pp, pr] = plan.reuse[static_cast<std::size_t>(p)][static_cast<std::size_t>(r)];
                if (pp >= 0)
                    replay(previousResult->points[static_cast<std::size_t>(pp)].runs[static_cast<std::size_t>(pr)], p, r,
                           observer);
            }
    ExperimentResult result;
    if (jobsRun)
        *jobsRun = 0;
    if (!jobs.empty()) {
        auto ran = runPoints(jobs, options, observer, control);
        if (!ran)
            return ran.error();
        result = std::move(*ran);
        if (jobsRun)
            for (const PointResult &point : result.points)
                for (const RunResult &run : point.runs)
                    for (const RepetitionResult &rep : run.repetitions)
                        *jobsRun += rep.skipped ? 0 : 1;
    }
    if (keys) {
        keys->assign(static_cast<std::size_t>(points), {});
        for (int p = 0; p < points; ++p) {
            const Experiment &point = next.sweep ? built[static_cast<std::size_t>(p)] : next;
            for (int r = 0; r < static_cast<int>(std::min(next.runs.size(), point.runs.size())); ++r)
                (*keys)[static_cast<std::size_t>(p)].push_back(runKey(point, r));
        }
    }
    // Assemble one point per point of `next` (runPoints returns only the points it ran).
    ExperimentResult merged;
    merged.cancelled = result.cancelled;
    std::size_t ranIndex = 0;
    for (int p = 0; p < points; ++p) {
        PointResult point;
        const bool ran = !plan.runs[static_cast<std::size_t>(p)].empty();
        if (ran && ranIndex < result.points.size())
            point = std::move(result.points[ranIndex++]);
        else if (previousResult) {
            const auto [pp, pr] = plan.reuse[static_cast<std::size_t>(p)].empty()
                                      ? std::make_pair(-1, -1)
                                      : plan.reuse[static_cast<std::size_t>(p)][0];
            if (pp >= 0) {
                point.reference = previousResult->points[static_cast<std::size_t>(pp)].reference;
                point.referenceSeconds = previousResult->points[static_cast<std::size_t>(pp)].referenceSeconds;
            }
            (void)pr;
            point.value = next.sweep ? next.sweep->values[static_cast<std::size_t>(p)] : Json();
        }
        point.runs.resize(next.runs.size());
        for (int r = 0; r < static_cast<int>(next.runs.size()); ++r) {
            const auto [pp, pr] = plan.reuse[static_cast<std::size_t>(p)][static_cast<std::size_t>(r)];
            if (pp >= 0 && previousResult)
                point.runs[static_cast<std::size_t>(r)] =
                    previousResult->points[static_cast<std::size_t>(pp)].runs[static_cast<std::size_t>(pr)];
        }
        merged.points.push_back(std::move(point));
        for (int r = 0; r < static_cast<int>(next.runs.size()); ++r)
            for (int k = 0; k < next.repetitions; ++k)
                merged.jobs.push_back({p, r, k});
    }
    return merged;
}

} // namespace dplab
