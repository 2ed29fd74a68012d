// SPDX-License-Identifier: GPL-3.0-or-later
//
// SweepEditor (Run ▸ Sweep…): the experiment's sweep without editing JSON. The parameter comes
// from the runs' descriptors (label, unit, range); its values are a list ("0.01, 0.1, 1") or a
// linear or logarithmic range (from, to, count). A second parameter makes a grid (every pair of
// values: dplab/engine/sweepgrid.h), which the Sweep view shows as a heatmap. Set writes the
// experiment's "sweep" as ONE undoable edit after core has resolved the experiment with it (an
// invalid value is reported naming the field, and nothing is written); Remove takes it out.
//
// Threading: GUI thread.
#pragma once

#include "dplab/common/params.h"
#include "dplab/common/result.h"

#include <QDialog>
#include <QVector>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace dplab {

class ExperimentDocument;
struct ParameterChoice;

class SweepEditor : public QDialog
{
    Q_OBJECT

public:
    explicit SweepEditor(ExperimentDocument *document, QWidget *parent = nullptr);
    ~SweepEditor() override;

    /** Re-reads the parameters and the current sweep from the document. */
    void refresh();

    /** One axis of the sweep: a parameter and its values. */
    struct Axis {
        QString path;               ///< "runs[*].params.stepsize"
        QString list;               ///< values as text ("0.01, 0.1, 1"), used when not a range
        bool range = false;         ///< from, to, count instead of the list
        double from = 0, to = 0;
        int count = 5;
        bool log = false;
    };
    /** Fills the form (axis 0, or 1 for a grid's second parameter; `enabled` false: no grid).
     *  False when the runs have no such parameter. */
    bool setAxis(int index, const Axis &axis, bool enabled = true);
    /** The values an axis gives, checked against its parameter's range; errors name the field. */
    Result<std::vector<Json>> axisValues(int index) const;
    /** The "sweep" object the form gives; errors name the field. */
    Result<Json> sweepJson() const;
    /** Writes the sweep into the document as one undo step (after core resolved the experiment
     *  with it); false with error(). */
    bool apply();
    /** Removes the sweep (one undo step); false when there is none. */
    bool removeSweep();
    QString error() const { return mError; }

private:
    struct AxisForm {
        QGroupBox *box = nullptr;
        QComboBox *parameter = nullptr;
        QLabel *info = nullptr;
        QRadioButton *asList = nullptr, *asRange = nullptr;
        QLineEdit *list = nullptr, *from = nullptr, *to = nullptr;
        QSpinBox *count = nullptr;
        QCheckBox *log = nullptr;
    };
    AxisForm buildAxis(const QString &title);
    void onParameterChosen(int index);
    const ParameterChoice *chosen(int index) const;

    ExperimentDocument *mDocument;
    QVector<ParameterChoice> *mChoices;
    AxisForm mAxes[2];
    QCheckBox *mGrid = nullptr;
    QLabel *mStatus = nullptr;
    QString mError;
};

} // namespace dplab
