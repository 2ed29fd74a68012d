// SPDX-License-Identifier: GPL-3.0-or-later
//
// PlotPanel: the live plots of docs/architecture.md §6 in a 2×2 grid — consensus error; an accuracy plot
// whose metric is chosen among those the runs record (distance to optimum, optimality gap,
// gradient norm, regret, average loss, accuracy, ...); cumulative ε with the accountant named
// in the legend; bits sent — with the x axis switchable between iteration and bits, the sweep
// point to show (when the experiment sweeps), reset of every view and export of all plots.
//
// Threading: GUI thread.
#pragma once

#include <QColor>
#include <QSize>
#include <QVector>
#include <QWidget>

class QComboBox;
class QHBoxLayout;
class QLabel;

namespace dplab {

class LiveResults;
class RunHistory;
class MetricPlot;
class WrappingBar;
struct ExperimentResult;

class PlotPanel : public QWidget
{
    Q_OBJECT

public:
    enum PlotIndex { Consensus = 0, Accuracy = 1, Epsilon = 2, Bits = 3, PlotCount = 4 };

    explicit PlotPanel(LiveResults *results, QWidget *parent = nullptr);

    MetricPlot *plot(int index) const { return mPlots.value(index); }
    void setRunColors(const QVector<QColor> &colors);
    /** Every plot draws the run history's ghost lines (MetricPlot::setHistory). */
    void setHistory(const RunHistory *history);
    /** Legend suffixes per plot index (e.g. accountant names for the ε plot). */
    void setRunSuffixes(int plot, const QStringList &suffixes);
    QString accuracyMetric() const;
    void setAccuracyMetric(const QString &metric);
    /** x axis: iteration (false) or bits (true). */
    void setXAxisBits(bool bits);
    /** ε plot: the max over agents only (false) or also every agent's ε (true). */
    void setEpsilonPerAgent(bool perAgent);
    /** After a run: names each run's accountant on the ε plot (subtitle, per-run tags) and marks
     *  diverged / cancelled runs in every legend. */
    void showOutcome(const ExperimentResult &result);

public slots:
    void resetViews();
    /** Says that every plot becomes its own file, asks for the base name, format, DPI and size
     *  (as on screen, single or double column, slide), saves them and lists the files written. */
    void exportPlots();

public:
    /** Saves every plot as `<base>-<metric>.<suffix>` next to `path` (PNG, SVG or PDF by the
     *  suffix of `path`, PNG at `dpi`), each at `size` logical pixels (empty = its on-screen
     *  size; plotExportSizes() lists the sizes for print). */
    bool exportPlotsTo(const QString &path, int dpi, QString *error, QStringList *written = nullptr, QSize size = QSize());
    /** The files exportPlotsTo(path, …) writes, one per plot. */
    QStringList exportFileNames(const QString &path) const;

    /** Whether the bar above the plots is on two rows (the panel is too narrow for one). */
    bool barWrapped() const;

private:
    void updateMetricChoices();
    void updatePointChoices();

    WrappingBar *mBar = nullptr;
    LiveResults *mResults;
    QVector<MetricPlot *> mPlots;
    QComboBox *mXAxis;
    QComboBox *mAccuracy;
    QComboBox *mEpsilonMode;
    QLabel *mPointLabel;
    QComboBox *mPoint;
};

} // namespace dplab
