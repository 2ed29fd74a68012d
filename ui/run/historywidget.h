// SPDX-License-Identifier: GPL-3.0-or-later
//
// HistoryWidget: the run history (RunHistory) as a list — one row per kept result with its run,
// what differed from the current result and whether it is pinned or hidden — and the buttons
// that act on the selected row: Pin, Hide, Restore (sets the document back to that configuration,
// one undo step) and Save… (a results folder, which File ▸ Open Results reads).
//
// Threading: GUI thread.
#pragma once

#include <QWidget>

class QPushButton;
class QTreeWidget;

namespace dplab {

class ExperimentDocument;
class RunHistory;

class HistoryWidget : public QWidget
{
    Q_OBJECT

public:
    HistoryWidget(RunHistory *history, ExperimentDocument *document, QWidget *parent = nullptr);

    /** The list (tests). */
    QTreeWidget *list() const { return mList; }
    /** The id of the selected entry, 0 when none. */
    int selectedId() const;
    /** Acts on the selected entry (also the buttons' slots; tests call them). */
    void togglePinned();
    void toggleHidden();
    bool restoreSelected();
    /** Saves the selected entry to `dir` (Save… asks for it). */
    bool saveSelected(const QString &dir, QString *error);

private:
    void refill();
    void updateButtons();

    RunHistory *mHistory;
    ExperimentDocument *mDocument;
    QTreeWidget *mList;
    QPushButton *mPin;
    QPushButton *mHide;
    QPushButton *mRestore;
    QPushButton *mSave;
};

} // namespace dplab
