// SPDX-License-Identifier: GPL-3.0-or-later
//
// RunHistory: every finished result of a run while the window is open (docs/architecture.md §2,
// run identity). An entry is one (sweep point, run) of a finished experiment result, keyed by the
// run identity of its resolved specification, with the experiment document it was run from. The
// newest entry of a (point, run) is the current one; the older ones are its ghosts, which the live
// plots draw faintly behind the current curves, each labelled by what differed between its resolved
// run specification and the current one ("params.stepsize 0.2 → 0.1"). At least `keep` unpinned
// entries per (point, run) are kept; pinned ones are never dropped. An entry can be pinned, hidden,
// restored into the experiment document (one undoable edit) and saved as a results folder (the
// core writers: what File ▸ Open Results reads).
//
// Threading: GUI thread.
#pragma once

#include "dplab/engine/experiment.h"
#include "dplab/engine/runner.h"
#include "rerunplan.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>
#include <string>

namespace dplab {

class ExperimentDocument;

struct HistoryEntry {
    int id = 0;
    int point = 0;
    int run = 0;
    QString label;          ///< the run's label when it ran
    std::string identity;   ///< runIdentityAt(experiment, point, run, -1)
    Json document;          ///< the experiment document it was run from
    Json specification;     ///< the run's resolved specification at its point
    std::shared_ptr<const Experiment> experiment;
    std::shared_ptr<const ExperimentResult> result;
    bool pinned = false;
    bool hidden = false;
    QString difference;     ///< what differed from the current entry ("" for the current one)
};

/** The leaves that differ between two JSON values, as "path a → b" joined by ", " (at most
 *  `maxItems`, then "…"); keys only in one side show as "path — → b" / "path a → —". */
QString describeDifference(const Json &from, const Json &to, int maxItems = 3);

class RunHistory : public QObject
{
    Q_OBJECT

public:
    explicit RunHistory(int keep = 10, QObject *parent = nullptr);

    /** Adds every (point, run) of a finished result whose identity differs from the current entry
     *  of that (point, run); a result with the current identity replaces nothing. Runs with no
     *  repetition run (skipped) and cancelled runs are not added. `keys`: the key of every
     *  (point, run) as the run computed it (RunController::lastResultKeys); null, or not one per
     *  (point, run), and each point is resolved here for its keys (the same keys). */
    void addResult(const Json &document, std::shared_ptr<const Experiment> experiment,
                   std::shared_ptr<const ExperimentResult> result, const RunKeys *keys = nullptr);
    void clear();

    const QVector<HistoryEntry> &entries() const { return mEntries; }
    const HistoryEntry *entry(int id) const;
    /** The newest entry of (point, run), null when none. */
    const HistoryEntry *current(int point, int run) const;
    /** Older entries of (point, run) that are not hidden, newest first. */
    QVector<const HistoryEntry *> ghosts(int point, int run) const;

    void setPinned(int id, bool pinned);
    void setHidden(int id, bool hidden);
    /** Sets the document back to the entry's configuration as ONE undo step: the run's object and
     *  every other top-level key that differs (the graph and the name excepted). False with a
     *  message when the run no longer exists. */
    bool restore(int id, ExperimentDocument *document, QString *error) const;
    /** Writes the result the entry came from as a results folder (writeRunOutputs) to `dir`. */
    bool save(int id, const QString &dir, QString *error) const;

    /** Mean over the repetitions that recorded it of `metric` of an entry, with the recorded
     *  iterations (empty when the run lacks the metric). */
    static QVector<double> mean(const HistoryEntry &entry, const QString &metric, QVector<double> *iterations);

signals:
    void changed();

private:
    void relabel();
    void trim(int point, int run);

    QVector<HistoryEntry> mEntries; ///< oldest first
    int mKeep;
    int mNextId = 1;
};

} // namespace dplab
