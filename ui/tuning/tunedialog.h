// SPDX-License-Identifier: GPL-3.0-or-later
//
// TuneDialog (Run ▸ Tune…): `dplab-cli tune` in the window (docs/tuning.md). The parameter comes
// from the runs' descriptors (label, unit, range), never a typed path; range, log scale, metric,
// an optional target ε, repetitions, budget and "compare tuned runs" are the CLI's options. The
// tuning runs on a worker thread through core's tune() (TuneRunner), so the same seed gives the
// same candidates and byte for byte the same tuning.csv as the CLI. While it runs, the tuning
// curve (final metric against the parameter, one line per run, 95 % intervals of the mean as
// error bars, the best so far ringed) grows round by round. A click on a candidate draws its
// metric curves in the live plots (its run labelled with the value, which the plots' read-out
// names on hover); Apply best sets every tuned run to its best value (and the target ε) as ONE
// undoable edit; Save writes tuning.csv, best.json, tuned.json (and comparison.csv) like the CLI's
// --out. Runs that cannot calibrate the target ε are listed as not comparable.
//
// Threading: GUI thread (the tuning itself on TuneRunner's worker thread).
#pragma once

#include "dplab/engine/tuning.h"

#include <QDialog>
#include <QVector>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace dplab {

class ExperimentDocument;
class LiveResults;
class TuneRunner;
struct ParameterChoice;

class TuneDialog : public QDialog
{
    Q_OBJECT

public:
    /** `results` are the window's live plots' data (a clicked candidate is drawn there). */
    TuneDialog(ExperimentDocument *document, LiveResults *results, QWidget *parent = nullptr);
    ~TuneDialog() override;

    /** Re-reads the parameters from the document (the dialog is kept between openings). */
    void refresh();

    // --- The fields (what the form sets; the tests set them directly) -------------------------
    /** Chooses the parameter by its path ("runs[*].params.stepsize", "runs[1].privacy.noise_x").
     *  False when the runs have no such numeric parameter. */
    bool setParameter(const QString &path);
    void setRange(double lo, double hi);
    void setLogScale(bool log);
    /** False when the name is not a metric. */
    bool setMetric(const QString &metric);
    void setTargetEpsilon(std::optional<double> epsilon);
    void setRepetitions(int repetitions);
    /** Jobs over the whole tuning; 0: the default (20 candidates per run). */
    void setBudget(long long jobs);
    void setCompare(bool compare);
    /** Worker threads of the runner (0: every core, the default). */
    void setThreads(int threads) { mThreads = threads; }

    /** The options the fields give (the CLI's --param, --range, …), or an error naming the
     *  field. */
    Result<TuneOptions> options() const;
    /** Starts tuning; false with error() when a field is invalid or a tuning is running. */
    bool startTuning();
    void stopTuning();
    bool isTuning() const;
    QString error() const { return mError; }
    TuneRunner *runner() const { return mRunner; }
    /** The last finished tuning (null before one finished). */
    std::shared_ptr<const TuneResult> result() const;

    /** Sets every tuned run to its best value (and privacy.epsilon to the target ε of the
     *  tuning) as one undo step. False with `error` when there is nothing to apply. */
    bool applyBest(QString *error = nullptr);
    /** Draws candidate `index` (TunedRun::candidates order: by value) of run `run` in the live
     *  plots. False when it has no recorded metrics. */
    bool showCandidate(int run, int index);
    /** Writes tuning.csv, best.json, tuned.json (comparison.csv with compare) into `dir`, as
     *  `dplab-cli tune --out` does. */
    bool saveResults(const QString &dir, QString *error);

signals:
    /** A tuning finished (for the report's compare-tuned table). */
    void tuned(std::shared_ptr<const dplab::TuneResult> result);

private:
    void buildForm();
    QHBoxLayout *buildButtons();
    void onParameterChosen();
    void onProgress(int round, qint64 jobs, qint64 budget, const QVector<TuneCandidate> &candidates);
    void onFinished();
    void onFailed(const QString &message);
    void updateButtons();
    void updatePlot();
    void updateTable();
    void onPlotClicked(QMouseEvent *event);
    const ParameterChoice *chosen() const;
    void saveClicked();

    ExperimentDocument *mDocument;
    LiveResults *mResults;
    TuneRunner *mRunner;
    QVector<ParameterChoice> *mChoices;
    int mThreads = 0;
    QString mError;
    TuneOptions mRunning;           ///< options of the tuning in flight / last finished
    std::vector<TunedRun> mCurve;   ///< candidates so far, per run (for the live curve)
    std::vector<std::string> mRunLabels;

    QComboBox *mParameter = nullptr;
    QLabel *mParameterInfo = nullptr;
    QLineEdit *mLo = nullptr, *mHi = nullptr;
    QCheckBox *mLog = nullptr;
    QComboBox *mMetric = nullptr;
    QCheckBox *mUseEpsilon = nullptr;
    QLineEdit *mEpsilon = nullptr;
    QSpinBox *mRepetitions = nullptr;
    QSpinBox *mBudget = nullptr;
    QCheckBox *mCompare = nullptr;
    QPushButton *mTuneButton = nullptr, *mStopButton = nullptr, *mApplyButton = nullptr, *mSaveButton = nullptr;
    QLabel *mStatus = nullptr;
    QCustomPlot *mPlot = nullptr;
    QTableWidget *mTable = nullptr;
    QTableWidget *mPairs = nullptr;
};

} // namespace dplab
