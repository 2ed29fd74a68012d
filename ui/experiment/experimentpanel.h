// SPDX-License-Identifier: GPL-3.0-or-later
//
// ExperimentPanel: the side panel that edits an ExperimentDocument (docs/architecture.md §6). It stacks one
// widget per concern in a scroll area —
//   ExperimentSettingsWidget  name, seed, iterations, repetitions, recording
//   WeightsWidget             graph kind and weight schemes
//   ProblemWidget             objective and data
//   RunListWidget             the runs (add, duplicate, remove, rename, colour) and the current one
//   RunEditorWidget           the current run's algorithm, parameters, privacy, compressor, init
// — and validates the experiment (debounced), showing the verdict with the JSON path of the
// first error at the bottom. Every edit goes through the document (one undo step each); the
// widgets re-read the document after every change, so undo/redo and loads show at once.
//
// Threading: GUI thread.
#pragma once

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QScrollArea;
class QTimer;
class QTreeWidget;

namespace dplab {

class ExperimentDocument;
class ExperimentSettingsWidget;
class ParamForm;
class ProblemWidget;
class RunEditorWidget;
class RunListWidget;
class WeightsWidget;
struct Experiment;

class ExperimentPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ExperimentPanel(ExperimentDocument *document, QWidget *parent = nullptr);

    int currentRun() const;
    void setCurrentRun(int run);
    /** Shows a status next to each run in the list ("running", "diverged at 412", ...). */
    void setRunStatuses(const QStringList &statuses);
    QString validationMessage() const;
    /** Validates now (normally debounced). */
    void validateNow();

    ExperimentSettingsWidget *settingsWidget() const { return mSettings; }
    WeightsWidget *weightsWidget() const { return mWeights; }
    ProblemWidget *problemWidget() const { return mProblem; }
    RunListWidget *runListWidget() const { return mRunList; }
    RunEditorWidget *runEditor() const { return mRunEditor; }
    QScrollArea *scrollArea() const { return mScroll; }

    // For tests.
    QComboBox *algorithmBox() const;
    ParamForm *paramsForm() const;
    ParamForm *privacyForm() const;
    ParamForm *compressorForm() const;
    ParamForm *problemForm() const;
    QComboBox *problemBox() const;
    QComboBox *compressorBox() const;
    QTreeWidget *runList() const;
    /** The theorem-condition warnings shown for the selected run. */
    QString warningText() const;

signals:
    void currentRunChanged(int run);
    /** After each validation: ok, and the error text when not ok. */
    void validated(bool ok, const QString &message);

private:
    void refresh();

    ExperimentDocument *mDocument;
    QScrollArea *mScroll;
    ExperimentSettingsWidget *mSettings;
    WeightsWidget *mWeights;
    ProblemWidget *mProblem;
    RunListWidget *mRunList;
    RunEditorWidget *mRunEditor;
    QLabel *mValidation;
    QTimer *mValidationTimer;
};

} // namespace dplab
