// SPDX-License-Identifier: GPL-3.0-or-later
//
// ParamForm: a form generated from a descriptor's ParamSpecs (docs/architecture.md §2) — no algorithm,
// compressor or generator is named in the UI. Each spec becomes one row:
//   Real     → ScientificSpinBox (log-scale stepping when the spec says so); an optional Real
//              (no default, e.g. a target ε) → a check box ("calibrate to ε") and the spin box:
//              unticked, the key is not written (valueEdited with null removes it)
//   Integer  → QSpinBox
//   Bool     → QCheckBox
//   Choice   → QComboBox
//   Schedule → ScheduleEditor (constant / polynomial / geometric)
//   Text     → QLineEdit
// and a per-agent parameter given as a list → a QLineEdit of comma-separated values.
// Labels carry the unit; tooltips carry the help text, the range and the theorem condition.
// A value outside the spec (a step of −0.1 or 0) is kept as typed, never reverted: the editor is
// marked and the validator's message appears right under it; the value still goes to the
// document, whose validation then refuses Run with the same message.
//
// Threading: GUI thread.
#pragma once

#include "dplab/common/params.h"

#include <QHash>
#include <QWidget>

#include <vector>

class QFormLayout;
class QLabel;

namespace dplab {

class ParamForm : public QWidget
{
    Q_OBJECT

public:
    explicit ParamForm(QWidget *parent = nullptr);

    /** Rebuilds the form for `specs` showing their defaults. */
    void setSpecs(const std::vector<ParamSpec> &specs);
    const std::vector<ParamSpec> &specs() const { return mSpecs; }
    /** Shows `values` (an object; missing keys show the default) without emitting. */
    void setValues(const Json &values);
    /** The values of every row, as JSON ready for the experiment file. */
    Json values() const;
    /** The editor widget of one key (tests, focus). */
    QWidget *editor(const QString &key) const { return mEditors.value(key, nullptr); }
    /** The message shown under the editor of `key` ("" when its value is valid). */
    QString problem(const QString &key) const;
    /** The tooltip text generated for a spec. */
    static QString toolTipFor(const ParamSpec &spec);
    bool isEmpty() const { return mSpecs.empty(); }

signals:
    /** The user changed one value. */
    void valueEdited(const QString &key, const dplab::Json &value);

private:
    QWidget *createEditor(const ParamSpec &spec, const Json &value);
    Json editorValue(const ParamSpec &spec, QWidget *editor) const;
    void setEditorValue(const ParamSpec &spec, QWidget *editor, const Json &value);
    void rebuild(const Json &values);
    /** Marks the editor of `spec` and shows the message when `value` does not fit the spec. */
    void check(const ParamSpec &spec, const Json &value);

    std::vector<ParamSpec> mSpecs;
    QHash<QString, QWidget *> mEditors;
    QHash<QString, QLabel *> mProblems;
    QFormLayout *mLayout;
    bool mUpdating = false;
};

} // namespace dplab
