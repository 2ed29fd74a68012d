// SPDX-License-Identifier: GPL-3.0-or-later
#include "theoryview.h"

#include "metricnames.h"
#include "plotstyle.h"

#include "presentationscale.h"
#include "teachingplot.h"
#include "textconvert.h"

#include "dplab/teaching/theory.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace dplab {

TheoryView::TheoryView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Metric"), this));
    mMetric = new QComboBox(this);
    row->addWidget(mMetric);
    row->addStretch();
    layout->addLayout(row);
    mNote = new QLabel(this);
    mNote->setWordWrap(true);
    mNote->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(mNote);
    fitNote();
    mPlot = new QCustomPlot(this);
    PresentationScale::follow(mPlot); // fonts, ticks and lines at the presentation size
    mPlot->setMinimumHeight(140); // the tab fits beside the network at 1280×720, 200 %
    mPlot->xAxis->setLabel(tr("iteration"));
    mPlot->legend->setVisible(true);
    // Rates fall: the lower left is the emptiest corner of a log–log plot.
    mPlot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignLeft);
    layout->addWidget(mPlot, 1);
    connect(mMetric, &QComboBox::currentIndexChanged, this, &TheoryView::refresh);
}

void TheoryView::fitNote()
{
    // At most three lines: the plot keeps its room at 200 % (the note took half the page).
    mNote->setMaximumHeight(3 * mNote->fontMetrics().lineSpacing() + 2);
}

void TheoryView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitNote();
}

void TheoryView::setSession(const TeachingSession *session)
{
    mSession = session;
    const QString keep = metric();
    mMetric->blockSignals(true);
    mMetric->clear();
    QString preferred;
    if (mSession && mSession->hasResult()) {
        QStringList names;
        for (const auto &run : mSession->result()->points.front().runs)
            for (const auto &n : run.metricNames)
                if (!names.contains(toQString(n)))
                    names << toQString(n);
        for (const QString &name : names)
            mMetric->addItem(metricTitle(name), name); // in words; the name is the data
        // Prefer a metric some run has a rate for.
        for (std::size_t r = 0; r < mSession->experiment()->runs.size() && preferred.isEmpty(); ++r)
            for (const auto &rate : mSession->experiment()->runs[r].algorithm->theory)
                if (names.contains(toQString(rate.metric))) {
                    preferred = toQString(rate.metric);
                    break;
                }
    }
    int index = mMetric->findData(keep);
    if (index < 0)
        index = mMetric->findData(preferred);
    mMetric->setCurrentIndex(std::max(0, index));
    mMetric->blockSignals(false);
    refresh();
}

void TheoryView::setMetric(const QString &metric)
{
    const int i = mMetric->findData(metric);
    if (i >= 0)
        mMetric->setCurrentIndex(i);
}

QString TheoryView::note() const
{
    return mNote->text();
}

QString TheoryView::metric() const
{
    return mMetric->currentData().toString();
}

void TheoryView::setIndex(int index)
{
    mIndex = index;
    if (mCursor && mSession && mSession->hasResult() && mSession->runCount() > 0) {
        const auto &its = mSession->iterations(0);
        const double k = index >= 0 && index < static_cast<int>(its.size()) ? static_cast<double>(its[index]) : 0.0;
        mCursor->point1->setCoords(std::max(k, 0.5), 1);
        mCursor->point2->setCoords(std::max(k, 0.5), 2);
        mPlot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void TheoryView::refresh()
{
    mPlot->clearGraphs();
    mPlot->clearItems();
    mCursor = nullptr;
    mOverlays = 0;
    if (!mSession || !mSession->hasResult() || this->metric().isEmpty()) {
        mNote->setText(tr("Record the experiment to compare it with the rates its papers state."));
        mPlot->replot();
        return;
    }
    const std::string metric = toStdString(this->metric());
    const auto &runs = mSession->result()->points.front().runs;
    double lo = 1e300, hi = -1e300, last = 1;
    QStringList sources, missing;
    const Problem *problem = mSession->experiment()->problem.get();
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const RunResult &run = runs[r];
        const auto recorded = firstRepetitionCurve(run, metric, [](long long k, double v) {
            return std::isfinite(v) && v > 0 && k >= 1 ? std::optional<double>(v) : std::nullopt;
        });
        if (!recorded)
            continue;
        for (const double v : recorded->values) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        if (!recorded->keys.isEmpty())
            last = std::max(last, recorded->keys.back());
        addRunGraph(mPlot, run, static_cast<int>(r), *recorded);
        const RepetitionResult &rep = *recorded->repetition;
        for (const TheoryCurve &curve :
             theoryCurves(mSession->experiment()->runs[r], run.metricNames, rep.iterations, rep.values, problem)) {
            if (curve.metric != metric)
                continue;
            if (!curve.why.empty()) {
                missing << tr("%1: no %2 (%3): %4")
                               .arg(toQString(run.label), toQString(curve.label), toQString(curve.citation),
                                    toQString(curve.why));
                continue;
            }
            if (curve.level && curve.value > 0) {
                // An absolute bound: keep it in view.
                lo = std::min(lo, curve.value);
                hi = std::max(hi, curve.value);
            }
            QVector<double> ck, cv;
            for (std::size_t k = 0; k < curve.iterations.size(); ++k)
                if (curve.iterations[k] >= 1 && curve.values[k] > 0) {
                    ck << static_cast<double>(curve.iterations[k]);
                    cv << curve.values[k];
                }
            QCPGraph *t = mPlot->addGraph();
            // A level's legend entry stays short: its inputs are in the note above the plot.
            t->setName(curve.level ? QStringLiteral("%1 = %2 — %3")
                                         .arg(toQString(curve.label.substr(0, curve.label.find(" = "))),
                                              QString::number(curve.value, 'g', 3),
                                              toQString(curve.citation.substr(0, curve.citation.find(" ("))))
                                   : toQString(curve.label) + QStringLiteral(" — ") + toQString(curve.citation));
            t->setPen(QPen(plotSeriesColor(static_cast<int>(r)), 1.5, Qt::DashLine));
            t->setData(ck, cv, true);
            sources << toQString(run.label) + QStringLiteral(": ") + toQString(curve.label) + QStringLiteral(" (")
                           + toQString(curve.citation) + QStringLiteral(")");
            ++mOverlays;
        }
    }
    QString note = sources.isEmpty()
                       ? tr("No paper states a rate for %1 with these algorithms and parameters.").arg(metricTitle(this->metric()).toLower())
                       : tr("Dashed: the rate each paper states, anchored at the run's first recorded point — the "
                            "slope a theorem guarantees, not its constant; a flat dashed line is an absolute "
                            "steady-state bound. ")
                             + sources.join(QStringLiteral("; "));
    if (!missing.isEmpty())
        note += (sources.isEmpty() ? QStringLiteral(" ") : QStringLiteral("; ")) + missing.join(QStringLiteral("; "));
    mNote->setText(note);
    mNote->setToolTip(note); // the whole note, when its lines are more than the page shows
    mPlot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    mPlot->xAxis->setTicker(makeLogTicker(mPlot->xAxis));
    mPlot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    mPlot->yAxis->setTicker(makeLogTicker(mPlot->yAxis));
    mPlot->yAxis->setLabel(metricTitle(this->metric()));
    if (lo <= hi) {
        mPlot->xAxis->setRange(1, last * 1.2);
        mPlot->yAxis->setRange(lo / 3, hi * 3);
    }
    mCursor = addIterationCursor(mPlot);
    setIndex(mIndex);
    mPlot->replot();
}

} // namespace dplab
