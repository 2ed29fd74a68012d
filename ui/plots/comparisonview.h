// SPDX-License-Identifier: GPL-3.0-or-later
//
// ComparisonView (issue 7 item 6): the runs of an experiment side by side as small multiples —
// one panel per run with shared axes (zooming one zooms all) and the same mean ± std band as
// the overlaid live plots — above the final-values table (mean ± std per metric, sortable,
// copyable). The panels follow LiveResults while the run streams; the table fills in when it
// ends. Hidden behind another tab, the view builds nothing: its panels and table are built when
// it is shown (or first asked for), with the same content.
//
// Threading: GUI thread.
#pragma once

#include <QColor>
#include <QVector>
#include <QWidget>

#include <memory>

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
    /** The final values of a finished run for the table: filled at once when the view is shown,
     *  else when it is shown or table() is asked for. */
    void setResult(std::shared_ptr<const ExperimentResult> result, const QString &sweepParameter);
    void clearResult();

    QString metric() const;
    void setMetric(const QString &metric);
    /** The panels (built first if a rebuild waits for the view to be shown). */
    QCustomPlot *multiples() const;
    /** The final-values table (filled first if a result waits for the view to be shown). */
    FinalValuesTable *table() const;
    /** Number of run panels (built first if a rebuild waits for the view to be shown). */
    int panelCount() const;

public slots:
    /** Rebuilds the panels from LiveResults. */
    void rebuild();

protected:
    void showEvent(QShowEvent *event) override;

private:
    /** Rebuilds within 200 ms when shown; when hidden (another tab during a run), once shown. */
    void scheduleRebuild();
    void updateMetricChoices();
    /** Builds what waits for the view to be shown: the panels, the table. */
    void catchUp();

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
    std::shared_ptr<const ExperimentResult> mPendingResult; ///< for the table, not filled yet
    QString mPendingParameter;
};

} // namespace dplab
