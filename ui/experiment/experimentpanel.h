// SPDX-License-Identifier: GPL-3.0-or-later
//
// ExperimentPanel: the side panel that edits an ExperimentDocument (DESIGN §6, issue 7 item 3):
// experiment settings (name, seed, iterations, repetitions, recording), the graph kind and
// weight schemes, the problem summary, the list of runs (add, duplicate, remove, rename,
// colour) and, for the selected run, its algorithm (those invalid for the graph disabled with
// the reason), parameter and privacy forms generated from the descriptor, compressor and
// initial point. Every change goes through the document (one undo step each); the panel
// re-reads the document after every change, so undo/redo and file loads show at once.
// Validation by core (debounced) is shown at the bottom with the JSON path of the first error.
//
// Threading: GUI thread.
#pragma once

#include "dplab/engine/experiment.h"

#include <QVector>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTreeWidget;
class QPushButton;
class QToolButton;
class QSpinBox;
class QTimer;
class QGroupBox;
class QDoubleSpinBox;

namespace dplab {

class ExperimentDocument;
class ParamForm;

class ExperimentPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ExperimentPanel(ExperimentDocument *document, QWidget *parent = nullptr);

    int currentRun() const { return mCurrentRun; }
    void setCurrentRun(int run);
    /** Shows a status next to each run in the list ("running", "diverged at 412", ...). */
    void setRunStatuses(const QStringList &statuses);

    // For tests.
    QComboBox *algorithmBox() const { return mAlgorithm; }
    ParamForm *paramsForm() const { return mParams; }
    ParamForm *privacyForm() const { return mPrivacy; }
    ParamForm *compressorForm() const { return mCompressorParams; }
    ParamForm *problemForm() const { return mProblemParams; }
    QComboBox *problemBox() const { return mProblemType; }
    /** The theorem-condition warnings shown for the selected run. */
    QString warningText() const;
    QComboBox *compressorBox() const { return mCompressor; }
    QTreeWidget *runList() const { return mRuns; }
    QString validationMessage() const;
    /** Validates now (normally debounced). */
    void validateNow();

signals:
    void currentRunChanged(int run);
    /** After each validation: ok, and the error text when not ok. */
    void validated(bool ok, const QString &message);

private:
    void buildUi();
    void refresh();
    void refreshExperiment();
    void refreshGraph();
    void refreshProblem();
    void updateWarnings();
    void refreshRunList();
    void refreshRunEditor();
    void scheduleValidation();
    QString runPointer(const char *suffix = "") const;
    void onRunRenamed(int row, const QString &text);
    void chooseColour();
    void writeWeights();
    void fillSchemeBox(QComboBox *box);

    ExperimentDocument *mDocument;
    int mCurrentRun = -1;
    bool mRefreshing = false;
    QString mFormAlgorithm;  ///< algorithm the param forms are built for
    QString mFormCompressor; ///< compressor type the compressor form is built for
    QString mRowSchemeForm, mColumnSchemeForm;
    QStringList mStatuses;
    std::shared_ptr<const Problem> mValidatedProblem; ///< of the last successful validation
    QTimer *mValidationTimer;

    // experiment
    QLineEdit *mName;
    QLineEdit *mSeed;
    QSpinBox *mIterations;
    QSpinBox *mRepetitions;
    QSpinBox *mRecordEvery;
    // graph
    QCheckBox *mDirected;
    QLabel *mRowSchemeLabel;
    QComboBox *mRowScheme;
    ParamForm *mRowSchemeParams;
    QLabel *mColumnSchemeLabel;
    QComboBox *mColumnScheme;
    ParamForm *mColumnSchemeParams;
    QComboBox *mProblemType;
    ParamForm *mProblemParams; ///< top-level problem parameters
    struct ProblemGroup {
        QString prefix;       ///< "data", "random", ...
        QToolButton *toggle;  ///< shows / hides the group's form
        ParamForm *form;      ///< the nested parameters ("data.name", ...)
    };
    QVector<ProblemGroup> mProblemGroups;
    QWidget *mProblemGroupBox;
    QLabel *mProblem;
    QString mProblemForm; ///< problem type the problem form is built for
    // runs
    QTreeWidget *mRuns;
    QToolButton *mAddRun;
    QToolButton *mDuplicateRun;
    QToolButton *mRemoveRun;
    QToolButton *mColourRun;
    // selected run
    QGroupBox *mRunBox;
    QComboBox *mAlgorithm;
    QLabel *mAlgorithmInfo;
    ParamForm *mParams;
    QGroupBox *mPrivacyBox;
    ParamForm *mPrivacy;
    QComboBox *mCompressor;
    ParamForm *mCompressorParams;
    QComboBox *mInit;
    QDoubleSpinBox *mInitScale;
    QLabel *mWarnings;
    QLabel *mValidation;
    std::shared_ptr<const Experiment> mValidated; ///< the last experiment that validated
};

} // namespace dplab
