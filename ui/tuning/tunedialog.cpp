// SPDX-License-Identifier: GPL-3.0-or-later
#include "tunedialog.h"

#include "experimentdocument.h"
#include "liveresults.h"
#include "metricnames.h"
#include "parameterchoices.h"
#include "plotstyle.h"
#include "rememberedfolder.h"
#include "textconvert.h"
#include "tunerunner.h"

#include "dplab/engine/metrics.h"
#include "dplab/engine/outputfolder.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dplab {

namespace {

/** The CLI's option names in an error become the dialog's field names. */
QString inFieldWords(QString message)
{
    static const QList<QPair<QString, QString>> names = {
        {QStringLiteral("--param"), QStringLiteral("Parameter")},     {QStringLiteral("--range"), QStringLiteral("Range")},
        {QStringLiteral("--metric"), QStringLiteral("Metric")},       {QStringLiteral("--epsilon"), QStringLiteral("Target ε")},
        {QStringLiteral("--budget"), QStringLiteral("Budget")},       {QStringLiteral("--compare"), QStringLiteral("Compare tuned runs")},
        {QStringLiteral("--repetitions"), QStringLiteral("Repetitions")}, {QStringLiteral("--log"), QStringLiteral("Log scale")}};
    for (const auto &[option, field] : names)
        message.replace(option, field);
    return message;
}

QString number(double v)
{
    return std::isfinite(v) ? QString::number(v, 'g', 6) : QStringLiteral("—");
}

/** Lower is better, except for the accuracies (as core's tune ranks them). */
double scoreOf(const TuneCandidate &c, bool maximise)
{
    if (c.status != RunStatus::Ok || c.stats.count == 0 || !std::isfinite(c.stats.mean))
        return std::numeric_limits<double>::infinity();
    return maximise ? -c.stats.mean : c.stats.mean;
}

int bestIndex(const std::vector<TuneCandidate> &candidates, bool maximise)
{
    int best = -1;
    double score = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < candidates.size(); ++k)
        if (scoreOf(candidates[k], maximise) < score) {
            score = scoreOf(candidates[k], maximise);
            best = static_cast<int>(k);
        }
    return best;
}

/** A read-only table of six columns with `headers`, the last one stretched. */
QTableWidget *resultTable(QWidget *parent, const QString &name, const QStringList &headers)
{
    auto *table = new QTableWidget(0, 6, parent);
    table->setObjectName(name);
    table->setHorizontalHeaderLabels(headers);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return table;
}

} // namespace

TuneDialog::TuneDialog(ExperimentDocument *document, LiveResults *results, QWidget *parent)
    : QDialog(parent)
    , mDocument(document)
    , mResults(results)
    , mRunner(new TuneRunner(this))
    , mChoices(new QVector<ParameterChoice>)
{
    setWindowTitle(tr("Tune a parameter"));
    buildForm();
    connect(mRunner, &TuneRunner::progressed, this, &TuneDialog::onProgress);
    connect(mRunner, &TuneRunner::finished, this, &TuneDialog::onFinished);
    connect(mRunner, &TuneRunner::failed, this, &TuneDialog::onFailed);
    refresh();
    resize(980, 760);
}

TuneDialog::~TuneDialog()
{
    delete mChoices;
}

