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
#include "statespaceview.h"
#include "teachingpanel.h"
#include "theoryview.h"
#include "presentationscale.h"
#include "textconvert.h"

#include <qcustomplot.h>

#include <QAction>
#include <QLabel>
#include <QMainWindow>
#include <QStatusBar>
#include <QToolBar>
#include <QMenu>
#include <QMenuBar>
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
    if (tabWith) {
        tabWith->raise();
        dock->mResults = tabWith;
        connect(tabWith, &QDockWidget::visibilityChanged, dock,
                [dock] { QTimer::singleShot(0, dock, &TeachingDock::updateCentre); });
    }
    return dock;
}

TeachingDock::TeachingDock(QMainWindow *window, const Hooks &hooks)
    : QDockWidget(tr("Teaching"), window), mWindow(window), mHooks(hooks), mPanel(new TeachingPanel(this)),
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

    // One experiment's state at a time: whatever replaces the document (open, New, a preset,
    // Open Results) clears the recording, the views built on it and the plots' cursor.
    if (document)
        connect(document, &ExperimentDocument::loaded, mPanel, &TeachingPanel::reset);

    // F5 is Run (as in debuggers); presentation mode takes the full-screen key, and Esc leaves
    // it as in presentation software (docs/teaching.md).
    mPresentationAction = new QAction(tr("&Presentation Mode"), this);
    mPresentationAction->setCheckable(true);
    mPresentationAction->setShortcut(QKeySequence(Qt::Key_F11));
    mPresentationAction->setToolTip(tr("Present: larger text and plots, no editing chrome, the network in the centre; "
                                       "hides the panels and parameters this experiment's presentation settings name, "
                                       "locks the fixed parameters and shows the lesson notes. Esc leaves (F11)."));
    connect(mPresentationAction, &QAction::toggled, mPresentation, &PresentationController::setActive);
    mLeaveAction = new QAction(tr("Leave Presentation Mode"), this);
    mLeaveAction->setShortcut(QKeySequence(Qt::Key_Escape));
    mLeaveAction->setEnabled(false);
    connect(mLeaveAction, &QAction::triggered, mPresentation, [this] { mPresentation->setActive(false); });
    window->addAction(mLeaveAction); // a window shortcut, though in no menu
    mIndicator = new QLabel(tr("● PRESENTING — Esc to leave"), window->statusBar());
    mIndicator->setObjectName(QStringLiteral("PresentationIndicator"));
    mIndicator->setStyleSheet(QStringLiteral("QLabel { background: #c62828; color: white; font-weight: bold; "
                                             "padding: 1px 8px; border-radius: 3px; }"));
    mIndicator->setToolTip(tr("Presentation mode is on: Esc or View ▸ Presentation Mode (F11) leaves it."));
    window->statusBar()->insertPermanentWidget(0, mIndicator);
    mIndicator->hide();
    connect(mPresentation, &PresentationController::activeChanged, this, [this](bool active) {
        mPresentationAction->setChecked(active);
        mLeaveAction->setEnabled(active);
        if (active)
            enterPresentation();
        else
            leavePresentation();
    });
    // After the tab switch or the undocking has settled (the signals come mid-way).
    auto queueCentre = [this] { QTimer::singleShot(0, this, &TeachingDock::updateCentre); };
    connect(this, &QDockWidget::visibilityChanged, this, queueCentre);
    connect(this, &QDockWidget::topLevelChanged, this, queueCentre);
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
    *connection = connect(mPanel, &TeachingPanel::recorded, this, [this, requested = tab, connection] {
        disconnect(*connection);
        // Beside the network: the state space, or — when the decisions are not 2-D and it would be
        // an empty plot with a note in front of the room — the first link's messages.
        const bool known = QStringList{QStringLiteral("message"), QStringLiteral("eavesdropper"), QStringLiteral("frontier"),
                                       QStringLiteral("theory"), QStringLiteral("notes")}
                               .contains(requested);
        const QString tab = !known && !mPanel->stateSpace()->applies() ? QStringLiteral("message") : requested;
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
            // The network is always in view; beside it, the state space.
            tabs->setCurrentWidget(mPanel->panel(QStringLiteral("state_space")));
        }
    });
    mPanel->record();
}

