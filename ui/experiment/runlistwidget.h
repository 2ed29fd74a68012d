// SPDX-License-Identifier: GPL-3.0-or-later
//
// RunListWidget: the runs of the experiment in the experiment panel — one row per run with its
// colour, label (double-click renames) and status ("running", "diverged at 412", …), and Add,
// Duplicate, Remove and Colour buttons. It owns the current run.
//
// Threading: GUI thread.
#pragma once

#include <QGroupBox>
#include <QStringList>

class QToolButton;
class QTreeWidget;

namespace dplab {

class ExperimentDocument;

class RunListWidget : public QGroupBox
{
    Q_OBJECT

public:
    explicit RunListWidget(ExperimentDocument *document, QWidget *parent = nullptr);

    int currentRun() const { return mCurrentRun; }
    /** Selects a run (clamped to the runs there are); emits currentRunChanged when it changes. */
    void setCurrentRun(int run);
    /** Shows a status next to each run. */
    void setRunStatuses(const QStringList &statuses);
    /** Shows the document's runs (without writing back); keeps the current run in range. */
    void refresh();
    /** After a load: the first run is current, no statuses (call refresh() next). */
    void resetForNewDocument();
    QTreeWidget *tree() const { return mRuns; }

signals:
    void currentRunChanged(int run);

private:
    void onRunRenamed(int row, const QString &text);
    void chooseColour();

    ExperimentDocument *mDocument;
    int mCurrentRun = -1;
    bool mRefreshing = false;
    QStringList mStatuses;
    QTreeWidget *mRuns;
    QToolButton *mAddRun;
    QToolButton *mDuplicateRun;
    QToolButton *mRemoveRun;
    QToolButton *mColourRun;
};

} // namespace dplab