void TuneDialog::buildForm()
{
    auto *form = new QFormLayout;
    mParameter = new QComboBox(this);
    mParameter->setToolTip(tr("A numeric parameter of the runs, from their algorithms' descriptors. \"every run\" "
                              "tunes it in each run that has it, each on its own."));
    connect(mParameter, &QComboBox::currentIndexChanged, this, &TuneDialog::onParameterChosen);
    mParameterInfo = new QLabel(this);
    mParameterInfo->setWordWrap(true);
    auto *parameterBox = new QVBoxLayout;
    parameterBox->addWidget(mParameter);
    parameterBox->addWidget(mParameterInfo);
    form->addRow(tr("&Parameter:"), parameterBox);

    mLo = new QLineEdit(this);
    mHi = new QLineEdit(this);
    mLog = new QCheckBox(tr("&log scale"), this);
    mLog->setToolTip(tr("Search log(value): for step sizes, noise scales and ε"));
    auto *range = new QHBoxLayout;
    range->addWidget(mLo);
    range->addWidget(new QLabel(QStringLiteral("…"), this));
    range->addWidget(mHi);
    range->addWidget(mLog);
    form->addRow(tr("&Range:"), range);

    mMetric = new QComboBox(this);
    for (const std::string &name : allMetricNames())
        mMetric->addItem(QStringLiteral("%1 (%2)").arg(metricTitle(toQString(name)), toQString(name)), toQString(name));
    mMetric->setToolTip(tr("Minimised at the last iteration, mean over the repetitions (accuracies are maximised)"));
    form->addRow(tr("&Metric:"), mMetric);

    mUseEpsilon = new QCheckBox(tr("calibrate every candidate to ε ="), this);
    mEpsilon = new QLineEdit(QStringLiteral("1"), this);
    mEpsilon->setEnabled(false);
    connect(mUseEpsilon, &QCheckBox::toggled, mEpsilon, &QWidget::setEnabled);
    auto *eps = new QHBoxLayout;
    eps->addWidget(mUseEpsilon);
    eps->addWidget(mEpsilon);
    eps->addStretch();
    form->addRow(tr("Target &ε:"), eps);

    mRepetitions = new QSpinBox(this);
    mRepetitions->setRange(1, 1000);
    mBudget = new QSpinBox(this);
    mBudget->setRange(0, 1'000'000);
    mBudget->setSpecialValueText(tr("default (20 candidates per run)"));
    mBudget->setToolTip(tr("Jobs over the whole tuning: one job is one repetition of one candidate"));
    auto *counts = new QHBoxLayout;
    counts->addWidget(mRepetitions);
    counts->addWidget(new QLabel(tr("budget (jobs):"), this));
    counts->addWidget(mBudget, 1);
    form->addRow(tr("Re&petitions:"), counts);

    mCompare = new QCheckBox(tr("Compare tuned runs (paired signed-rank test and bootstrap interval over the common seeds)"),
                             this);
    form->addRow(QString(), mCompare);

    QHBoxLayout *buttons = buildButtons();

    mStatus = new QLabel(this);
    mStatus->setWordWrap(true);
    mStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);

    mPlot = new QCustomPlot(this);
    mPlot->setMinimumHeight(260);
    mPlot->setToolTip(tr("Click a candidate to draw its metric curves in the live plots"));
    connect(mPlot, &QCustomPlot::mousePress, this, &TuneDialog::onPlotClicked);

    mTable = resultTable(this, QStringLiteral("tunedRuns"),
                         {tr("Run"), tr("Best value"), tr("Final metric: mean ± 95 % CI"), tr("Repetitions"),
                          tr("Candidates"), tr("Note")});
    mPairs = resultTable(this, QStringLiteral("tunedPairs"),
                         {tr("Runs"), tr("Mean difference"), tr("Bootstrap 95 %"), tr("Signed-rank p"), tr("Pairs"),
                          tr("Verdict")});
    mPairs->hide();

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(mPlot);
    splitter->addWidget(mTable);
    splitter->addWidget(mPairs);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(mStatus);
    layout->addWidget(splitter, 1);
    updateButtons();
}

