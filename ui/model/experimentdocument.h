// SPDX-License-Identifier: GPL-3.0-or-later
//
// ExperimentDocument: the experiment file being edited (docs/architecture.md §4). It holds the experiment
// JSON (everything but the graph topology) and a GraphDocument for the graph, owns the undo
// stack both push onto, and knows its file name and modified state (the stack's clean state).
//
// Values are addressed by JSON pointers ("/runs/0/params/stepsize"); every change goes through
// setValue(), which pushes a SetJsonValueCommand, so experiment-panel edits undo like graph edits.
// Core validates: validate() parses toJson() exactly as the CLI would.
//
// Threading: GUI thread only.
#pragma once

#include "dplab/common/params.h"
#include "dplab/engine/experiment.h"

#include <QColor>
#include <QObject>
#include <QString>

class QUndoStack;

namespace dplab {

class GraphDocument;

class ExperimentDocument : public QObject
{
    Q_OBJECT

public:
    explicit ExperimentDocument(QObject *parent = nullptr);
    ~ExperimentDocument() override;

    /** Opens an experiment file. A file that parses as JSON but does not validate (say, a
     *  disconnected graph) still opens when its graph can be built, so it can be repaired; then
     *  `warning` receives the validation error. Returns false (document unchanged) with `error`
     *  set when the file cannot be opened at all. */
    bool loadFile(const QString &path, QString *error, QString *warning = nullptr);
    /** Opens a JSON document (a compiled-in preset or a template). `fileName` may be empty
     *  (untitled); `baseDir` resolves relative data paths. Same contract as loadFile. */
    bool loadJson(const Json &document, const QString &baseDir, const QString &fileName, QString *error,
                  QString *warning = nullptr);
    /** Writes toJson() atomically to `path`, which becomes the file name; marks clean. */
    bool save(const QString &path, QString *error);

    /** The file this document was opened from / saved to; empty when untitled. */
    QString fileName() const { return mFileName; }
    /** The folder relative data paths are resolved against. */
    QString baseDir() const { return mBaseDir; }
    /** File name without folder, or the experiment name for an untitled document. */
    QString displayName() const;
    bool isModified() const;
    QUndoStack *undoStack() const { return mUndoStack; }
    GraphDocument *graphDocument() const { return mGraph; }

    /** The whole experiment document as it would be saved. */
    Json toJson() const;
    /** Parses and validates toJson() with core (what Run uses): resolved and built, its memory
     *  estimate checked against `memoryLimit` bytes (0: the default limit). */
    Result<Experiment> validate(std::uint64_t memoryLimit = 0) const;
    /** Resolves toJson() without building (no data loaded): every run, every sweep point, the
     *  data files' headers and the resource estimate against the default limits. */
    Result<Experiment> resolve() const;

    /** The value at a JSON pointer, or null when absent. */
    Json value(const std::string &pointer) const;
    /** Pushes an undo command setting the value at `pointer` (null removes the key). No-op
     *  when the value is unchanged. Consecutive edits of one pointer merge into one step. */
    void setValue(const std::string &pointer, const Json &value, const QString &text);
    /** Primitive for the undo command: sets (or with null removes) and emits valueChanged. */
    void applyValue(const std::string &pointer, const Json &value);

    // --- Runs ---------------------------------------------------------------------------------

    int runCount() const;
    Json run(int index) const;
    /** Adds a run using the first algorithm valid for the graph kind; returns its index. */
    int addRun();
    int duplicateRun(int index);
    void removeRun(int index);
    /** Renames a run; returns false with a reason when the label is empty, has a comma, a
     *  quote or a newline, or is used by another run. */
    bool renameRun(int index, const QString &label, QString *error = nullptr);
    /** Changes a run's algorithm; keeps parameter values the new descriptor also has. */
    void setRunAlgorithm(int index, const std::string &algorithmId);
    /** The run's colour: its "color" key, else the default palette colour of its index. */
    QColor runColor(int index) const;
    static QColor defaultRunColor(int index);

    /** The weight specification the run mixes with: its own "weights", else the graph's,
     *  else the default for its algorithm and the graph kind (as core's parser does). */
    Json runWeights(int index) const;
    /** `weights` as a run resolves it: a bare ring4-family scheme takes the generator's
     *  targets (inheritRing4Parameters); anything else unchanged. */
    Json withGeneratorTargets(const Json &weights) const;

signals:
    /** An experiment value changed (not the graph); `pointer` is where. "/runs" means the
     *  list of runs itself changed. Empty after a load. */
    void valueChanged(const QString &pointer);
    /** After loadFile / loadJson: everything changed. */
    void loaded();
    void fileNameChanged(const QString &fileName);
    void modifiedChanged(bool modified);
    /** After every change of values or graph. */
    void changed();

private:
    QString uniqueLabel(const QString &base) const;

    QUndoStack *mUndoStack;
    GraphDocument *mGraph;
    Json mDocument; ///< the experiment minus the graph topology ("graph" keeps only "weights")
    QString mFileName;
    QString mBaseDir;
};

} // namespace dplab