void TeachingDock::updateCentre()
{
    QWidget *centre = mWindow->centralWidget();
    if (!centre)
        return;
    // isVisible() is false while the dock is a hidden tab (the Results tab raised).
    // In use: shown docked, and not beside a visible Results dock (the editing layout).
    // (A hidden tab can still report isVisible(); its visible region is empty.)
    auto shown = [](QWidget *w) { return w && w->isVisible() && !w->visibleRegion().isEmpty(); };
    const bool teaching = shown(this) && !isFloating() && !shown(mResults);
    if (centre->isHidden() == teaching)
        return;
    // The presentation settings may hide the graph panel too: leave that to them.
    if (!teaching && mPresentation->isActive() && mPresentation->presentation().isPanelHidden("graph"))
        return;
    // Presenting, docked: the dock keeps the centre (it is the one view on screen).
    if (!teaching && mSaved && !isFloating())
        return;
    centre->setVisible(!teaching);
}

void TeachingDock::enterPresentation()
{
    if (mSaved)
        return;
    Saved saved;
    saved.geometry = mWindow->geometry();
    saved.windowState = mWindow->windowState();
    saved.state = mWindow->saveState();
    saved.scale = PresentationScale::factor();
    // Editing chrome: the toolbars and every other dock, the results' tab included (its four
    // plots cannot keep a readable size at 200 % on 1280×720, and with its tab gone the
    // teaching view has the window to itself; View ▸ Results brings it back).
    for (QToolBar *bar : mWindow->findChildren<QToolBar *>(Qt::FindDirectChildrenOnly))
        if (bar->isVisible())
            saved.hidden << bar;
    for (QDockWidget *dock : mWindow->findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly))
        if (dock != this && !dock->isHidden() && dock->widget())
            saved.hidden << dock;
    // The menu bar too (the room goes to the plots at 200 %); its actions stay on the window so
    // that their keys (F5, F11, Ctrl+O…) still work while it is hidden.
    if (QMenuBar *bar = mWindow->menuBar(); bar && bar->isVisible()) {
        saved.hidden << bar;
        for (QAction *menu : bar->actions())
            if (menu->menu())
                for (QAction *a : menu->menu()->actions())
                    if (!a->shortcuts().isEmpty() && !mWindow->actions().contains(a)) {
                        mWindow->addAction(a);
                        saved.addedActions << a;
                    }
    }
    mSaved = saved;
    for (QWidget *w : saved.hidden)
        w->hide();
    PresentationScale::instance()->setFactor(std::max(saved.scale, kPresentationScale), false);
    // The dock's tab says what it is: its title bar's height goes to the network.
    setTitleBarWidget(new QWidget(this));
    mIndicator->show();
    show();
    raise();
    // The network is the centre while presenting (docked): the editor gives it its place even
    // before the window is first shown (--presentation-mode), when no dock has a visible region.
    if (!isFloating() && mWindow->centralWidget())
        mWindow->centralWidget()->hide();
    updateCentre();
}

void TeachingDock::leavePresentation()
{
    if (!mSaved)
        return;
    const Saved saved = *mSaved;
    mSaved.reset();
    mIndicator->hide();
    if (QWidget *empty = titleBarWidget()) {
        setTitleBarWidget(nullptr);
        empty->deleteLater();
    }
    PresentationScale::instance()->setFactor(saved.scale, false);
    for (QAction *a : saved.addedActions)
        mWindow->removeAction(a);
    for (QWidget *w : saved.hidden)
        w->show();
    // Exactly as before: the docks' places and sizes, then the window's geometry.
    mWindow->restoreState(saved.state);
    // (Not restoreGeometry: it moves a window larger than the screen's available area, so a
    // window that was exactly 1280×720 would not come back exactly.)
    mWindow->setWindowState(saved.windowState);
    if (!(saved.windowState & (Qt::WindowMaximized | Qt::WindowFullScreen))) {
        mWindow->setGeometry(saved.geometry);
        // Once more when the smaller fonts have reached every widget: until then the window's
        // minimum size is still the presentation one and may hold it taller.
        QTimer::singleShot(0, mWindow, [window = mWindow, geometry = saved.geometry] {
            if (window->geometry() != geometry && !(window->windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen)))
                window->setGeometry(geometry);
        });
    }
    updateCentre();
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