/** Tune, Stop, Apply best, Save results… and Close, connected. */
QHBoxLayout *TuneDialog::buildButtons()
{
    mTuneButton = new QPushButton(tr("&Tune"), this);
    mTuneButton->setDefault(true);
    mStopButton = new QPushButton(tr("&Stop"), this);
    mApplyButton = new QPushButton(tr("&Apply best"), this);
    mApplyButton->setToolTip(tr("Set every tuned run to its best value (one Edit ▸ Undo step)"));
    mSaveButton = new QPushButton(tr("Sa&ve results…"), this);
    mSaveButton->setToolTip(tr("tuning.csv, best.json, tuned.json (and comparison.csv), as dplab-cli tune --out"));
    connect(mTuneButton, &QPushButton::clicked, this, [this] {
        if (!startTuning())
            mStatus->setText(QStringLiteral("<span style='color:#b00020'>%1</span>").arg(mError.toHtmlEscaped()));
    });
    connect(mStopButton, &QPushButton::clicked, this, &TuneDialog::stopTuning);
    connect(mApplyButton, &QPushButton::clicked, this, [this] {
        QString why;
        if (!applyBest(&why))
            mStatus->setText(why.toHtmlEscaped());
        else
            mStatus->setText(tr("Applied the best values (Edit ▸ Undo takes them back)."));
    });
    connect(mSaveButton, &QPushButton::clicked, this, &TuneDialog::saveClicked);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(mTuneButton);
    buttons->addWidget(mStopButton);
    buttons->addStretch();
    buttons->addWidget(mApplyButton);
    buttons->addWidget(mSaveButton);
    auto *close = new QPushButton(tr("Close"), this);
    connect(close, &QPushButton::clicked, this, &QDialog::close);
    buttons->addWidget(close);
    return buttons;
}

void TuneDialog::refresh()
{
    const QString previous = mParameter->currentIndex() >= 0 && mParameter->currentIndex() < mChoices->size()
                                 ? toQString((*mChoices)[mParameter->currentIndex()].path())
                                 : QString();
    *mChoices = numericParameters(mDocument->toJson());
    {
        const QSignalBlocker block(mParameter);
        mParameter->clear();
        for (const ParameterChoice &c : *mChoices)
            mParameter->addItem(c.title());
    }
    mRepetitions->setValue(std::max(1, mDocument->value("/repetitions").is_number_integer()
                                           ? mDocument->value("/repetitions").get<int>()
                                           : 1));
    if (previous.isEmpty() || !setParameter(previous)) {
        mParameter->setCurrentIndex(mChoices->isEmpty() ? -1 : 0);
        onParameterChosen();
    }
    // The metric: the first of those tuning usually minimises that every run records (core's
    // check says which; nothing runs).
    const auto o = options();
    const auto resolved = resolveExperiment(mDocument->toJson(), toStdString(mDocument->baseDir()));
    if (o && resolved) {
        for (const char *name : {"optimality_gap", "distance_to_optimum", "gradient_norm", "average_loss", "test_accuracy",
                                 "consensus_error"}) {
            TuneOptions probe = *o;
            probe.metric = name;
            if (checkTuneOptions(*resolved, probe)) {
                setMetric(QString::fromLatin1(name));
                break;
            }
        }
    }
}

const ParameterChoice *TuneDialog::chosen() const
{
    const int k = mParameter->currentIndex();
    return k >= 0 && k < mChoices->size() ? &(*mChoices)[k] : nullptr;
}

void TuneDialog::onParameterChosen()
{
    const ParameterChoice *c = chosen();
    if (!c) {
        mParameterInfo->setText(tr("The runs have no numeric parameter."));
        return;
    }
    mParameterInfo->setText(tr("Range %1; now %2.").arg(c->rangeText(), number(c->value)));
    // A decade either side of the current value, inside the descriptor's range.
    double v = c->value;
    if (!std::isfinite(v) || v == 0)
        v = c->min > 0 ? c->min * 10 : 1.0;
    double lo = v > 0 ? v / 10 : v * 10, hi = v > 0 ? v * 10 : v / 10;
    if (c->max < 1e299)
        hi = std::min(hi, c->max);
    if (c->min > -1e299)
        lo = std::max(lo, c->minExclusive ? std::nextafter(c->min, 1e300) : c->min);
    if (c->integer) {
        lo = std::ceil(lo);
        hi = std::floor(hi);
    }
    setRange(lo, hi);
    setLogScale(lo > 0 && (c->logScale || !c->integer));
}

