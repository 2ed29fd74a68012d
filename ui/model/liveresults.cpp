// SPDX-License-Identifier: GPL-3.0-or-later
#include "liveresults.h"

#include "textconvert.h"

#include "dplab/common/stats.h"

#include <cmath>
#include <limits>

namespace dplab {

namespace {
const QVector<double> kEmptyDoubles;
const QVector<int> kEmptyInts;
} // namespace

LiveResults::LiveResults(QObject *parent)
    : QObject(parent)
{
}

void LiveResults::clear()
{
    mPoints.clear();
    mRunLabels.clear();
    mPointLabels.clear();
    mSweepParameter.clear();
    mRepetitions = 1;
    mLatestIteration = 0;
    emit resetDone();
}

void LiveResults::reset(const Experiment &experiment)
{
    mPoints.clear();
    mRunLabels.clear();
    mPointLabels.clear();
    mSweepParameter.clear();
    mLatestIteration = 0;
    mRepetitions = experiment.repetitions;
    for (const RunSpec &run : experiment.runs)
        mRunLabels << toQString(run.label);
    int points = 1;
    if (experiment.sweep) {
        mSweepParameter = toQString(experiment.sweep->parameter);
        points = static_cast<int>(experiment.sweep->values.size());
        for (const Json &v : experiment.sweep->values)
            mPointLabels << toQString(v.is_string() ? v.get<std::string>() : v.dump());
    }
    mPoints.resize(points);
    for (auto &runs : mPoints) {
        runs.resize(mRunLabels.size());
        for (Series &s : runs)
            s.reps.resize(mRepetitions);
    }
    emit resetDone();
}

LiveResults::Series *LiveResults::series(int point, int run)
{
    if (point < 0 || point >= mPoints.size() || run < 0 || run >= mPoints[point].size())
        return nullptr;
    return &mPoints[point][run];
}

const LiveResults::Series *LiveResults::series(int point, int run) const
{
    if (point < 0 || point >= mPoints.size() || run < 0 || run >= mPoints[point].size())
        return nullptr;
    return &mPoints[point][run];
}

void LiveResults::addBatches(const QVector<RunBatch> &batches)
{
    QVector<QPair<int, int>> touched;
    for (const RunBatch &b : batches) {
        Series *s = series(b.point, b.run);
        if (!s || b.repetition < 0 || b.repetition >= s->reps.size())
            continue;
        if (s->names.isEmpty()) {
            s->names = b.names;
            s->mean.resize(s->names.size());
            s->std.resize(s->names.size());
        }
        Repetition &rep = s->reps[b.repetition];
        if (rep.iterations.isEmpty() && !b.iterations.isEmpty() && !s->counts.isEmpty())
            s->stale = true;
        rep.started = true;
        rep.iterations += b.iterations;
        rep.values += b.values;
        if (b.agents > 0) {
            if (s->agents == 0) {
                s->agents = b.agents;
                s->epsilonAgentMean.resize(b.agents);
            }
            if (b.agents == s->agents)
                rep.epsilonAgents += b.epsilonAgents;
        }
        if (b.alternatives > 0) {
            if (s->alternatives == 0) {
                s->alternatives = b.alternatives;
                s->alternativeNames = b.alternativeNames;
                s->epsilonAlternativeMean.resize(b.alternatives);
            }
            if (b.alternatives == s->alternatives)
                rep.epsilonAlternatives += b.epsilonAlternatives;
        }
        if (!b.iterations.isEmpty())
            mLatestIteration = std::max(mLatestIteration, b.iterations.back());
        if (s->state == RunState::Waiting) {
            s->state = RunState::Running;
            emit runStateChanged(b.point, b.run);
        }
        const QPair<int, int> key(b.point, b.run);
        if (!touched.contains(key))
            touched.push_back(key);
    }
    for (const auto &key : touched)
        aggregate(key.first, key.second);
}

void LiveResults::addEvents(const QVector<RunEvent> &events)
{
    QVector<QPair<int, int>> touched;
    for (const RunEvent &e : events) {
        Series *s = series(e.point, e.run);
        if (!s)
            continue;
        const RunState before = s->state;
        const qint64 beforeIteration = s->stateIteration;
        switch (e.kind) {
        case StatusEvent::Kind::Started:
            ++s->started;
            if (e.repetition >= 0 && e.repetition < s->reps.size())
                s->reps[e.repetition].started = true;
            if (s->state == RunState::Waiting)
                s->state = RunState::Running;
            break;
        case StatusEvent::Kind::Warning:
            if (!s->warnings.contains(e.message))
                s->warnings << e.message;
            break;
        case StatusEvent::Kind::Diverged:
            s->state = RunState::Diverged;
            s->stateIteration = s->stateIteration > 0 ? std::min(s->stateIteration, e.iteration) : e.iteration;
            if (e.repetition >= 0 && e.repetition < s->reps.size()) {
                s->reps[e.repetition].endKind = e.kind;
                s->reps[e.repetition].endIteration = e.iteration;
            }
            break;
        case StatusEvent::Kind::Cancelled:
            if (s->state != RunState::Diverged) {
                s->state = RunState::Cancelled;
                s->stateIteration = std::max(s->stateIteration, e.iteration);
            }
            break;
        case StatusEvent::Kind::Finished:
            ++s->ended;
            if (e.repetition >= 0 && e.repetition < s->reps.size())
                s->reps[e.repetition].ended = true;
            if (s->ended >= s->reps.size() && s->state == RunState::Running) {
                s->state = RunState::Finished;
                s->stateIteration = e.iteration;
            }
            break;
        case StatusEvent::Kind::Progress:
            break;
        }
        if (s->state != before || s->stateIteration != beforeIteration || e.kind == StatusEvent::Kind::Warning)
            emit runStateChanged(e.point, e.run);
        const QPair<int, int> key(e.point, e.run);
        if (e.kind == StatusEvent::Kind::Finished && !touched.contains(key))
            touched.push_back(key);
    }
    // A repetition that ended may unblock rows of the others.
    for (const auto &key : touched)
        aggregate(key.first, key.second);
}

void LiveResults::aggregate(int point, int run)
{
    Series *s = series(point, run);
    if (!s || s->names.isEmpty())
        return;
    const int m = s->names.size();
    const bool reset = s->stale;
    if (reset) {
        s->stale = false;
        s->iterations.clear();
        s->counts.clear();
        for (auto &v : s->mean)
            v.clear();
        for (auto &v : s->std)
            v.clear();
        for (auto &v : s->epsilonAgentMean)
            v.clear();
        for (auto &v : s->epsilonAlternativeMean)
            v.clear();
    }
    const int from = s->counts.size();
    int row = from;
    for (;; ++row) {
        bool ready = true;
        bool any = false;
        for (const Repetition &rep : std::as_const(s->reps)) {
            if (rep.iterations.size() > row)
                any = true;
            else if (rep.started && !rep.ended)
                ready = false;
        }
        if (!ready || !any)
            break;
        qint64 iteration = 0;
        for (const Repetition &rep : std::as_const(s->reps))
            if (rep.iterations.size() > row) {
                iteration = rep.iterations[row];
                break;
            }
        int count = 0;
        for (const Repetition &rep : std::as_const(s->reps))
            count += rep.iterations.size() > row ? 1 : 0;
        s->iterations.push_back(static_cast<double>(iteration));
        s->counts.push_back(count);
        std::vector<double> column;
        for (int k = 0; k < m; ++k) {
            column.clear();
            for (const Repetition &rep : std::as_const(s->reps))
                if (rep.iterations.size() > row)
                    column.push_back(rep.values[row * m + k]);
            const MeanStd stats = meanStd(column.data(), column.size());
            s->mean[k].push_back(stats.mean);
            s->std[k].push_back(stats.count > 1 ? stats.std : 0.0);
        }
        for (int i = 0; i < s->agents; ++i) {
            column.clear();
            for (const Repetition &rep : std::as_const(s->reps)) {
                const qsizetype at = qsizetype(row) * s->agents + i;
                if (rep.iterations.size() > row && rep.epsilonAgents.size() > at)
                    column.push_back(rep.epsilonAgents[at]);
            }
            s->epsilonAgentMean[i].push_back(meanStd(column.data(), column.size()).mean);
        }
        for (int a = 0; a < s->alternatives; ++a) {
            column.clear();
            for (const Repetition &rep : std::as_const(s->reps)) {
                const qsizetype at = qsizetype(row) * s->alternatives + a;
                if (rep.iterations.size() > row && rep.epsilonAlternatives.size() > at)
                    column.push_back(rep.epsilonAlternatives[at]);
            }
            s->epsilonAlternativeMean[a].push_back(meanStd(column.data(), column.size()).mean);
        }
    }
    if (reset)
        emit seriesReset(point, run);
    else if (row > from)
        emit rowsAppended(point, run, from);
}

int LiveResults::epsilonAgentCount(int point, int run) const
{
    const Series *s = series(point, run);
    return s ? s->agents : 0;
}

QVector<double> LiveResults::epsilonAgentMean(int point, int run, int agent) const
{
    const Series *s = series(point, run);
    if (!s || agent < 0 || agent >= s->agents)
        return {};
    return s->epsilonAgentMean[agent];
}

int LiveResults::epsilonAlternativeCount(int point, int run) const
{
    const Series *s = series(point, run);
    return s ? s->alternatives : 0;
}

QVector<double> LiveResults::epsilonAlternativeMean(int point, int run, int alternative) const
{
    const Series *s = series(point, run);
    if (!s || alternative < 0 || alternative >= s->alternatives)
        return {};
    return s->epsilonAlternativeMean[alternative];
}

QStringList LiveResults::epsilonAlternativeNames(int point, int run) const
{
    const Series *s = series(point, run);
    return s ? s->alternativeNames : QStringList();
}

QStringList LiveResults::metricNames(int point, int run) const
{
    const Series *s = series(point, run);
    return s ? s->names : QStringList();
}

QStringList LiveResults::allMetricNames(int point) const
{
    QStringList out;
    if (point < 0 || point >= mPoints.size())
        return out;
    for (const Series &s : mPoints[point])
        for (const QString &name : s.names)
            if (!out.contains(name))
                out << name;
    return out;
}

int LiveResults::rowCount(int point, int run) const
{
    const Series *s = series(point, run);
    return s ? s->counts.size() : 0;
}

const QVector<double> &LiveResults::iterations(int point, int run) const
{
    const Series *s = series(point, run);
    return s ? s->iterations : kEmptyDoubles;
}

QVector<double> LiveResults::mean(int point, int run, const QString &metric) const
{
    const Series *s = series(point, run);
    if (!s)
        return {};
    const int k = s->names.indexOf(metric);
    return k >= 0 ? s->mean[k] : QVector<double>();
}

QVector<double> LiveResults::std(int point, int run, const QString &metric) const
{
    const Series *s = series(point, run);
    if (!s)
        return {};
    const int k = s->names.indexOf(metric);
    return k >= 0 ? s->std[k] : QVector<double>();
}

const QVector<int> &LiveResults::counts(int point, int run) const
{
    const Series *s = series(point, run);
    return s ? s->counts : kEmptyInts;
}

LiveResults::RunState LiveResults::runState(int point, int run) const
{
    const Series *s = series(point, run);
    return s ? s->state : RunState::Waiting;
}

QString LiveResults::runStatusText(int point, int run) const
{
    const Series *s = series(point, run);
    if (!s)
        return QString();
    switch (s->state) {
    case RunState::Waiting:
        return tr("waiting");
    case RunState::Running:
        return tr("running");
    case RunState::Finished:
        return tr("ok");
    case RunState::Diverged:
        return tr("diverged at %1").arg(s->stateIteration);
    case RunState::Cancelled:
        return tr("cancelled at %1").arg(s->stateIteration);
    }
    return QString();
}

QStringList LiveResults::warnings(int point, int run) const
{
    const Series *s = series(point, run);
    return s ? s->warnings : QStringList();
}

double LiveResults::latestMax(const QString &metric) const
{
    double best = std::numeric_limits<double>::quiet_NaN();
    for (const auto &runs : mPoints)
        for (const Series &s : runs) {
            const int k = s.names.indexOf(metric);
            if (k < 0)
                continue;
            for (const Repetition &rep : s.reps) {
                if (rep.iterations.isEmpty())
                    continue;
                const double v = rep.values[(rep.iterations.size() - 1) * s.names.size() + k];
                if (!std::isnan(v) && (std::isnan(best) || v > best))
                    best = v;
            }
        }
    return best;
}

} // namespace dplab
