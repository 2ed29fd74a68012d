// SPDX-License-Identifier: GPL-3.0-or-later
//
// ComparisonView (issue 7 item 6): the runs of an experiment side by side as small multiples —
// one panel per run with shared axes (zooming one zooms all) and the same mean ± std band as
// the overlaid live plots — above the final-values table (mean ± std per metric, sortable,
// copyable). The panels follow LiveResults while the run streams; the table fills in when it
// ends.
//
// Threading: GUI thread.
#pragma once

#include <QColor>
#include <QVector>
#include <QWidget>

class QComboBox;
class QCustomPlot;
class QTimer;

namespace dplab {

class FinalValuesTable;
class LiveResults;
struct ExperimentResult;

class ComparisonView : public QWidget
{
    Q_OBJECT

public:
    explicit ComparisonView(LiveResults *results, QWidget *parent = nullptr);

    void setRunColors(const QVector<QColor> &colors);
    void setResult(const ExperimentResult &result, const QString &sweepParameter);
    void clearResult();

    QString metric() const;
    void setMetric(const QString &metric);
    QCustomPlot *multiples() const { return mPlot; }
    FinalValuesTable *table() const { return mTable; }
    /** Number of run panels. */
    int panelCount() const { return mPanels; }

public slots:
    /** Rebuilds the panels from LiveResults. */
    void rebuild();

protected:
    void showEvent(QShowEvent *event) override;

private:
    /** Rebuilds within 200 ms when shown; when hidden (another tab during a run), once shown. */
    void scheduleRebuild();
    void updateMetricChoices();

    LiveResults *mResults;
    QComboBox *mMetric;
    QComboBox *mPoint;
    QCustomPlot *mPlot;
    FinalValuesTable *mTable;
    QTimer *mTimer;
    QVector<QColor> mColors;
    int mPanels = 0;
    bool mSyncing = false;
    bool mStale = false; ///< a rebuild was skipped while hidden
};

} // namespace dplab