bool TuneDialog::setParameter(const QString &path)
{
    for (int k = 0; k < mChoices->size(); ++k)
        if (toQString((*mChoices)[k].path()) == path) {
            mParameter->setCurrentIndex(k);
            onParameterChosen();
            return true;
        }
    return false;
}

void TuneDialog::setRange(double lo, double hi)
{
    mLo->setText(QString::number(lo, 'g', 10));
    mHi->setText(QString::number(hi, 'g', 10));
}

void TuneDialog::setLogScale(bool log)
{
    mLog->setChecked(log);
}

bool TuneDialog::setMetric(const QString &metric)
{
    const int k = mMetric->findData(metric);
    if (k < 0)
        return false;
    mMetric->setCurrentIndex(k);
    return true;
}

void TuneDialog::setTargetEpsilon(std::optional<double> epsilon)
{
    mUseEpsilon->setChecked(epsilon.has_value());
    if (epsilon)
        mEpsilon->setText(QString::number(*epsilon, 'g', 10));
}

void TuneDialog::setRepetitions(int repetitions)
{
    mRepetitions->setValue(repetitions);
}

void TuneDialog::setBudget(long long jobs)
{
    mBudget->setValue(static_cast<int>(jobs));
}

void TuneDialog::setCompare(bool compare)
{
    mCompare->setChecked(compare);
}

Result<TuneOptions> TuneDialog::options() const
{
    TuneOptions o;
    const ParameterChoice *c = chosen();
    if (!c)
        return Error::invalid("Parameter", "choose a numeric parameter of a run");
    // Every run: the path relative to each run (tune's form for "each run on its own").
    o.parameter = c->run < 0 ? c->key : c->path();
    bool ok = false;
    o.lo = mLo->text().trimmed().toDouble(&ok);
    if (!ok)
        return Error::invalid("Range", "\"" + toStdString(mLo->text()) + "\" is not a number");
    o.hi = mHi->text().trimmed().toDouble(&ok);
    if (!ok)
        return Error::invalid("Range", "\"" + toStdString(mHi->text()) + "\" is not a number");
    o.logScale = mLog->isChecked();
    o.metric = toStdString(mMetric->currentData().toString());
    if (mUseEpsilon->isChecked()) {
        const double e = mEpsilon->text().trimmed().toDouble(&ok);
        if (!ok || !(e > 0) || !std::isfinite(e))
            return Error::invalid("Target ε", "must be a number > 0, got \"" + toStdString(mEpsilon->text()) + "\"");
        o.epsilon = e;
    }
    o.budget = mBudget->value();
    o.compare = mCompare->isChecked();
    return o;
}

bool TuneDialog::isTuning() const
{
    return mRunner->isRunning();
}

std::shared_ptr<const TuneResult> TuneDialog::result() const
{
    return mRunner->result();
}

bool TuneDialog::startTuning()
{
    mError.clear();
    if (mRunner->isRunning()) {
        mError = tr("A tuning is running: stop it first.");
        return false;
    }
    auto o = options();
    if (!o) {
        mError = inFieldWords(toQString(o.error().toString()));
        return false;
    }
    Json doc = mDocument->toJson();
    doc["repetitions"] = mRepetitions->value();
    const std::string baseDir = toStdString(mDocument->baseDir());
    auto resolved = resolveExperiment(doc, baseDir);
    if (!resolved) {
        mError = inFieldWords(toQString(resolved.error().toString()));
        return false;
    }
    if (auto s = checkTuneOptions(*resolved, *o); !s) {
        mError = inFieldWords(toQString(s.error().toString()));
        return false;
    }
    mRunning = *o;
    mCurve.clear();
    mRunLabels.clear();
    for (std::size_t r = 0; r < resolved->runs.size(); ++r) {
        TunedRun t;
        t.run = static_cast<int>(r);
        t.label = resolved->runs[r].label;
        mCurve.push_back(t);
        mRunLabels.push_back(t.label);
    }
    if (!mRunner->start(doc, baseDir, *o, mThreads)) {
        mError = tr("A tuning is running: stop it first.");
        return false;
    }
    mStatus->setText(tr("Tuning %1 for %2 …").arg(toQString(o->parameter), toQString(o->metric)));
    updatePlot();
    updateTable();
    updateButtons();
    return true;
}

