// SPDX-License-Identifier: GPL-3.0-or-later
#include "plotpanel.h"

#include "liveresults.h"
#include "metricnames.h"
#include "metricplot.h"

#include "dplab/engine/metrics.h"

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
#include <QVBoxLayout>

namespace dplab {

namespace {

bool savePlot(MetricPlot *plot, const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("pdf"))
        return plot->savePdf(path);
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(plot->size());
        generator.setViewBox(plot->rect());
        generator.setTitle(plot->metric());
        QCPPainter painter;
        if (!painter.begin(&generator))
            return false;
        plot->toPainter(&painter, plot->width(), plot->height());
        return painter.end();
    }
    return plot->savePng(path, 0, 0, 2.0);
}

} // namespace

PlotPanel::PlotPanel(LiveResults *results, QWidget *parent)
    : QWidget(parent)
    , mResults(results)
    , mXAxis(new QComboBox(this))
    , mAccuracy(new QComboBox(this))
    , mEpsilonMode(new QComboBox(this))
    , mPointLabel(new QLabel(tr("Sweep value"), this))
    , mPoint(new QComboBox(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    layout->setSpacing(2);
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("x axis"), this));
    mXAxis->addItem(tr("iteration"));
    mXAxis->addItem(tr("bits sent"));
    mXAxis->setToolTip(tr("Plot against the iteration or against the bits the agents have sent (mean over repetitions)"));
    bar->addWidget(mXAxis);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Accuracy plot"), this));
    mAccuracy->setToolTip(tr("The metric of the second plot (those the runs record)"));
    mAccuracy->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(mAccuracy);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("ε"), this));
    mEpsilonMode->addItem(tr("max over agents"));
    mEpsilonMode->addItem(tr("max + per agent"));
    mEpsilonMode->setToolTip(tr("Cumulative ε: the network's value (max over agents), or also every agent's "
                                "own ε as thin lines (local DP: each agent has its own budget)"));
    bar->addWidget(mEpsilonMode);
    bar->addSpacing(12);
    bar->addWidget(mPointLabel);
    bar->addWidget(mPoint);
    bar->addStretch(1);
    auto *reset = new QPushButton(tr("Reset views"), this);
    reset->setToolTip(tr("Fit every plot to its data and follow new data (double-click a plot for one)"));
    bar->addWidget(reset);
    auto *exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setToolTip(tr("Save every plot as PNG, SVG or PDF"));
    bar->addWidget(exportButton);
    layout->addLayout(bar);

    auto *grid = new QGridLayout;
    grid->setSpacing(4);
    const QString metrics[PlotCount] = {QLatin1String(metric::ConsensusError), QLatin1String(metric::DistanceToOptimum),
                                        QLatin1String(metric::Epsilon), QLatin1String(metric::Bits)};
    for (int i = 0; i < PlotCount; ++i) {
        auto *plot = new MetricPlot(results, this);
        plot->setMetric(metrics[i]);
        mPlots.push_back(plot);
        grid->addWidget(plot, i / 2, i % 2);
    }
    mPlots[Epsilon]->setAbsentText(tr("No ε: none of these runs has a privacy accountant"));
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
    for (MetricPlot *plot : std::as_const(mPlots))
        plot->setPoint(0);
}

void PlotPanel::resetViews()
{
    for (MetricPlot *plot : std::as_const(mPlots))
        plot->resetView();
}

void PlotPanel::exportPlots()
{
    QString selected;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export plots"), QStringLiteral("dplab-plots.png"),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"),
                                                      &selected);
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    QString suffix = info.suffix();
    if (suffix.isEmpty())
        suffix = selected.contains(QLatin1String("svg")) ? QStringLiteral("svg")
                 : selected.contains(QLatin1String("pdf")) ? QStringLiteral("pdf")
                                                            : QStringLiteral("png");
    QStringList failed;
    for (MetricPlot *plot : std::as_const(mPlots)) {
        const QString file = info.dir().filePath(QStringLiteral("%1-%2.%3").arg(info.completeBaseName(), plot->metric(), suffix));
        if (!savePlot(plot, file))
            failed << file;
    }
    if (!failed.isEmpty())
        QMessageBox::warning(this, tr("Export plots"), tr("Could not write:\n%1").arg(failed.join(QLatin1Char('\n'))));
}

} // namespace dplab
