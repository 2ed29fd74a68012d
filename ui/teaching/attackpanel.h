// SPDX-License-Identifier: GPL-3.0-or-later
//
// AttackPanel: the eavesdropper demo. It plots attack_error (the relative error of what an
// observer of one agent's links reconstructs: its data point for a one-sample linear or logistic
// model, else its gradients) over the iterations for every run of the recording, and shows the
// final reconstruction next to the truth. For an experiment without an "eavesdropper" it runs
// the comparison demo: each attackable run with its noise and with its noise set to 0, same seed
// (core/teaching/attackdemo.h). The help text gives the equations.
//
// Threading: GUI thread; the demo records on a TeachingSession's thread.
#pragma once

#include "teachingsession.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTextBrowser;
class QCustomPlot;
class QCPItemStraightLine;

namespace dplab {

class AttackPanel : public QWidget
{
    Q_OBJECT

public:
    explicit AttackPanel(QWidget *parent = nullptr);

    /** The playback recording (its runs are plotted when they have attack_error). */
    void setSession(const TeachingSession *session);
    /** Drops the noise on / off comparison (another experiment was opened). */
    void reset();
    void setIndex(int index);
    /** Runs the noise on / off comparison for `agent` on the recorded experiment. */
    void runComparison(int agent);
    /** The session whose attack_error is plotted (the playback's, or the demo's). */
    const TeachingSession *shownSession() const;
    QCustomPlot *plot() const { return mPlot; }
    QTableWidget *table() const { return mTable; }
    /** The equations (help text). */
    static QString helpText();

signals:
    void busyChanged(bool busy);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void refresh();

    const TeachingSession *mSession = nullptr;
    TeachingSession *mDemo;
    bool mShowDemo = false;
    int mIndex = 0;
    QLabel *mSummary;
    QSpinBox *mAgent;
    QPushButton *mCompare;
    QCustomPlot *mPlot;
    QCPItemStraightLine *mCursor = nullptr;
    QTableWidget *mTable;
    QTextBrowser *mHelp;
};

} // namespace dplab