void TuneDialog::stopTuning()
{
    mRunner->stop();
}

void TuneDialog::onProgress(int round, qint64 jobs, qint64 budget, const QVector<TuneCandidate> &candidates)
{
    for (const TuneCandidate &c : candidates) {
        if (c.run < 0 || c.run >= static_cast<int>(mCurve.size()))
            continue;
        auto &list = mCurve[c.run].candidates;
        list.insert(std::upper_bound(list.begin(), list.end(), c,
                                     [](const TuneCandidate &a, const TuneCandidate &b) { return a.value < b.value; }),
                    c);
    }
    mStatus->setText(tr("Round %1: %2 of %3 jobs").arg(round).arg(jobs).arg(budget));
    updatePlot();
}

void TuneDialog::onFinished()
{
    const auto result = mRunner->result();
    if (result) {
        mCurve = result->runs;
        QString text = result->cancelled ? tr("Stopped after %1 of %2 jobs: the best of what was evaluated is shown.")
                                         : tr("Tuned with %1 of %2 jobs.");
        text = text.arg(result->jobs).arg(result->budget);
        for (const std::string &note : result->notes)
            text += QLatin1Char(' ') + inFieldWords(toQString(note)) + (note.back() == '.' ? QString() : QStringLiteral("."));
        mStatus->setText(text.toHtmlEscaped() + tr(" Click a candidate to see its curves."));
        emit tuned(result);
    }
    updatePlot();
    updateTable();
    updateButtons();
}

void TuneDialog::onFailed(const QString &message)
{
    mError = inFieldWords(message);
    mStatus->setText(QStringLiteral("<span style='color:#b00020'>%1</span>").arg(mError.toHtmlEscaped()));
    updateButtons();
}

void TuneDialog::updateButtons()
{
    const bool running = mRunner->isRunning();
    mTuneButton->setEnabled(!running);
    mStopButton->setEnabled(running);
    const auto result = mRunner->result();
    bool any = false;
    if (result && !running)
        for (const TunedRun &t : result->runs)
            any = any || (t.tuned && t.bestCandidate());
    mApplyButton->setEnabled(any);
    mSaveButton->setEnabled(result && !running);
}

