// SPDX-License-Identifier: GPL-3.0-or-later
//
// FrontierView: the privacy–utility frontier in one click. "ε sweep" runs every run of the
// experiment whose algorithm calibrates to a target ε at log-spaced target ε (with the chosen
// repetitions) on a background thread — core's runFrontier, the numbers `dplab-cli frontier`
// writes — and plots the chosen final metric against ε per algorithm with error bars (± one
// standard deviation over repetitions). Runs without a calibration are listed as skipped.
//
// Threading: GUI thread; the sweep runs on a std::thread and is cancelled by Stop or
// destruction.
#pragma once

#include "dplab/engine/runner.h"
#include "dplab/teaching/frontier.h"

#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <thread>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QCustomPlot;

namespace dplab {

class FrontierView : public QWidget
{
    Q_OBJECT

public:
    explicit FrontierView(QWidget *parent = nullptr);
    ~FrontierView() override;

    /** The experiment the sweep runs (the document as validated). */
    void setExperiment(std::shared_ptr<const Experiment> experiment);
    /** Where the sweep button gets the experiment (the document, validated) when pressed, so
     *  it always sweeps the experiment on screen; a null result with `error` set shows it. */
    using Source = std::function<std::shared_ptr<const Experiment>(QString *error)>;
    void setSource(Source source) { mSource = std::move(source); }
    /** Forgets the experiment and any result, cancelling a sweep in progress (another
     *  experiment was opened): an empty plot with default axes and the opening hint. */
    void reset();
    /** The status line under the controls. */
    QString statusText() const;
    /** Sets the range: `count` log-spaced ε from `from` to `to`; repetitions (0 = the file's). */
    void setRange(double from, double to, int count, int repetitions);
    /** Starts the sweep (no-op while one runs). */
    void start();
    /** Runs the sweep on the calling thread (tests). */
    bool runNow(QString *error = nullptr);
    bool isRunning() const { return mRunning; }
    const std::optional<FrontierResult> &result() const { return mResult; }
    QString metric() const;
    void setMetric(const QString &metric);
    QCustomPlot *plot() const { return mPlot; }

signals:
    void finished();
    void runningChanged(bool running);

private:
    struct Request {
        std::shared_ptr<const Experiment> experiment;
        std::vector<double> epsilons;
        int repetitions = 0;
    };
    Request request() const;
    static Result<FrontierResult> compute(const Request &request, RunControl *control);
    void accept(Result<FrontierResult> result);
    void replotFrontier();
    void stop();

    std::shared_ptr<const Experiment> mExperiment;
    Source mSource;
    int mGeneration = 0; ///< a sweep's result is accepted only while this is unchanged
    std::optional<FrontierResult> mResult;
    bool mRunning = false;
    std::thread mThread;
    std::shared_ptr<RunControl> mControl;
    QDoubleSpinBox *mFrom;
    QDoubleSpinBox *mTo;
    QSpinBox *mCount;
    QSpinBox *mRepetitions;
    QPushButton *mSweep;
    QComboBox *mMetric;
    QLabel *mStatus;
    QCustomPlot *mPlot;
};

} // namespace dplab
