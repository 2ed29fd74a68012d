// SPDX-License-Identifier: GPL-3.0-or-later
#include "runhistory.h"

#include "experimentdocument.h"
#include "textconvert.h"

#include "dplab/engine/runidentity.h"
#include "dplab/engine/sweepgrid.h"
#include "dplab/engine/writers.h"

#include <QUndoStack>

#include <cmath>
#include <optional>
#include <limits>

namespace dplab {

namespace {

QString leafText(const Json &value)
{
    if (value.is_null())
        return QStringLiteral("—");
    if (value.is_string())
        return toQString(value.get<std::string>());
    if (value.is_number_float())
        return QString::number(value.get<double>(), 'g', 6);
    return toQString(value.dump());
}

void collectDifferences(const Json &from, const Json &to, const std::string &path, QStringList &out)
{
    if (from == to)
        return;
    if (from.is_object() && to.is_object()) {
        for (auto it = from.begin(); it != from.end(); ++it)
            collectDifferences(it.value(), to.contains(it.key()) ? to.at(it.key()) : Json(),
                               path.empty() ? it.key() : path + "." + it.key(), out);
        for (auto it = to.begin(); it != to.end(); ++it)
            if (!from.contains(it.key()))
                collectDifferences(Json(), it.value(), path.empty() ? it.key() : path + "." + it.key(), out);
        return;
    }
    if (from.is_array() && to.is_array() && from.size() == to.size()) {
        for (std::size_t i = 0; i < from.size(); ++i)
            collectDifferences(from[i], to[i], path + "[" + std::to_string(i) + "]", out);
        return;
    }
    // A run specification nests the run's own keys under "run": name them as in the run.
    const std::string shown = path.rfind("run.", 0) == 0 ? path.substr(4) : path;
    out << QStringLiteral("%1 %2 → %3").arg(toQString(shown), leafText(from), leafText(to));
}

} // namespace

QString describeDifference(const Json &from, const Json &to, int maxItems)
{
    QStringList all;
    collectDifferences(from, to, std::string(), all);
    if (all.size() > maxItems) {
        all = all.mid(0, maxItems);
        all << QStringLiteral("…");
    }
    return all.join(QStringLiteral(", "));
}

RunHistory::RunHistory(int keep, QObject *parent)
    : QObject(parent)
    , mKeep(keep)
{
}

void RunHistory::addResult(const Json &document, std::shared_ptr<const Experiment> experiment,
                           std::shared_ptr<const ExperimentResult> result, const RunKeys *keys)
{
    if (!experiment || !result)
        return;
    // The run's own keys when it computed them for every (point, run) of this result.
    bool given = keys && keys->size() == result->points.size();
    for (std::size_t p = 0; given && p < result->points.size(); ++p)
        given = (*keys)[p].size() == experiment->runs.size();
    bool added = false;
    for (int p = 0; p < static_cast<int>(result->points.size()); ++p) {
        const PointResult &point = result->points[static_cast<std::size_t>(p)];
        // Without them a sweep point is resolved once for the keys of all its runs (it was twice
        // per run: at the end of a sweep, on the GUI thread; docs/benchmarks.md).
        std::optional<Result<Experiment>> resolved;
        for (int r = 0; r < static_cast<int>(point.runs.size()); ++r) {
            const RunResult &run = point.runs[static_cast<std::size_t>(r)];
            bool ran = false;
            for (const RepetitionResult &rep : run.repetitions)
                ran = ran || (!rep.skipped && !rep.iterations.empty());
            bool cancelled = false;
            for (const RepetitionResult &rep : run.repetitions)
                cancelled = cancelled || rep.status == RunStatus::Cancelled;
            if (!ran || cancelled || r >= static_cast<int>(experiment->runs.size()))
                continue;
            RunKey key;
            if (given) {
                key = (*keys)[static_cast<std::size_t>(p)][static_cast<std::size_t>(r)];
            } else {
                if (experiment->sweep && !resolved)
                    resolved = sweepPointForKeys(*experiment, p);
                if (resolved && !*resolved)
                    continue;
                const Experiment &keyed = resolved ? **resolved : *experiment;
                if (r >= static_cast<int>(keyed.runs.size()))
                    continue;
                key = runKey(keyed, r);
            }
            if (const HistoryEntry *now = current(p, r); now && now->identity == key.identity)
                continue;
            HistoryEntry entry;
            entry.id = mNextId++;
            entry.point = p;
            entry.run = r;
            entry.label = toQString(run.label);
            entry.identity = std::move(key.identity);
            entry.document = document;
            entry.specification = std::move(key.specification);
            entry.experiment = experiment;
            entry.result = result;
            mEntries.push_back(std::move(entry));
            trim(p, r);
            added = true;
        }
    }
    if (added) {
        relabel();
        emit changed();
    }
}

void RunHistory::clear()
{
    mEntries.clear();
    emit changed();
}

const HistoryEntry *RunHistory::entry(int id) const
{
    for (const HistoryEntry &e : mEntries)
        if (e.id == id)
            return &e;
    return nullptr;
}

const HistoryEntry *RunHistory::current(int point, int run) const
{
    for (auto it = mEntries.crbegin(); it != mEntries.crend(); ++it)
        if (it->point == point && it->run == run)
            return &*it;
    return nullptr;
}

QVector<const HistoryEntry *> RunHistory::ghosts(int point, int run) const
{
    QVector<const HistoryEntry *> out;
    const HistoryEntry *now = current(point, run);
    for (auto it = mEntries.crbegin(); it != mEntries.crend(); ++it)
        if (&*it != now && it->point == point && it->run == run && !it->hidden)
            out << &*it;
    return out;
}

void RunHistory::setPinned(int id, bool pinned)
{
    for (HistoryEntry &e : mEntries)
        if (e.id == id && e.pinned != pinned) {
            e.pinned = pinned;
            if (!pinned)
                trim(e.point, e.run);
            emit changed();
            return;
        }
}

void RunHistory::setHidden(int id, bool hidden)
{
    for (HistoryEntry &e : mEntries)
        if (e.id == id && e.hidden != hidden) {
            e.hidden = hidden;
            emit changed();
            return;
        }
}

bool RunHistory::restore(int id, ExperimentDocument *document, QString *error) const
{
    const HistoryEntry *e = entry(id);
    if (!e || !document) {
        if (error)
            *error = tr("no such result in the history");
        return false;
    }
    const Json runs = e->document.value("runs", Json::array());
    if (e->run >= document->runCount() || e->run >= static_cast<int>(runs.size())) {
        if (error)
            *error = tr("runs[%1]: the run no longer exists").arg(e->run);
        return false;
    }
    QUndoStack *stack = document->undoStack();
    stack->beginMacro(tr("Restore %1 (%2)").arg(e->label, e->difference.isEmpty() ? tr("as run") : e->difference));
    const std::string runPointer = "/runs/" + std::to_string(e->run);
    document->setValue(runPointer, runs[static_cast<std::size_t>(e->run)], tr("Restore run"));
    const Json now = document->toJson();
    for (auto it = e->document.begin(); it != e->document.end(); ++it) {
        if (it.key() == "runs" || it.key() == "graph" || it.key() == "name")
            continue;
        if (!now.contains(it.key()) || now.at(it.key()) != it.value())
            document->setValue("/" + it.key(), it.value(), tr("Restore %1").arg(toQString(it.key())));
    }
    for (auto it = now.begin(); it != now.end(); ++it)
        if (it.key() != "graph" && it.key() != "name" && !e->document.contains(it.key()))
            document->setValue("/" + it.key(), Json(), tr("Restore %1").arg(toQString(it.key())));
    stack->endMacro();
    return true;
}

bool RunHistory::save(int id, const QString &dir, QString *error) const
{
    const HistoryEntry *e = entry(id);
    if (!e) {
        if (error)
            *error = tr("no such result in the history");
        return false;
    }
    if (auto s = writeRunOutputs(toStdString(dir), *e->experiment, *e->result, false); !s) {
        if (error)
            *error = toQString(s.error().toString());
        return false;
    }
    return true;
}

QVector<double> RunHistory::mean(const HistoryEntry &entry, const QString &metric, QVector<double> *iterations)
{
    QVector<double> out;
    if (iterations)
        iterations->clear();
    const RunResult &run = entry.result->points[static_cast<std::size_t>(entry.point)]
                               .runs[static_cast<std::size_t>(entry.run)];
    int m = -1;
    for (std::size_t i = 0; i < run.metricNames.size(); ++i)
        if (toQString(run.metricNames[i]) == metric)
            m = static_cast<int>(i);
    if (m < 0)
        return out;
    std::size_t rows = 0;
    const RepetitionResult *longest = nullptr;
    for (const RepetitionResult &rep : run.repetitions)
        if (!rep.skipped && rep.iterations.size() > rows) {
            rows = rep.iterations.size();
            longest = &rep;
        }
    for (std::size_t k = 0; k < rows; ++k) {
        double sum = 0.0;
        int count = 0;
        for (const RepetitionResult &rep : run.repetitions) {
            if (rep.skipped || k >= rep.values.size())
                continue;
            const double v = rep.values[k][static_cast<std::size_t>(m)];
            if (std::isnan(v))
                continue;
            sum += v;
            ++count;
        }
        out << (count > 0 ? sum / count : std::numeric_limits<double>::quiet_NaN());
        if (iterations)
            *iterations << static_cast<double>(longest->iterations[k]);
    }
    return out;
}

void RunHistory::relabel()
{
    for (HistoryEntry &e : mEntries) {
        const HistoryEntry *now = current(e.point, e.run);
        e.difference = (now == &e) ? QString() : describeDifference(e.specification, now->specification);
        if (now != &e && e.difference.isEmpty())
            e.difference = tr("same configuration");
    }
}

void RunHistory::trim(int point, int run)
{
    int unpinned = 0;
    for (const HistoryEntry &e : mEntries)
        if (e.point == point && e.run == run && !e.pinned)
            ++unpinned;
    for (int i = 0; i < mEntries.size() && unpinned > mKeep;) {
        const HistoryEntry &e = mEntries[i];
        if (e.point == point && e.run == run && !e.pinned) {
            mEntries.removeAt(i);
            --unpinned;
        } else {
            ++i;
        }
    }
}

} // namespace dplab