void TuneDialog::updatePlot()
{
    mPlot->clearPlottables();
    mPlot->clearItems();
    const bool log = mRunning.logScale;
    setLogAxis(mPlot->xAxis, log);
    // The metric's own scale (errors on a log axis) when every mean is positive; a diverged
    // candidate (mean beyond what a plot can draw) is left out of the curve.
    auto drawn = [](const TuneCandidate &c) {
        return c.stats.count > 0 && std::isfinite(c.stats.mean) && std::abs(c.stats.mean) < kLargestPlotted;
    };
    bool positive = true;
    for (const TunedRun &t : mCurve)
        for (const TuneCandidate &c : t.candidates)
            if (drawn(c))
                positive = positive && c.stats.mean > 0;
    const bool logY = positive && metricPrefersLogAxis(toQString(mRunning.metric));
    setLogAxis(mPlot->yAxis, logY);
    const bool maximise = mRunning.metric == "train_accuracy" || mRunning.metric == "test_accuracy";
    mPlot->xAxis->setLabel(toQString(mRunning.parameter));
    mPlot->yAxis->setLabel(tr("final %1 (mean, 95 % CI)")
                               .arg(metricTitle(toQString(mRunning.metric)).toLower()));
    bool anything = false;
    for (std::size_t r = 0; r < mCurve.size(); ++r) {
        const TunedRun &t = mCurve[r];
        if (t.candidates.empty())
            continue;
        const QColor colour = mDocument->runColor(static_cast<int>(r));
        QVector<double> keys, values, minus, plus;
        for (const TuneCandidate &c : t.candidates) {
            if (!drawn(c))
                continue;
            keys << c.value;
            values << c.stats.mean;
            bool interval = c.stats.count > 1 && std::isfinite(c.stats.ciLow) && std::isfinite(c.stats.ciHigh);
            // On a log axis an interval reaching 0 or below is drawn down to a tenth of the mean.
            minus << (interval ? (logY && c.stats.ciLow <= 0 ? c.stats.mean * 0.9 : c.stats.mean - c.stats.ciLow) : 0.0);
            plus << (interval ? c.stats.ciHigh - c.stats.mean : 0.0);
        }
        QCPGraph *graph = mPlot->addGraph();
        graph->setName(toQString(t.label));
        graph->setPen(QPen(colour, 1.4));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, Qt::white, 7));
        graph->setData(keys, values, true);
        auto *bars = new QCPErrorBars(mPlot->xAxis, mPlot->yAxis);
        bars->removeFromLegend();
        bars->setDataPlottable(graph);
        bars->setData(minus, plus);
        bars->setPen(QPen(colour, 1.0));
        const int best = bestIndex(t.candidates, maximise);
        if (best >= 0) {
            QCPGraph *mark = mPlot->addGraph();
            mark->removeFromLegend();
            mark->setLineStyle(QCPGraph::lsNone);
            mark->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(colour, 2.0), Qt::NoBrush, 18));
            mark->setData({t.candidates[best].value}, {t.candidates[best].stats.mean});
            auto *text = new QCPItemText(mPlot);
            text->position->setCoords(t.candidates[best].value, t.candidates[best].stats.mean);
            text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
            text->setText(tr("best %1").arg(number(t.candidates[best].value)));
            text->setColor(colour);
            text->setPadding(QMargins(0, 10, 0, 0));
        }
        anything = true;
    }
    mPlot->legend->setVisible(anything);
    mPlot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignHCenter);
    if (anything) {
        mPlot->rescaleAxes();
        const QCPRange x = mPlot->xAxis->range();
        if (log)
            mPlot->xAxis->setRange(x.lower / 1.3, x.upper * 1.3);
        else
            mPlot->xAxis->setRange(x.lower - x.size() * 0.05 - 1e-12, x.upper + x.size() * 0.05 + 1e-12);
        const QCPRange y = mPlot->yAxis->range();
        if (logY)
            mPlot->yAxis->setRange(y.lower / 1.5, y.upper * 2.5);
        else
            mPlot->yAxis->setRange(y.lower - y.size() * 0.1 - 1e-300, y.upper + y.size() * 0.15 + 1e-300);
    }
    mPlot->replot(QCustomPlot::rpQueuedReplot);
}

