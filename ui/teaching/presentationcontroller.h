// SPDX-License-Identifier: GPL-3.0-or-later
//
// PresentationController: presentation mode for a lecture. It reads the experiment file's
// "presentation" object (hidden panels, hidden and locked parameters, lesson notes) and, while
// presentation mode is on, hides the registered panels, hides or disables the parameter editors
// whose JSON path is listed (ParamForms carry their path prefix in the "dplabJsonPath" property,
// e.g. "runs[0].params"), and shows the notes. Changes made in the settings dialog are written
// back into the document (undoable), so they are saved with the experiment.
//
// Threading: GUI thread.
#pragma once

#include "dplab/engine/presentation.h"

#include <QHash>
#include <QObject>
#include <QPointer>

class QWidget;

namespace dplab {

class ExperimentDocument;
class TeachingPanel;

class PresentationController : public QObject
{
    Q_OBJECT

public:
    explicit PresentationController(QObject *parent = nullptr);

    void setDocument(ExperimentDocument *document);
    void setTeachingPanel(TeachingPanel *panel);
    /** A window-level panel (dock) under a presentation id ("graph", "plots", ...). */
    void registerPanel(const QString &id, QWidget *widget);
    /** Where parameter forms live (searched for ParamForm children). */
    void setFormRoot(QWidget *root);

    bool isActive() const { return mActive; }
    /** The document's presentation settings (defaults when it has none or they are invalid). */
    Presentation presentation() const;
    /** Writes `presentation` into the document (one undo step) and re-applies it. */
    void setPresentation(const Presentation &presentation);
    /** Opens the settings dialog on `parent`; returns whether the user saved. */
    bool editSettings(QWidget *parent);

public slots:
    void setActive(bool active);
    /** Re-applies the settings (after the document or the forms changed). */
    void apply();

signals:
    void activeChanged(bool active);

private:
    void applyForms(const Presentation &p, bool active);

    QPointer<ExperimentDocument> mDocument;
    QPointer<TeachingPanel> mTeaching;
    QPointer<QWidget> mFormRoot;
    QHash<QString, QPointer<QWidget>> mPanels;
    QHash<QString, bool> mWasVisible;
    bool mActive = false;
    bool mApplyQueued = false;
};

} // namespace dplab
