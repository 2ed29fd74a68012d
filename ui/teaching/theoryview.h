// SPDX-License-Identifier: GPL-3.0-or-later
//
// TheoryView: one metric of the recording per run, with the rates the algorithms' papers state
// drawn as dashed reference curves anchored at each run's first recorded point and labelled with
// their source (core/teaching/theory.h). Log axes, so a power law is a straight line.
//
// Threading: GUI thread.
#pragma once

#include "teachingsession.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QCustomPlot;
class QCPItemStraightLine;

namespace dplab {

class TheoryView : public QWidget
{
    Q_OBJECT

public:
    explicit TheoryView(QWidget *parent = nullptr);

    void setSession(const TeachingSession *session);
    void setIndex(int index);
    void setMetric(const QString &metric);
    QString metric() const;
    /** Dashed reference curves drawn (tests). */
    int overlayCount() const { return mOverlays; }
    /** The text above the plot: the curves' sources and why a bound is missing (tests). */
    QString note() const;
    QCustomPlot *plot() const { return mPlot; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void fitNote();
    void refresh();

    const TeachingSession *mSession = nullptr;
    int mIndex = 0;
    int mOverlays = 0;
    QComboBox *mMetric;
    QLabel *mNote;
    QCustomPlot *mPlot;
    QCPItemStraightLine *mCursor = nullptr;
};

} // namespace dplab