void TuneDialog::updateTable()
{
    const auto result = mRunner->isRunning() ? nullptr : mRunner->result();
    mTable->setRowCount(0);
    mPairs->setRowCount(0);
    mPairs->setVisible(result && !result->comparisons.empty());
    if (!result)
        return;
    for (const TunedRun &t : result->runs) {
        const int row = mTable->rowCount();
        mTable->insertRow(row);
        auto cell = [&](int column, const QString &text) { mTable->setItem(row, column, new QTableWidgetItem(text)); };
        cell(0, toQString(t.label));
        const TuneCandidate *best = t.bestCandidate();
        if (!t.tuned) {
            cell(5, t.reason.empty() ? tr("not tuned") : toQString(t.reason)); // core's reason says "not comparable: …"
            continue;
        }
        if (!best) {
            cell(5, tr("every candidate diverged"));
            continue;
        }
        cell(1, number(best->value));
        const bool interval = best->stats.count > 1 && std::isfinite(best->stats.ciLow);
        cell(2, interval ? QStringLiteral("%1 ± %2").arg(number(best->stats.mean), number((best->stats.ciHigh - best->stats.ciLow) / 2))
                         : number(best->stats.mean));
        cell(3, QString::number(best->stats.count));
        cell(4, QString::number(t.candidates.size()));
        cell(5, tr("bracket %1 … %2").arg(number(t.bracketLow), number(t.bracketHigh)));
    }
    for (const PairComparison &p : result->comparisons) {
        const int row = mPairs->rowCount();
        mPairs->insertRow(row);
        auto cell = [&](int column, const QString &text) { mPairs->setItem(row, column, new QTableWidgetItem(text)); };
        const QString a = toQString(result->runs[p.a].label), b = toQString(result->runs[p.b].label);
        cell(0, QStringLiteral("%1 − %2").arg(a, b));
        cell(1, number(p.meanDifference));
        cell(2, QStringLiteral("%1 … %2").arg(number(p.bootstrap.low), number(p.bootstrap.high)));
        cell(3, number(p.wilcoxon.p));
        cell(4, QString::number(p.repetitions));
        const bool aBetter = result->maximise ? p.meanDifference > 0 : p.meanDifference < 0;
        cell(5, p.significant ? tr("%1 better (p < 0.05)").arg(aBetter ? a : b)
                              : (p.repetitions < 6 ? tr("not significant (fewer than 6 pairs can never be)")
                                                   : tr("not significant")));
    }
    mTable->resizeColumnsToContents();
    mPairs->resizeColumnsToContents();
}

void TuneDialog::onPlotClicked(QMouseEvent *event)
{
    const QPointF pos = event->position();
    double best = 14.0; // pixels
    int bestRun = -1, bestCandidate = -1;
    for (std::size_t r = 0; r < mCurve.size(); ++r)
        for (std::size_t k = 0; k < mCurve[r].candidates.size(); ++k) {
            const TuneCandidate &c = mCurve[r].candidates[k];
            if (!std::isfinite(c.stats.mean))
                continue;
            const double dx = mPlot->xAxis->coordToPixel(c.value) - pos.x();
            const double dy = mPlot->yAxis->coordToPixel(c.stats.mean) - pos.y();
            const double d = std::hypot(dx, dy);
            if (d < best) {
                best = d;
                bestRun = static_cast<int>(r);
                bestCandidate = static_cast<int>(k);
            }
        }
    if (bestRun >= 0 && !showCandidate(bestRun, bestCandidate))
        mStatus->setText(tr("The curves of that candidate were not kept (too many recorded points)."));
}

bool TuneDialog::showCandidate(int run, int index)
{
    if (!mResults || run < 0 || run >= static_cast<int>(mCurve.size()) || index < 0
        || index >= static_cast<int>(mCurve[run].candidates.size()))
        return false;
    const TuneCandidate &c = mCurve[run].candidates[index];
    const QVector<RunBatch> batches = mRunner->batches(c.identity);
    if (batches.isEmpty())
        return false;
    Json doc = mDocument->toJson();
    doc["repetitions"] = static_cast<int>(c.finals.size());
    auto experiment = resolveExperiment(doc, toStdString(mDocument->baseDir()));
    if (!experiment || run >= static_cast<int>(experiment->runs.size()))
        return false;
    // The run's label names the candidate: the plots' legend and their hover read-out show it.
    const QString key = toQString(mRunning.parameter.substr(mRunning.parameter.rfind('.') + 1));
    experiment->runs[run].label += toStdString(QStringLiteral(" · %1 = %2").arg(key, number(c.value)));
    mResults->reset(*experiment);
    mResults->addBatches(batches);
    QVector<RunEvent> events;
    for (int rep = 0; rep < static_cast<int>(c.finals.size()); ++rep) {
        RunEvent e;
        e.kind = StatusEvent::Kind::Finished;
        e.run = run;
        e.repetition = rep;
        events << e;
    }
    mResults->addEvents(events);
    mStatus->setText(tr("The live plots show %1 at %2 = %3 (Run shows the experiment again).")
                         .arg(toQString(mCurve[run].label), toQString(mRunning.parameter), number(c.value)));
    return true;
}

