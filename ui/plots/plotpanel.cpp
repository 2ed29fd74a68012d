// SPDX-License-Identifier: GPL-3.0-or-later
#include "plotpanel.h"
#include "wrappingbar.h"

#include "epsilontext.h"
#include "liveresults.h"
#include "metricnames.h"
#include "metricplot.h"
#include "presentationscale.h"
#include "exporter.h"
#include "fulltextcombobox.h"

#include "dplab/engine/metrics.h"
#include "dplab/engine/runner.h"
#include "textconvert.h"

#include <QComboBox>
#include <QFileDialog>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSvgGenerator>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dplab {

PlotPanel::PlotPanel(LiveResults *results, QWidget *parent)
    : QWidget(parent)
    , mResults(results)
    , mXAxis(new FullTextComboBox(this))
    , mAccuracy(new FullTextComboBox(this))
    , mEpsilonMode(new FullTextComboBox(this))
    , mPointLabel(new QLabel(tr("Sweep value"), this))
    , mPoint(new FullTextComboBox(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    layout->setSpacing(2);
    // The bar: two groups side by side, or the second under the first when the panel is too
    // narrow for one row (WrappingBar) — its width must not set the window's minimum (at
    // presentation size one row was wider than a 1400-pixel window, squeezing the docks).
    mBar = new WrappingBar(this, 3);
    auto *bar = mBar->group(0);
    bar->addWidget(new QLabel(tr("x axis"), this));
    mXAxis->addItem(tr("iteration"));
    mXAxis->addItem(tr("bits sent"));
    mXAxis->setToolTip(tr("Plot against the iteration or against the bits the agents have sent (mean over repetitions)"));
    bar->addWidget(mXAxis);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Accuracy plot"), this));
    mAccuracy->setToolTip(tr("The metric of the second plot (those the runs record)"));
    bar->addWidget(mAccuracy);
    bar->addStretch(1);
    // ε opens the second group: at 1280×720 the two rows hold every choice in full.
    bar = mBar->group(1);
    bar->addWidget(new QLabel(tr("ε"), this));
    mEpsilonMode->addItem(tr("max over agents"));
    mEpsilonMode->addItem(tr("max + per agent"));
    mEpsilonMode->setToolTip(tr("Cumulative ε: the network's value (max over agents), or also every agent's "
                                "own ε as thin lines (local DP: each agent has its own budget)"));
    bar->addWidget(mEpsilonMode);
    bar->addSpacing(12);
    auto *reset = new QPushButton(tr("Reset views"), this);
    reset->setToolTip(tr("Fit every plot to its data and follow new data (double-click a plot for one)"));
    bar->addWidget(reset, 1);
    auto *exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setToolTip(tr("Save every plot as PNG, SVG or PDF"));
    bar->addWidget(exportButton, 1);
    // The sweep value (often long: `graph.generator = {"nodes":16,…}`) on a row of its own when
    // the others leave it too little room.
    bar = mBar->group(2);
    bar->addWidget(mPointLabel);
    bar->addWidget(mPoint);
    layout->addWidget(mBar);

    // The choices ask for their whole text (FullTextComboBox) and the bar wraps to two rows
    // before it squeezes them, so at 1280×720 none is elided; they can still shrink to a few
    // characters (a sweep value such as `graph.generator = {"nodes":16,…}` made the bar wider
    // than a projector) without setting the window's minimum; an open list shows the whole text.
    mPoint->setMinimumContentsLength(10);
    mBar->group(2)->setStretchFactor(mPoint, 1);
    mBar->setWrapBeforeShrinking(true);
    connect(PresentationScale::instance(), &PresentationScale::changed, this,
            [this] { QTimer::singleShot(0, mBar, &WrappingBar::arrange); });

    auto *grid = new QGridLayout;
    grid->setSpacing(4);
    const QString metrics[PlotCount] = {QLatin1String(metric::ConsensusError), QLatin1String(metric::DistanceToOptimum),
                                        QLatin1String(metric::Epsilon), QLatin1String(metric::Bits)};
    for (int i = 0; i < PlotCount; ++i) {
        auto *plot = new MetricPlot(results, this);
        plot->setMetric(metrics[i]);
        mPlots.push_back(plot);
        PresentationScale::follow(plot);
        grid->addWidget(plot, i / 2, i % 2);
        installPlotExportMenu(plot, [plot] { return plot->metric(); });
    }
    mPlots[Epsilon]->setAbsentText(tr("No ε: none of these runs has\na privacy accountant"));
    layout->addLayout(grid, 1);
    mPointLabel->setVisible(false);
    mPoint->setVisible(false);

    connect(mXAxis, &QComboBox::currentIndexChanged, this, [this](int index) { setXAxisBits(index == 1); });
    connect(mEpsilonMode, &QComboBox::currentIndexChanged, this,
            [this](int index) { mPlots[Epsilon]->setPerAgent(index == 1); });
    connect(mAccuracy, &QComboBox::activated, this,
            [this](int index) { mPlots[Accuracy]->setMetric(mAccuracy->itemData(index).toString()); });
    connect(mPoint, &QComboBox::currentIndexChanged, this, [this](int index) {
        for (MetricPlot *plot : std::as_const(mPlots))
            plot->setPoint(std::max(0, index));
    });
    connect(reset, &QPushButton::clicked, this, &PlotPanel::resetViews);
    connect(exportButton, &QPushButton::clicked, this, &PlotPanel::exportPlots);
    connect(results, &LiveResults::resetDone, this, [this] {
        updatePointChoices();
        updateMetricChoices();
    });
    connect(results, &LiveResults::rowsAppended, this, [this] {
        if (mAccuracy->count() == 0 || mAccuracy->count() < mResults->allMetricNames(0).size())
            updateMetricChoices();
    });
    updateMetricChoices();
}

bool PlotPanel::barWrapped() const
{
    return mBar->isWrapped();
}

void PlotPanel::setHistory(const RunHistory *history)
{
    for (MetricPlot *plot : std::as_const(mPlots))
        plot->setHistory(history);
}

void PlotPanel::setRunColors(const QVector<QColor> &colors)
{
    for (MetricPlot *plot : std::as_const(mPlots))
        plot->setRunColors(colors);
}

void PlotPanel::setRunSuffixes(int plot, const QStringList &suffixes)
{
    if (plot >= 0 && plot < mPlots.size())
        mPlots[plot]->setRunSuffixes(suffixes);
}

void PlotPanel::setEpsilonPerAgent(bool perAgent)
{
    mEpsilonMode->setCurrentIndex(perAgent ? 1 : 0); // the connection updates the plot
}

QString PlotPanel::accuracyMetric() const
{
    return mPlots[Accuracy]->metric();
}

void PlotPanel::setAccuracyMetric(const QString &metric)
{
    mPlots[Accuracy]->setMetric(metric);
    const int index = mAccuracy->findData(metric);
    if (index >= 0)
        mAccuracy->setCurrentIndex(index);
}

void PlotPanel::setXAxisBits(bool bits)
{
    const QString x = bits ? QLatin1String(metric::Bits) : QString();
    for (MetricPlot *plot : std::as_const(mPlots))
        plot->setXMetric(x);
    const QSignalBlocker blocker(mXAxis);
    mXAxis->setCurrentIndex(bits ? 1 : 0);
}

void PlotPanel::updateMetricChoices()
{
    const QStringList present = mResults->allMetricNames(std::max(0, mPoint->currentIndex()));
    QStringList offered;
    for (const QString &m : accuracyMetrics())
        if (present.isEmpty() || present.contains(m))
            offered << m;
    const QString current = mPlots[Accuracy]->metric();
    const QSignalBlocker blocker(mAccuracy);
    mAccuracy->clear();
    for (const QString &m : offered)
        mAccuracy->addItem(metricTitle(m), m);
    int index = mAccuracy->findData(current);
    if (index < 0 && !offered.isEmpty()) {
        index = 0;
        mPlots[Accuracy]->setMetric(offered.first());
    }
    mAccuracy->setCurrentIndex(index);
}

void PlotPanel::updatePointChoices()
{
    const QStringList labels = mResults->pointLabels();
    const QSignalBlocker blocker(mPoint);
    mPoint->clear();
    for (const QString &l : labels)
        mPoint->addItem(QStringLiteral("%1 = %2").arg(mResults->sweepParameter(), l));
    const bool sweep = labels.size() > 1;
    mPoint->setVisible(sweep);
    mPointLabel->setVisible(sweep);
    mBar->arrange();
    for (MetricPlot *plot : std::as_const(mPlots))
        plot->setPoint(0);
}

void PlotPanel::showOutcome(const ExperimentResult &result)
{
    if (result.points.empty())
        return;
    // Name the accountant of every run in the ε legend, and the status in every legend.
    const PointResult &point = result.points.front();
    QStringList accountants, statuses;
    for (const RunResult &r : point.runs) {
        accountants << toQString(r.accountant);
        const RunStatus status = r.status();
        QString text;
        if (status == RunStatus::Diverged) {
            long long at = -1;
            for (const RepetitionResult &rep : r.repetitions)
                if (rep.divergedAt >= 0 && (at < 0 || rep.divergedAt < at))
                    at = rep.divergedAt;
            text = tr("diverged at %1").arg(at);
        } else if (status == RunStatus::Cancelled) {
            // Stopped before its first iteration: nothing recorded, as the runs list says.
            bool started = false;
            for (const RepetitionResult &rep : r.repetitions)
                started = started || !rep.iterations.empty();
            text = started ? tr("cancelled") : tr("not started");
        }
        statuses << text;
    }
    // Accountant names are long: one per run would crowd the ε legend. Name each distinct
    // accountant once in the subtitle and tag the runs with its letter.
    QStringList distinct;
    for (const QString &a : std::as_const(accountants))
        if (!a.isEmpty() && !distinct.contains(a))
            distinct << a;
    QStringList tags;
    QString subtitle;
    if (distinct.size() == 1) {
        subtitle = tr("accountant: %1").arg(distinct.first());
        tags = statuses;
    } else if (distinct.size() > 1) {
        QStringList parts;
        for (int k = 0; k < distinct.size(); ++k)
            parts << QStringLiteral("%1: %2").arg(QChar(u'A' + k)).arg(distinct[k]);
        subtitle = parts.join(QStringLiteral(" · "));
        for (int r = 0; r < accountants.size(); ++r) {
            const int k = distinct.indexOf(accountants[r]);
            QString tag = k >= 0 ? QStringLiteral("[%1]").arg(QChar(u'A' + k)) : QString();
            if (!statuses.value(r).isEmpty())
                tag += (tag.isEmpty() ? QString() : QStringLiteral(" ")) + statuses[r];
            tags << tag;
        }
    }
    // What the number is, and a plain flag when it guarantees nothing.
    double worst = std::numeric_limits<double>::quiet_NaN();
    for (const RunResult &r : point.runs)
        for (const RepetitionResult &rep : r.repetitions)
            for (Eigen::Index i = 0; i < rep.epsilonPerAgent.size(); ++i)
                if (std::isnan(worst) || rep.epsilonPerAgent[i] > worst)
                    worst = rep.epsilonPerAgent[i];
    if (!subtitle.isEmpty()) {
        subtitle += tr(" · δ = 0 · %1").arg(mEpsilonMode->currentIndex() == 1 ? tr("max and each agent") : tr("max over agents"));
        const QString note = vacuousEpsilonNote(worst);
        if (!note.isEmpty())
            subtitle += QLatin1Char('\n') + note;
    }
    plot(PlotPanel::Epsilon)->setSubtitle(subtitle);
    plot(PlotPanel::Epsilon)->setToolTip(epsilonExplanation(worst, distinct.join(QStringLiteral("; "))));
    for (int p = 0; p < PlotPanel::PlotCount; ++p)
        setRunSuffixes(p, p == PlotPanel::Epsilon && !distinct.isEmpty() ? tags : statuses);
}

void PlotPanel::resetViews()
{
    for (MetricPlot *plot : std::as_const(mPlots))
        plot->resetView();
}

void PlotPanel::exportPlots()
{
    QString path;
    int dpi = 0;
    QSize size;
    if (!askPlotExportPath(this, tr("Export all plots — one file per plot, named <name>-<metric>"),
                           QStringLiteral("dplab.png"), &path, &dpi, &size))
        return;
    const QStringList files = exportFileNames(path);
    QStringList existing;
    for (const QString &f : files)
        if (QFileInfo::exists(f))
            existing << QFileInfo(f).fileName();
    if (!existing.isEmpty()
        && QMessageBox::question(this, tr("Export plots"),
                                 tr("Replace %n existing file(s)?\n%1", nullptr, int(existing.size()))
                                     .arg(existing.join(QLatin1Char('\n'))))
               != QMessageBox::Yes)
        return;
    QString error;
    QStringList written;
    if (!exportPlotsTo(path, dpi, &error, &written, size)) {
        QMessageBox::warning(this, tr("Export plots"), error);
        return;
    }
    QStringList names;
    for (const QString &f : std::as_const(written))
        names << QFileInfo(f).fileName();
    QMessageBox::information(this, tr("Export plots"),
                             tr("Wrote %n file(s) into %1:\n%2", nullptr, int(written.size()))
                                 .arg(QDir::toNativeSeparators(QFileInfo(path).absolutePath()), names.join(QLatin1Char('\n'))));
}

QStringList PlotPanel::exportFileNames(const QString &path) const
{
    const QFileInfo info(path);
    QStringList files;
    for (MetricPlot *plot : std::as_const(mPlots))
        files << info.dir().filePath(QStringLiteral("%1-%2.%3").arg(info.completeBaseName(), plot->metric(), info.suffix()));
    return files;
}

bool PlotPanel::exportPlotsTo(const QString &path, int dpi, QString *error, QStringList *written, QSize size)
{
    const QStringList files = exportFileNames(path);
    QStringList failed;
    for (int p = 0; p < mPlots.size(); ++p) {
        MetricPlot *plot = mPlots[p];
        const QString &file = files[p];
        QString message;
        if (!exportPlot(plot, file, size.isEmpty() ? plot->size() : size, dpi, &message))
            failed << message;
        else if (written)
            *written << file;
    }
    if (!failed.isEmpty() && error)
        *error = tr("Could not write:\n%1").arg(failed.join(QLatin1Char('\n')));
    return failed.isEmpty();
}

} // namespace dplab
