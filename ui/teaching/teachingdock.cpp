// SPDX-License-Identifier: GPL-3.0-or-later
#include "teachingdock.h"

#include "experimentdocument.h"
#include "experimentpanel.h"
#include "metricplot.h"
#include "plotpanel.h"
#include "presentationcontroller.h"
#include "attackpanel.h"
#include "messageinspector.h"
#include "playbackcontroller.h"
#include "playbackview.h"
#include "teachingpanel.h"
#include "theoryview.h"
#include "textconvert.h"

#include <qcustomplot.h>

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QScrollArea>
#include <QTabWidget>
#include <QTimer>

#include <memory>

namespace dplab {

TeachingDock *TeachingDock::install(QMainWindow *window, const Hooks &hooks, QDockWidget *tabWith)
{
    auto *dock = new TeachingDock(window, hooks);
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
    if (tabWith)
        window->tabifyDockWidget(tabWith, dock);
    if (tabWith)
        tabWith->raise();
    return dock;
}

TeachingDock::TeachingDock(QMainWindow *window, const Hooks &hooks)
    : QDockWidget(tr("Teaching"), window), mHooks(hooks), mPanel(new TeachingPanel(this)),
      mPresentation(new PresentationController(this))
{
    setObjectName(QStringLiteral("TeachingDock"));
    // In a scroll area, so the panel's minimum width never squeezes the docks beside it.
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(mPanel);
    setWidget(scroll);
    ExperimentDocument *document = hooks.document;
    mPanel->setExperimentSource([document](QString *error) -> std::shared_ptr<const Experiment> {
        if (!document)
            return nullptr;
        auto e = document->validate();
        if (!e) {
            if (error)
                *error = toQString(e.error().toString());
            return nullptr;
        }
        return std::make_shared<const Experiment>(std::move(e.value()));
    });
    connect(mPanel, &TeachingPanel::iterationChanged, this, &TeachingDock::setPlotCursor);

    mPresentation->setTeachingPanel(mPanel);
    mPresentation->setFormRoot(window);
    for (const auto &p : hooks.panels)
        mPresentation->registerPanel(p.first, p.second);
    mPresentation->setDocument(document);
    if (hooks.experimentPanel)
        connect(hooks.experimentPanel, &ExperimentPanel::currentRunChanged, mPresentation,
                [this] { QTimer::singleShot(0, mPresentation, &PresentationController::apply); });

    mPresentationAction = new QAction(tr("&Presentation Mode"), this);
    mPresentationAction->setCheckable(true);
    mPresentationAction->setShortcut(QKeySequence(Qt::Key_F5));
    mPresentationAction->setToolTip(tr("Hide the panels and parameters this experiment's presentation settings name, "
                                       "lock the fixed parameters and show the lesson notes."));
    connect(mPresentationAction, &QAction::toggled, mPresentation, &PresentationController::setActive);
    connect(mPresentation, &PresentationController::activeChanged, this, [this](bool active) {
        mPresentationAction->setChecked(active);
        if (active) {
            show();
            raise();
        }
    });
    mSettingsAction = new QAction(tr("Presentation &Settings…"), this);
    connect(mSettingsAction, &QAction::triggered, this, [this, window] { mPresentation->editSettings(window); });
    mSweepAction = new QAction(tr("ε &Sweep"), this);
    mSweepAction->setToolTip(tr("Run every run at a range of target ε and plot the privacy–utility frontier."));
    connect(mSweepAction, &QAction::triggered, this, [this] {
        show();
        raise();
        mPanel->sweepEpsilon();
    });
    if (hooks.viewMenu) {
        hooks.viewMenu->addSeparator();
        hooks.viewMenu->addAction(toggleViewAction());
        hooks.viewMenu->addAction(mPresentationAction);
        hooks.viewMenu->addAction(mSettingsAction);
    }
    if (hooks.runMenu) {
        hooks.runMenu->addSeparator();
        hooks.runMenu->addAction(mSweepAction);
    }
}

void TeachingDock::showTab(const QString &tab)
{
    show();
    raise();
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(mPanel, &TeachingPanel::recorded, this, [this, tab, connection] {
        disconnect(*connection);
        QTabWidget *tabs = mPanel->tabs();
        const int count = mPanel->controller()->count();
        mPanel->controller()->setIndex(std::min(count - 1, std::max(1, count / 8)));
        if (tab == QLatin1String("message")) {
            mPanel->inspector()->setEdge(0, mPanel->session()->experiment()->graph.edges().empty()
                                                ? 0
                                                : mPanel->session()->experiment()->graph.edges().front().to);
            mPanel->playbackView()->setSelectedEdge(mPanel->inspector()->from(), mPanel->inspector()->to());
            tabs->setCurrentWidget(mPanel->inspector());
        } else if (tab == QLatin1String("eavesdropper")) {
            tabs->setCurrentWidget(mPanel->attackPanel());
            if (mPanel->attackPanel()->plot()->graphCount() == 0)
                mPanel->attackPanel()->runComparison(0);
        } else if (tab == QLatin1String("frontier")) {
            mPanel->sweepEpsilon();
        } else if (tab == QLatin1String("theory")) {
            tabs->setCurrentWidget(mPanel->theoryView());
        } else if (tab == QLatin1String("notes")) {
            tabs->setCurrentWidget(mPanel->panel(QStringLiteral("notes")));
        } else {
            tabs->setCurrentWidget(mPanel->panel(QStringLiteral("playback")));
        }
    });
    mPanel->record();
}

void TeachingDock::setPlotCursor(qint64 k)
{
    if (!mHooks.plots)
        return;
    if (mCursors.isEmpty()) {
        for (int i = 0; i < PlotPanel::PlotCount; ++i) {
            MetricPlot *plot = mHooks.plots->plot(i);
            auto *line = plot ? new QCPItemStraightLine(plot) : nullptr;
            if (line) {
                line->setPen(QPen(QColor(0xff, 0x7f, 0x0e), 1.5, Qt::DashLine));
                line->setSelectable(false);
            }
            mCursors << line;
        }
    }
    for (int i = 0; i < mCursors.size(); ++i) {
        QCPItemStraightLine *line = mCursors[i];
        MetricPlot *plot = mHooks.plots->plot(i);
        if (!line || !plot)
            continue;
        // The cursor marks an iteration: only on plots whose x axis is the iteration.
        line->setVisible(k >= 0 && plot->xMetric().isEmpty());
        line->point1->setCoords(static_cast<double>(k), 1);
        line->point2->setCoords(static_cast<double>(k), 2);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace dplab