bool TuneDialog::applyBest(QString *error)
{
    const auto result = mRunner->isRunning() ? nullptr : mRunner->result();
    auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (!result)
        return fail(tr("Nothing tuned yet."));
    // The run-relative key: "params.stepsize" (every run) or the part after "runs[k]." (one run).
    std::string key = mRunning.parameter;
    if (key.rfind("runs[", 0) == 0)
        key = key.substr(key.find("].") + 2);
    std::string pointerTail;
    for (char ch : key)
        pointerTail += ch == '.' ? '/' : ch;
    QVector<QPair<std::string, Json>> changes;
    for (const TunedRun &t : result->runs) {
        const TuneCandidate *best = t.bestCandidate();
        if (!t.tuned || !best || t.run >= mDocument->runCount())
            continue;
        const std::string run = "/runs/" + std::to_string(t.run) + "/";
        const Json value = result->integer ? Json(static_cast<long long>(std::llround(best->value))) : Json(best->value);
        if (mDocument->value(run + pointerTail) != value)
            changes.push_back({run + pointerTail, value});
        if (mRunning.epsilon && mDocument->value(run + "privacy/epsilon") != Json(*mRunning.epsilon))
            changes.push_back({run + "privacy/epsilon", Json(*mRunning.epsilon)});
    }
    if (changes.isEmpty())
        return fail(tr("The runs already have their best values."));
    QUndoStack *stack = mDocument->undoStack();
    stack->beginMacro(tr("Apply tuned %1").arg(toQString(key)));
    for (const auto &[pointer, value] : changes)
        mDocument->setValue(pointer, value, tr("Apply tuned %1").arg(toQString(key)));
    stack->endMacro();
    return true;
}

bool TuneDialog::saveResults(const QString &dir, QString *error)
{
    const auto result = mRunner->result();
    if (!result) {
        if (error)
            *error = tr("Nothing tuned yet.");
        return false;
    }
    OutputFolder::Options options;
    options.replaceSet = false; // the tuning files join whatever else the folder holds, as the CLI's
    if (!mDocument->fileName().isEmpty())
        options.protect.push_back(toStdString(mDocument->fileName()));
    auto folder = OutputFolder::open(toStdString(dir), options);
    Status status = folder ? Status{} : Status(folder.error());
    std::vector<std::pair<std::string, std::string>> files = {{"tuning.csv", tuningCsv(*result)},
                                                              {"best.json", bestJson(*result).dump(2) + "\n"},
                                                              {"tuned.json", result->tuned.dump(2) + "\n"}};
    if (!result->comparisons.empty())
        files.push_back({"comparison.csv", comparisonCsv(*result)});
    for (const auto &[name, content] : files)
        if (status)
            status = (*folder)->write(name, content);
    if (status)
        status = (*folder)->commit();
    if (!status) {
        if (error)
            *error = toQString(status.error().toString());
        return false;
    }
    return true;
}

void TuneDialog::saveClicked()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Save the tuning results into"),
                                                          rememberedFolder(QStringLiteral("results")));
    if (dir.isEmpty())
        return;
    rememberFolder(QStringLiteral("results"), dir);
    QString why;
    if (saveResults(dir, &why))
        mStatus->setText(tr("Wrote tuning.csv, best.json and tuned.json to %1.").arg(dir).toHtmlEscaped());
    else
        QMessageBox::warning(this, tr("Save the tuning results"), why);
}

} // namespace dplab
