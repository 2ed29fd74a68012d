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
//
// Threading: GUI thread.
#pragma once

#include "dplab/common/params.h"

#include <QHash>
#include <QWidget>

#include <vector>

class QFormLayout;

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

    std::vector<ParamSpec> mSpecs;
    QHash<QString, QWidget *> mEditors;
    QFormLayout *mLayout;
    bool mUpdating = false;
};

} // namespace dplab
