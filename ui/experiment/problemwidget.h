// SPDX-License-Identifier: GPL-3.0-or-later
//
// ProblemWidget: the objective and its data in the experiment panel. The top-level parameters
// of the problem's descriptor are one form; nested ones ("data.name", "data.path", …) are one
// collapsible form per group, so a bundled data set does not show every loader option at once.
// Below, what the file sets that no form covers and the facts of the last validated problem.
//
// Threading: GUI thread.
#pragma once

#include <QGroupBox>
#include <QVector>

#include <memory>

class QComboBox;
class QLabel;
class QToolButton;

namespace dplab {

class ExperimentDocument;
class ParamForm;
struct Experiment;

class ProblemWidget : public QGroupBox
{
    Q_OBJECT

public:
    explicit ProblemWidget(ExperimentDocument *document, QWidget *parent = nullptr);

    /** Shows the document's problem (without writing back). */
    void refresh();
    /** The last experiment that validated (its problem's facts are shown), or null. */
    void setValidated(std::shared_ptr<const Experiment> experiment);

    QComboBox *typeBox() const { return mType; }
    ParamForm *form() const { return mParams; }

private:
    void rebuildForms(const QString &type);

    ExperimentDocument *mDocument;
    std::shared_ptr<const Experiment> mValidated;
    QComboBox *mType;
    ParamForm *mParams; ///< top-level problem parameters
    struct Group {
        QString prefix;      ///< "data", "random", ...
        QToolButton *toggle; ///< shows / hides the group's form
        ParamForm *form;     ///< the nested parameters ("data.name", ...)
    };
    QVector<Group> mGroups;
    QWidget *mGroupBox;
    QLabel *mNote;
    QString mFormType; ///< problem type the forms are built for
};

} // namespace dplab
