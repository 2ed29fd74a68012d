// SPDX-License-Identifier: GPL-3.0-or-later
//
// MessageInspector: the message on one link j → i at one iteration, as the engine recorded it —
// per channel the clean value, the noise added, the value sent (noised, then compressed) and
// its bits — and a small plot of that link's clean vs sent values over time (one coordinate,
// chosen), with a cursor at the current iteration.
//
// Threading: GUI thread.
#pragma once

#include "teachingsession.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;
class QCustomPlot;
class QCPItemStraightLine;

namespace dplab {

class MessageInspector : public QWidget
{
    Q_OBJECT

public:
    explicit MessageInspector(QWidget *parent = nullptr);

    void setSession(const TeachingSession *session);
    void setRun(int run);
    void setEdge(int from, int to);
    void setIndex(int index);

    int from() const { return mFrom; }
    int to() const { return mTo; }
    /** The table (tests): one row per channel; columns channel, clean, noise, sent, bits. */
    QTableWidget *table() const { return mTable; }
    QCustomPlot *plot() const { return mPlot; }
    /** How a vector is written in the table. */
    static QString vectorText(const Eigen::VectorXd &v);

protected:
    void changeEvent(QEvent *event) override;

private:
    void fitTable();
    void refreshTable();
    void refreshPlot();

    const TeachingSession *mSession = nullptr;
    int mRun = 0;
    int mFrom = -1, mTo = -1;
    int mIndex = 0;
    QLabel *mTitle;
    QTableWidget *mTable;
    QComboBox *mChannel;
    QSpinBox *mCoordinate;
    QCustomPlot *mPlot;
    QCPItemStraightLine *mCursor = nullptr;
};

} // namespace dplab
