// SPDX-License-Identifier: GPL-3.0-or-later
//
// A lecture at 1280×720 (issue 24): the class is rehearsed on the main window, at 100 % and at
// 200 %. Opening another experiment leaves nothing of the previous one on screen (recording,
// playback cursor, frontier, eavesdropper, status bar rate); every shortcut belongs to one
// action; the wheel changes no field that was not clicked or tabbed into; the Teaching dock
// takes the centre; presentation mode enlarges, hides the editing chrome, shows its indicator,
// leaves on Esc and gives the window back its exact geometry; at 100 % and 200 % every node, the
// transport bar and the selected tab's plot (axis rectangle ≥ 200×120 px) are on screen together.
#include "errorwords.h"
#include "exporter.h"
#include "fulltextcombobox.h"
#include "legendfit.h"
#include "numbertext.h"
#include "plotstyle.h"
#include "experimentdocument.h"
#include "experimentpanel.h"
#include "frontierview.h"
#include "attackpanel.h"
#include "mainwindow.h"
#include "metricplot.h"
#include "playbackcontroller.h"
#include "playbackview.h"
#include "plotpanel.h"
#include "presentationcontroller.h"
#include "presentationscale.h"
#include "runactions.h"
#include "runstatuswidget.h"
#include "teachingdock.h"
#include "teachingpanel.h"
#include "uitest.h"
#include "windowtest.h"

#include <qcustomplot.h>

#include <QAbstractSpinBox>
#include <QLineEdit>
#include <QFile>
#include <QTemporaryDir>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>
#include <QTabBar>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QWheelEvent>

#include <map>
#include <set>

using namespace dplab;

namespace {

const QStringList kTeachingPresets = {
    QStringLiteral(":/presets/teaching-eavesdropper.json"),
    QStringLiteral(":/presets/teaching-privacy-frontier.json"),
    QStringLiteral(":/presets/teaching-noise-accumulation.json"),
    QStringLiteral(":/presets/teaching-push-pull-quadratic.json"),
};

TeachingDock *teachingDock(MainWindow &window)
{
    return window.findChild<TeachingDock *>(QStringLiteral("TeachingDock"));
}

// Every action of the window: its children's, its widgets' and its menus', recursively.
void collectActions(QWidget *widget, std::set<QAction *> &out)
{
    for (QAction *a : widget->actions()) {
        out.insert(a);
        if (a->menu())
            collectActions(a->menu(), out);
    }
}

std::set<QAction *> allActions(MainWindow &window)
{
    std::set<QAction *> out;
    for (QAction *a : window.findChildren<QAction *>())
        out.insert(a);
    collectActions(&window, out);
    for (QWidget *w : window.findChildren<QWidget *>())
        collectActions(w, out);
    for (QAction *a : window.menuBar()->actions())
        if (a->menu())
            collectActions(a->menu(), out);
    return out;
}

bool cursorShown(MainWindow &window)
{
    for (int i = 0; i < PlotPanel::PlotCount; ++i)
        if (MetricPlot *plot = window.plotPanel()->plot(i))
            for (int k = 0; k < plot->itemCount(); ++k)
                if (auto *line = qobject_cast<QCPItemStraightLine *>(plot->item(k)); line && line->visible())
                    return true;
    return false;
}

void sendWheel(QWidget *target)
{
    const QPointF at(target->width() / 2.0, target->height() / 2.0);
    QWheelEvent event(at, target->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &event);
}

// What a room must see after every step: the status bar on screen, every node of a recorded
// network and the whole transport bar's iteration label; while presenting, every visible plot
// keeps an axis rectangle of at least 200×120 px.
QString lectureScreenProblem(MainWindow &window, bool presenting, bool checkTeaching = true)
{
    if (window.height() > 720)
        return QStringLiteral("window %1 px tall").arg(window.height());
    QStatusBar *status = window.statusBar();
    if (!status->isVisible() || status->geometry().bottom() >= window.height())
        return QStringLiteral("status bar off screen");
    TeachingPanel *panel = teachingDock(window)->panel();
    if (checkTeaching && teachingDock(window)->isVisible() && panel->session()->hasResult()) {
        PlaybackView *view = panel->playbackView();
        const QRegion seen = view->visibleRegion();
        for (int a = 0; a < panel->session()->agentCount(); ++a)
            if (!seen.contains(view->agentPosition(a).toPoint()))
                return QStringLiteral("node %1 not on screen (at %2,%3 in a %4×%5 view, seen %6×%7)")
                    .arg(a)
                    .arg(view->agentPosition(a).x())
                    .arg(view->agentPosition(a).y())
                    .arg(view->width())
                    .arg(view->height())
                    .arg(seen.boundingRect().width())
                    .arg(seen.boundingRect().height());
        QLabel *label = panel->iterationLabel();
        if (label->width() < label->sizeHint().width() || label->visibleRegion() != QRegion(label->rect()))
            return QStringLiteral("iteration label cut: %1").arg(label->text());
        // The selected tab's plot on screen with the network and the transport bar, whole.
        if (QWidget *page = panel->tabs()->currentWidget())
            for (QCustomPlot *plot : page->findChildren<QCustomPlot *>()) {
                if (!plot->isVisible())
                    continue;
                if (plot->visibleRegion() != QRegion(plot->rect()))
                    return QStringLiteral("%1's plot cut (%2 of %3 px tall seen)")
                        .arg(panel->tabs()->tabText(panel->tabs()->currentIndex()))
                        .arg(plot->visibleRegion().boundingRect().height())
                        .arg(plot->height());
                plot->replot();
                const QRect r = plot->axisRect()->rect();
                if (r.width() < 200 || r.height() < 120)
                    return QStringLiteral("%1's plot: axis rectangle %2×%3")
                        .arg(panel->tabs()->tabText(panel->tabs()->currentIndex()))
                        .arg(r.width())
                        .arg(r.height());
            }
    }
    if (presenting)
        for (QCustomPlot *plot : window.findChildren<QCustomPlot *>()) {
            if (!plot->isVisible() || plot->visibleRegion().isEmpty())
                continue;
            plot->replot();
            const QRect r = plot->axisRect()->rect();
            if (r.width() < 200 || r.height() < 120)
                return QStringLiteral("%1 (%2): axis rectangle %3×%4")
                    .arg(QString::fromLatin1(plot->metaObject()->className()), plot->parentWidget()->objectName())
                    .arg(r.width())
                    .arg(r.height());
        }
    return QString();
}

// A combo box or label of `root` that a room could not read whole: a combo narrower than its
// current text (elided, "Distance to optim…"), a label narrower than its text or shorter than its
// wrapped lines, or either cut at the side by what holds it. "" when there is none.
QString clippedControl(QWidget *root)
{
    auto cutAtTheSide = [](QWidget *w) { return w->visibleRegion().boundingRect().width() < w->width(); };
    for (QComboBox *box : root->findChildren<QComboBox *>()) {
        if (!box->isVisible() || box->visibleRegion().isEmpty() || box->currentText().isEmpty())
            continue;
        if (box->width() < FullTextComboBox::fullTextWidth(box) || cutAtTheSide(box))
            return QStringLiteral("combo box \"%1\" (%2): %3 px wide, its text needs %4")
                .arg(box->currentText(), box->toolTip().left(40))
                .arg(box->width())
                .arg(FullTextComboBox::fullTextWidth(box));
    }
    for (QLabel *label : root->findChildren<QLabel *>()) {
        if (!label->isVisible() || label->visibleRegion().isEmpty() || label->text().isEmpty())
            continue;
        const bool tooSmall = label->wordWrap() ? label->height() < label->heightForWidth(label->width())
                                                : label->width() < label->minimumSizeHint().width();
        if (tooSmall || cutAtTheSide(label))
            return QStringLiteral("label \"%1\": %2×%3 px, needs %4 (seen %5 px wide)")
                .arg(label->text().left(60))
                .arg(label->width())
                .arg(label->height())
                .arg(label->wordWrap() ? label->heightForWidth(label->width()) : label->minimumSizeHint().width())
                .arg(label->visibleRegion().boundingRect().width());
    }
    return QString();
}

// Two tick labels of `axis` closer than a label's height (vertical axis) or than half their two
// widths (horizontal axis), as the plot last drew them: "" when none overlap.
QString crowdedTicks(QCPAxis *axis)
{
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    const QFontMetricsF metrics(axis->tickLabelFont());
    for (int i = 1; i < ticks.size() && i < labels.size(); ++i) {
        const double apart = std::abs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]));
        const double need = axis->orientation() == Qt::Vertical
                                ? metrics.height()
                                : 0.5 * (metrics.horizontalAdvance(labels[i - 1]) + metrics.horizontalAdvance(labels[i]));
        if (apart < need)
            return QStringLiteral("\"%1\" and \"%2\" %3 px apart on a %4 px axis, a label needs %5")
                .arg(labels[i - 1], labels[i])
                .arg(apart, 0, 'f', 1)
                .arg(axis->orientation() == Qt::Vertical ? axis->axisRect()->height() : axis->axisRect()->width())
                .arg(need, 0, 'f', 1);
    }
    return QString();
}

} // namespace

class TestLecture : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void shortcutsAreUnique();
    void wheelChangesOnlyFocusedFields();
    void openingAnotherExperimentForgetsTheLastOne_data();
    void openingAnotherExperimentForgetsTheLastOne();
    void teachingTakesTheCentre();
    void errorsInWords();
    void toolbarKeepsItsLayoutWhenUndoRenames();
    void notesRenderFormulas();
    void presentationModePresentsAndRestores_data();
    void presentationModePresentsAndRestores();
    void projectorSizeKeepsTheWindow();
    void legendsStayCompact_data();
    void legendsStayCompact();
    void roundOffIsShownAsZero();
    void germanLogAxesReadPowersOfTen();
    void epsilonSaysWhyThereIsNone();
    void plotExportsForPrint();
    void nameShowsItsStart();
    void nothingIsClippedAt1280x720();
    void logTickLabelsKeepApart();
};

void TestLecture::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("DPLabTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_lecture"));
    QSettings().clear();
}

void TestLecture::shortcutsAreUnique()
{
    // F5 was both Run and Presentation Mode: Qt reported an ambiguous shortcut and ran neither.
    MainWindow window;
    std::map<QString, std::set<QAction *>> byKey;
    int keys = 0;
    for (QAction *action : allActions(window))
        for (const QKeySequence &key : action->shortcuts()) {
            if (key.isEmpty())
                continue;
            byKey[key.toString(QKeySequence::PortableText)].insert(action);
            ++keys;
        }
    QVERIFY(keys >= 20); // the enumeration found the menus' and toolbars' actions
    for (const auto &[key, actions] : byKey) {
        QStringList names;
        for (QAction *a : actions)
            names << a->text();
        QVERIFY2(actions.size() == 1, qPrintable(QStringLiteral("%1 is bound to %2").arg(key, names.join(QStringLiteral(", ")))));
    }
    QCOMPARE(byKey.at(QStringLiteral("F5")).count(window.runActions()->runAction()), std::size_t(1));
    QCOMPARE(byKey.at(QStringLiteral("Shift+F5")).count(window.runActions()->stopAction()), std::size_t(1));
    QCOMPARE(byKey.at(QStringLiteral("F11")).count(teachingDock(window)->presentationAction()), std::size_t(1));
    QCOMPARE(byKey.at(QStringLiteral("Esc")).count(teachingDock(window)->leavePresentationAction()), std::size_t(1));
    QVERIFY(!teachingDock(window)->leavePresentationAction()->isEnabled()); // only in presentation mode
}

void TestLecture::wheelChangesOnlyFocusedFields()
{
    // Scrolling the panel turned Iterations 3000 into 2997 and made the file dirty.
    MainWindow window;
    QVERIFY(openShown(window, MainWindow::defaultPreset(), QSize(1280, 720)));
    const Json before = window.document()->toJson();
    int spins = 0, combos = 0;
    for (QAbstractSpinBox *box : window.findChildren<QAbstractSpinBox *>()) {
        if (!box->isVisible() || !box->isEnabled() || box->hasFocus())
            continue;
        const QString text = box->text();
        sendWheel(box);
        QCOMPARE(box->text(), text);
        QVERIFY(!box->hasFocus());
        QCOMPARE(box->focusPolicy(), Qt::StrongFocus);
        ++spins;
    }
    for (QComboBox *box : window.findChildren<QComboBox *>()) {
        if (!box->isVisible() || !box->isEnabled() || box->hasFocus())
            continue;
        const int index = box->currentIndex();
        sendWheel(box);
        QCOMPARE(box->currentIndex(), index);
        ++combos;
    }
    QVERIFY(spins >= 3 && combos >= 3);
    QCoreApplication::processEvents();
    QVERIFY(!window.document()->isModified());
    QCOMPARE(js(window.document()->toJson()), js(before));

    // Clicked into, the wheel edits the field.
    QSpinBox *iterations = nullptr;
    for (QSpinBox *box : window.experimentPanel()->findChildren<QSpinBox *>())
        if (box->isVisible() && box->isEnabled() && box->value() < box->maximum()) {
            iterations = box;
            break;
        }
    QVERIFY(iterations);
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    iterations->setFocus(Qt::MouseFocusReason);
    QTRY_VERIFY(iterations->hasFocus());
    const int value = iterations->value();
    sendWheel(iterations);
    QVERIFY(iterations->value() != value);
    window.document()->undoStack()->setClean();
}

/** The two sizes a lecture is given at: the laptop's 100 % and the projector's 200 %. */
void addScaleRows()
{
    QTest::addColumn<double>("scale");
    QTest::newRow("100 %") << 1.0;
    QTest::newRow("200 %") << 2.0;
}

void TestLecture::openingAnotherExperimentForgetsTheLastOne_data() { addScaleRows(); }
void TestLecture::presentationModePresentsAndRestores_data() { addScaleRows(); }

void TestLecture::openingAnotherExperimentForgetsTheLastOne()
{
    // The eavesdropper preset showed the previous recording ("2000/2000", link 4→2), the
    // frontier tab the previous error, the plots a cursor at an old iteration, the status bar
    // the previous rate.
    QFETCH(double, scale);
    QSettings().remove(QStringLiteral("mainWindow"));
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    TeachingDock *dock = teachingDock(window);
    TeachingPanel *panel = dock->panel();
    // 200 % is the projector size: the class is given in presentation mode, the size chosen in it.
    if (scale > 1) {
        dock->presentationAction()->trigger();
        window.setPresentationScale(scale, false);
    }
    for (int i = 0; i + 1 < kTeachingPresets.size(); ++i) {
        QVERIFY(window.openPreset(kTeachingPresets[i]));
        QVERIFY2(window.height() <= 720 && window.statusBar()->isVisible(),
                 qPrintable(QStringLiteral("%1: %2 px").arg(kTeachingPresets[i]).arg(window.height())));
        // Record, play, pause, click a link, sweep ε (two values, one repetition).
        dock->show();
        dock->raise();
        panel->record();
        QTRY_VERIFY_WITH_TIMEOUT(panel->session()->hasResult() && !panel->session()->isBusy(), 60000);
        panel->controller()->setSpeed(0);
        panel->controller()->play();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->controller()->isPlaying(), 30000);
        panel->controller()->setIndex(panel->controller()->count() / 2);
        QVERIFY(cursorShown(window));
        QVERIFY(!panel->iterationLabel()->text().isEmpty());
        QCoreApplication::processEvents();
        QString problem = lectureScreenProblem(window, scale > 1);
        QVERIFY2(problem.isEmpty(), qPrintable(kTeachingPresets[i] + QStringLiteral(": ") + problem));
        const Graph &graph = panel->session()->experiment()->graph;
        if (!graph.edges().empty())
            emit panel->playbackView()->edgeClicked(graph.edges().front().from, graph.edges().front().to);
        panel->frontierView()->setRange(1, 10, 2, 1);
        panel->sweepEpsilon();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->frontierView()->isRunning(), 120000);
        // A sweep that cannot run says why in words, not as a JSON path alone.
        QVERIFY2(!panel->frontierView()->statusText().contains(QStringLiteral("epsilon: needs")),
                 qPrintable(panel->frontierView()->statusText()));

        // Switch experiment: nothing of the previous one stays.
        QVERIFY(window.openPreset(kTeachingPresets[i + 1]));
        QVERIFY(!panel->session()->hasResult());
        QCOMPARE(panel->currentIteration(), qint64(-1));
        QVERIFY(panel->iterationLabel()->text().isEmpty());
        QCOMPARE(panel->runBox()->count(), 0);
        QVERIFY(!panel->statusText().contains(QStringLiteral("Link")));
        QVERIFY(!panel->statusText().contains(QStringLiteral("Recorded")));
        QVERIFY(!panel->frontierView()->result().has_value());
        QCOMPARE(panel->frontierView()->plot()->plottableCount(), 0);
        QCOMPARE(panel->frontierView()->plot()->yAxis->label(), QString());
        QCOMPARE(panel->attackPanel()->plot()->graphCount(), 0);
        // No empty legend boxes on the emptied plots.
        QVERIFY(!panel->frontierView()->plot()->legend->visible());
        QVERIFY(!panel->attackPanel()->plot()->legend->visible());
        QVERIFY(!cursorShown(window));
        QVERIFY(window.runStatus()->stateText() == QStringLiteral("idle"));
        // While presenting a recording, no live-run read-out ("iteration 0 0 it/s") with no run going.
        for (QLabel *label : window.statusBar()->findChildren<QLabel *>())
            QVERIFY2(!label->isVisible() || (!label->text().contains(QStringLiteral("it/s"))
                                             && !label->text().startsWith(QStringLiteral("iteration"))),
                     qPrintable(label->text()));
        QVERIFY2(window.height() <= 720, qPrintable(QString::number(window.height())));
    }
    // The frontier tab's own button sweeps the experiment on screen, not a stale one.
    auto *button = panel->frontierView()->findChild<QPushButton *>();
    QVERIFY(button);
    panel->frontierView()->setRange(1, 10, 2, 1);
    button->click();
    QVERIFY(panel->frontierView()->isRunning() || panel->frontierView()->result().has_value()
            || panel->frontierView()->statusText().contains(QStringLiteral("Cannot")));
    QTRY_VERIFY_WITH_TIMEOUT(!panel->frontierView()->isRunning(), 120000);
    if (scale > 1)
        dock->presentationAction()->trigger();
    window.setPresentationScale(1.0, false);
    window.document()->undoStack()->setClean();
}

void TestLecture::teachingTakesTheCentre()
{
    // The network was drawn twice: in the editor and small in the dock (3 of 6 nodes shown).
    QSettings().remove(QStringLiteral("mainWindow"));
    MainWindow window;
    QVERIFY(openShown(window, kTeachingPresets[0], QSize(1280, 720)));
    window.resetLayout();
    TeachingDock *dock = teachingDock(window);
    QTRY_VERIFY2(window.centralWidget()->isVisible(),
                 qPrintable(QStringLiteral("teaching dock visible %1").arg(dock->isVisible())));
    dock->show();
    dock->raise();
    auto *resultsDock = window.findChild<QDockWidget *>(QStringLiteral("PlotDock"));
    QTRY_VERIFY2(!window.centralWidget()->isVisible(),
                 qPrintable(QStringLiteral("results visible %1, tabbed %2, teaching %3x%4")
                                .arg(resultsDock->isVisible())
                                .arg(window.tabifiedDockWidgets(dock).size())
                                .arg(dock->width())
                                .arg(dock->height())));
    QVERIFY(dock->height() > 400);
    auto *results = window.findChild<QDockWidget *>(QStringLiteral("PlotDock"));
    results->raise(); // back to editing: the editor returns
    QTRY_VERIFY2(window.centralWidget()->isVisible(),
                 qPrintable(QStringLiteral("teaching dock visible %1, hidden %2").arg(dock->isVisible()).arg(dock->isHidden())));
    window.document()->undoStack()->setClean();
}

void TestLecture::toolbarKeepsItsLayoutWhenUndoRenames()
{
    // Undo became "Undo Add node", widened and pushed Redo into the toolbar's overflow.
    MainWindow window;
    QVERIFY(openShown(window, MainWindow::defaultPreset(), QSize(1280, 720)));
    auto *bar = window.findChild<QToolBar *>(QStringLiteral("GraphToolBar"));
    auto *undo = window.findChild<QAction *>(QStringLiteral("UndoButton"));
    auto *redo = window.findChild<QAction *>(QStringLiteral("RedoButton"));
    QVERIFY(bar && undo && redo);
    QVERIFY(!undo->isEnabled());
    const int width = bar->widgetForAction(undo)->width();
    const QPoint redoAt = bar->widgetForAction(redo)->pos();
    window.document()->setValue("/iterations", 123, QStringLiteral("Change a very long setting name"));
    QCoreApplication::processEvents();
    QVERIFY(undo->isEnabled());
    QVERIFY(undo->toolTip().contains(QStringLiteral("Change a very long setting name")));
    QCOMPARE(bar->widgetForAction(undo)->width(), width);
    QCOMPARE(bar->widgetForAction(redo)->pos(), redoAt);
    undo->trigger();
    QVERIFY(!window.document()->isModified());
}

void TestLecture::errorsInWords()
{
    const QString calibrate = errorInWords(QStringLiteral(
        "runs[1].privacy.epsilon: needs the ℓ1 gradient bound c_l: set privacy.gradient_bound or enable the problem's "
        "per-sample clipping"));
    QVERIFY2(calibrate.startsWith(QStringLiteral("Run 2 cannot be calibrated")), qPrintable(calibrate));
    QVERIFY(calibrate.contains(QStringLiteral("Add a gradient bound c_l in Privacy")));
    const QString other = errorInWords(QStringLiteral("runs[0].params.stepsize: must be positive"));
    QCOMPARE(other, QStringLiteral("Run 1, Parameters ▸ stepsize: must be positive (runs[0].params.stepsize)"));
    QCOMPARE(errorInWords(QStringLiteral("iterations: must be positive")), QStringLiteral("iterations: must be positive"));
}

void TestLecture::notesRenderFormulas()
{
    // The noise-accumulation notes showed raw `∇f_{t+1}` and `Σ_{k<t}` in a fixed 13 px font.
    MainWindow window;
    QVERIFY(window.openPreset(QStringLiteral(":/presets/teaching-noise-accumulation.json")));
    QCoreApplication::processEvents();
    auto *notes = qobject_cast<QTextBrowser *>(teachingDock(window)->panel()->panel(QStringLiteral("notes")));
    QVERIFY(notes);
    const QString text = notes->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("∇f")) && !text.contains(QStringLiteral("_{")), qPrintable(text));
    QVERIFY2(notes->toHtml().contains(QStringLiteral("vertical-align:sub")), qPrintable(notes->toHtml().mid(notes->toHtml().indexOf(QStringLiteral("∇")) - 400, 800)));
    QVERIFY(text.contains(QStringLiteral("Where does the noise go?"))); // the Markdown still renders
    window.document()->undoStack()->setClean();
}

void TestLecture::presentationModePresentsAndRestores()
{
    // Presentation mode hid two tabs and nothing else; at 200 % the window grew to 743 px (the
    // status bar off screen) and stayed so after leaving.
    QFETCH(double, scale);
    QSettings().remove(QStringLiteral("mainWindow"));
    MainWindow window;
    QVERIFY(openShown(window, kTeachingPresets[0], QRect(0, 0, 1280, 720)));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    window.resetLayout();
    QCoreApplication::processEvents();
    const QRect before = window.geometry();
    TeachingDock *dock = teachingDock(window);
    auto *experimentDock = window.findChild<QDockWidget *>(QStringLiteral("ExperimentDock"));
    QVERIFY(experimentDock->isVisible());

    dock->presentationAction()->trigger();
    QVERIFY(dock->presentation()->isActive());
    QVERIFY(PresentationScale::factor() >= TeachingDock::kPresentationScale - 1e-9);
    if (scale > TeachingDock::kPresentationScale) // View ▸ Presentation Size while presenting
        window.setPresentationScale(scale, false);
    QCoreApplication::processEvents();
    QVERIFY(dock->presentationIndicator()->isVisible());
    QCOMPARE(PresentationScale::factor(), std::max(scale, TeachingDock::kPresentationScale));
    // The transport icons enlarge with the text.
    int transportButtons = 0;
    for (QToolButton *button : dock->panel()->findChildren<QToolButton *>())
        if (!button->icon().isNull() && button->parentWidget() && !qobject_cast<QTabBar *>(button->parentWidget())) {
            QVERIFY2(button->iconSize().width() >= 16 * PresentationScale::factor() - 0.5,
                     qPrintable(QString::number(button->iconSize().width())));
            ++transportButtons;
        }
    QVERIFY(transportButtons >= 3);
    QVERIFY(!experimentDock->isVisible());
    for (QToolBar *bar : window.findChildren<QToolBar *>())
        QVERIFY(!bar->isVisible());
    QVERIFY(dock->isVisible());
    QVERIFY(window.statusBar()->isVisible());
    QVERIFY2(window.height() <= 720, qPrintable(QString::number(window.height())));
    QVERIFY(window.statusBar()->geometry().bottom() < window.height());
    dock->panel()->record();
    QTRY_VERIFY_WITH_TIMEOUT(dock->panel()->session()->hasResult(), 60000);
    QCoreApplication::processEvents();
    // Every node, the transport bar and every tab's plot at full size while presenting.
    QString problem;
    for (int tab = 0; tab < dock->panel()->tabs()->count() && problem.isEmpty(); ++tab) {
        dock->panel()->tabs()->setCurrentIndex(tab);
        QCoreApplication::processEvents();
        problem = lectureScreenProblem(window, true);
        if (!problem.isEmpty())
            problem = dock->panel()->tabs()->tabText(tab) + QStringLiteral(": ") + problem;
    }
    QVERIFY2(problem.isEmpty(), qPrintable(problem));

    QTest::keyClick(&window, Qt::Key_Escape);
    QVERIFY(!dock->presentation()->isActive());
    QCoreApplication::processEvents();
    QVERIFY(!dock->presentationIndicator()->isVisible());
    QCOMPARE(PresentationScale::factor(), 1.0); // the size before presenting
    QVERIFY(experimentDock->isVisible());
    QTRY_COMPARE(window.geometry(), before);
    window.setPresentationScale(1.0, false);
    window.document()->undoStack()->setClean();
}

void TestLecture::projectorSizeKeepsTheWindow()
{
    // View ▸ Presentation Size ▸ 200 % outside presentation mode grew a 1280×720 window to
    // 743 px (the status bar off screen), and it stayed so after going back to 100 %.
    QSettings().remove(QStringLiteral("mainWindow"));
    MainWindow window;
    QVERIFY(openShown(window, kTeachingPresets[0], QRect(0, 0, 1280, 720)));
    window.resetLayout();
    QCoreApplication::processEvents();
    const QRect before = window.geometry();
    for (double scale : {1.5, 2.0}) {
        window.setPresentationScale(scale, false);
        for (int i = 0; i < 5; ++i) {
            QTest::qWait(20);
            QCoreApplication::processEvents();
        }
        QVERIFY2(window.height() <= 720, qPrintable(QStringLiteral("%1: %2 px").arg(scale).arg(window.height())));
        QVERIFY2(window.width() <= 1280, qPrintable(QStringLiteral("%1: %2 px").arg(scale).arg(window.width())));
        QVERIFY(window.statusBar()->isVisible());
        QVERIFY(window.statusBar()->geometry().bottom() < window.height());
    }
    window.setPresentationScale(1.0, false);
    QTRY_COMPARE(window.geometry(), before);
    window.document()->undoStack()->setClean();
}

void TestLecture::legendsStayCompact_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<bool>("inset");
    QTest::addColumn<int>("entries");
    // A live plot with 4 runs at 1280×720 (two rows of two under the graph), the ε plot at
    // 1920×1080 (4 runs, two with a second "as printed" curve), a teaching plot with its legend
    // inside the axes.
    QTest::newRow("row, 4 runs, 1280×720") << 310 << 170 << false << 4;
    QTest::newRow("row, ε, 1920×1080") << 470 << 260 << false << 6;
    QTest::newRow("inset, 4 runs, 1280×720") << 420 << 220 << true << 4;
}

void TestLecture::legendsStayCompact()
{
    // With four runs each live plot's legend took half of it; the ε legend, with its accountants'
    // second curves, about 70 %.
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(bool, inset);
    QFETCH(int, entries);
    QCustomPlot plot;
    plot.resize(width, height);
    if (!inset) { // the live plots' layout: the legend in its own row above the axes
        plot.plotLayout()->insertRow(0);
        plot.axisRect()->insetLayout()->take(plot.legend);
        plot.plotLayout()->addElement(0, 0, plot.legend);
        plot.plotLayout()->setRowStretchFactor(0, 0.001);
        plot.legend->setIconSize(18, 8); // as MetricPlot's
        plot.legend->setRowSpacing(0);
        plot.legend->setMargins(QMargins(2, 0, 2, 0));
    }
    plot.legend->setVisible(true);
    const QStringList names = {QStringLiteral("LDP-GT without noise"), QStringLiteral("LDP-GT + DP noise"),
                               QStringLiteral("Push-Pull without noise"), QStringLiteral("Push-Pull + DP noise"),
                               QStringLiteral("LDP-GT + DP noise — Theorem 3 as printed (t indexed from 1)"),
                               QStringLiteral("Push-Pull + DP noise — the accountant's iterated bound")};
    for (const QString &name : names.mid(0, entries)) {
        QCPGraph *graph = plot.addGraph();
        graph->setName(name);
        graph->setData({1, 2, 3}, {1, 2, 3});
    }
    PresentationScale::follow(&plot);
    plot.show(); // laid out at its size
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replot();
    plot.replot(); // the second layout sees the legend the first one fitted
    QCOMPARE(plot.viewport().size(), QSize(width, height));
    const QRect legend = plot.legend->visible() ? plot.legend->outerRect() : QRect();
    const double share = inset ? double(legend.width()) * legend.height() / (double(plot.axisRect()->width()) * plot.axisRect()->height())
                               : double(legend.height()) / plot.height();
    QVERIFY2(share <= kLegendShare + 1e-9, qPrintable(QStringLiteral("the legend covers %1 % (%2×%3)")
                                                          .arg(100 * share, 0, 'f', 0)
                                                          .arg(legend.width())
                                                          .arg(legend.height())));
    QVERIFY(plot.legend->visible()); // every entry fits, shortened where needed
    QCOMPARE(plot.legend->itemCount(), entries);
    for (int i = 0; i < plot.graphCount(); ++i) // the full names are kept
        QCOMPARE(plot.graph(i)->property("dplabFullName").toString(), names[i]);
}

void TestLecture::roundOffIsShownAsZero()
{
    // The comparison table printed "1e+04 ± 9.1e-12": repetitions equal to round-off.
    QCOMPARE(formatMeanStd(1e4, 9.1e-12), QStringLiteral("10000 ± 0"));
    QCOMPARE(formatMeanStd(0.0123, 0.00456), QStringLiteral("0.0123 ± 0.00456"));
    QCOMPARE(formatMeanStd(1e-20, 1e-22), QStringLiteral("1e-20 ± 1e-22")); // small, but not round-off
    QCOMPARE(formatMeanStd(0.0, 0.0), QStringLiteral("0 ± 0"));
}

void TestLecture::germanLogAxesReadPowersOfTen()
{
    // Under a German locale the log axes read "1E-01": QCustomPlot draws 10⁻¹ only from a
    // lower-case exponent mark.
    const QLocale previous;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    {
        QCustomPlot plot;
        plot.resize(400, 300);
        setLogAxis(plot.yAxis, true);
        plot.yAxis->setRange(1e-4, 10);
        setLogAxis(plot.xAxis, false);
        plot.xAxis->setRange(0, 2.5);
        plot.replot();
        const QVector<QString> labels = plot.yAxis->tickVectorLabels();
        QVERIFY(labels.size() >= 3);
        for (const QString &label : labels)
            QVERIFY2(!label.contains(QLatin1Char('E')) && label.contains(QLatin1Char('e')), qPrintable(label));
        QVERIFY(labels.contains(QStringLiteral("1e-01")));
        // The decimal separator stays the locale's.
        QVERIFY2(plot.xAxis->tickVectorLabels().join(QLatin1Char(' ')).contains(QLatin1Char(',')),
                 qPrintable(plot.xAxis->tickVectorLabels().join(QLatin1Char(' '))));
    }
    QLocale::setDefault(previous);
}

void TestLecture::epsilonSaysWhyThereIsNone()
{
    // The eavesdropper preset's ε plot said "none of these runs has a privacy accoun…" (clipped),
    // though LDP-GT has one: it lacks the gradient bound c_l its theorem needs.
    MainWindow window;
    QVERIFY(window.openPreset(kTeachingPresets[0]));
    window.startRun();
    QTRY_VERIFY_WITH_TIMEOUT(window.hasFinishedRun(), 60000);
    QCoreApplication::processEvents();
    MetricPlot *epsilon = window.plotPanel()->plot(PlotPanel::Epsilon);
    const QString text = epsilon->placeholderText();
    QVERIFY2(text.contains(QStringLiteral("LDP-GT + DP noise: its accountant\nneeds a bound c_l on the gradients")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("add a gradient bound c_l in Privacy")), qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("runs[")));
    window.document()->undoStack()->setClean();
}

void TestLecture::plotExportsForPrint()
{
    // Exported plots were a 619×198 pt strip with no size choice, legends cut and "(hover for
    // why)" printed.
    const QVector<PlotExportSize> sizes = plotExportSizes();
    QCOMPARE(sizes.size(), 4);
    QCOMPARE(sizes[1].size.width(), 336); // 3.5 in at 96 per inch
    QCOMPARE(sizes[2].size.width(), 672); // 7 in
    QCOMPARE(sizes[3].size.width() * 9, sizes[3].size.height() * 16); // 16:9
    QCustomPlot plot;
    plot.resize(150, 110);
    plot.plotLayout()->insertRow(0);
    auto *note = new QCPTextElement(&plot, QStringLiteral("⚠ ε = 1e+30 is a vacuous bound (hover for why)"));
    plot.plotLayout()->addElement(0, 0, note);
    plot.legend->setVisible(true);
    const QStringList names = {QStringLiteral("LDP-GT without noise"), QStringLiteral("LDP-GT + DP noise"),
                               QStringLiteral("Push-Pull without noise"), QStringLiteral("Push-Pull + DP noise")};
    for (const QString &name : names) {
        QCPGraph *graph = plot.addGraph();
        graph->setName(name);
        graph->setData({1, 2, 3}, {1, 2, 3});
    }
    PresentationScale::follow(&plot);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replot();
    plot.replot();
    bool shortened = !plot.legend->visible();
    for (int i = 0; i < plot.graphCount(); ++i)
        shortened = shortened || plot.graph(i)->name() != names[i];
    QVERIFY(shortened); // on screen, 150 px leave no room for the whole names
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("plot.svg"));
    QString error;
    QVERIFY2(exportPlot(&plot, file, sizes[2].size, 96, &error), qPrintable(error));
    QFile svg(file);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(svg.readAll());
    QVERIFY(text.contains(QStringLiteral("width=\"%1").arg(sizes[2].size.width()))
            || text.contains(QStringLiteral("width=\"%1mm").arg(sizes[2].size.width() * 25.4 / 96, 0, 'f', 2)));
    for (const QString &name : names)
        QVERIFY2(text.contains(name.toHtmlEscaped()), qPrintable(name));
    QVERIFY(!text.contains(QStringLiteral("hover")));
    QVERIFY(text.contains(QStringLiteral("vacuous bound")));
    QCOMPARE(note->text(), QStringLiteral("⚠ ε = 1e+30 is a vacuous bound (hover for why)")); // the screen keeps its hint
}

void TestLecture::nameShowsItsStart()
{
    // The Name field showed the end of a long name ("…version with and without DP noise").
    MainWindow window;
    QVERIFY(openShown(window, kTeachingPresets[0], QSize(1280, 720)));
    const QString name = QString::fromStdString(window.document()->toJson().value("name", std::string()));
    int found = 0;
    for (QLineEdit *edit : window.experimentPanel()->findChildren<QLineEdit *>())
        if (edit->text() == name) {
            QCOMPARE(edit->cursorPosition(), 0);
            ++found;
        }
    QCOMPARE(found, 1);
    window.document()->undoStack()->setClean();
}

void TestLecture::nothingIsClippedAt1280x720()
{
    // The results bar read "Distance to optim…" and "max over ag…" at 1280×720; the small live
    // plots crowded their log-axis labels into one smear. Each teaching preset and the default
    // one, run, at 100 %; then recorded and presented at 200 %.
    QStringList presets = kTeachingPresets;
    presets << MainWindow::defaultPreset() << QStringLiteral(":/presets/paper002-teaching-gossip.json");
    for (const QString &preset : std::as_const(presets)) {
        QSettings().remove(QStringLiteral("mainWindow"));
        MainWindow window;
        QVERIFY(openShown(window, preset, QRect(0, 0, 1280, 720)));
        window.resetLayout();
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(window.hasFinishedRun(), 120000);
        QCoreApplication::processEvents();
        QString problem = clippedControl(&window);
        QVERIFY2(problem.isEmpty(), qPrintable(preset + QStringLiteral(" at 100 %: ") + problem));
        for (int i = 0; i < PlotPanel::PlotCount; ++i) {
            MetricPlot *plot = window.plotPanel()->plot(i);
            plot->replot();
            plot->replot(); // the ticks follow the axis length the first replot laid out
            problem = crowdedTicks(plot->yAxis);
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("%1, plot %2: %3").arg(preset).arg(i).arg(problem)));
        }

        TeachingDock *dock = teachingDock(window);
        dock->show();
        dock->raise();
        dock->panel()->record();
        QTRY_VERIFY_WITH_TIMEOUT(dock->panel()->session()->hasResult() && !dock->panel()->session()->isBusy(), 60000);
        dock->presentationAction()->trigger();
        window.setPresentationScale(2.0, false);
        QCoreApplication::processEvents();
        QTest::qWait(100); // the presentation size settles through queued re-arrangements
        problem = clippedControl(&window);
        QVERIFY2(problem.isEmpty(), qPrintable(preset + QStringLiteral(" presenting at 200 %: ") + problem));
        dock->presentationAction()->trigger();
        window.setPresentationScale(1.0, false);
        window.document()->undoStack()->setClean();
    }
}

void TestLecture::logTickLabelsKeepApart()
{
    // On the small live plots a log axis over 30 decades drew seven labels in 60 px; a narrow
    // range (1, 2, 5 × 10^k) crowded too. Fewer ticks on a short axis: neighbours at least a
    // label's height apart, at any height, and still at least one label.
    struct Case {
        double lower, upper;
    };
    for (const Case c : {Case{1e-30, 1.0}, Case{0.3, 3.0}, Case{1e-3, 1e3}, Case{2.0, 8.0}})
        for (int height : {70, 90, 120, 200, 400}) {
            QCustomPlot plot;
            plot.resize(300, height);
            setLogAxis(plot.yAxis, true);
            plot.yAxis->setRange(c.lower, c.upper);
            plot.show();
            QVERIFY(QTest::qWaitForWindowExposed(&plot));
            plot.replot();
            plot.replot();
            const QString where = QStringLiteral("[%1, %2] on %3 px: ").arg(c.lower).arg(c.upper).arg(height);
            const QString problem = crowdedTicks(plot.yAxis);
            QVERIFY2(problem.isEmpty(), qPrintable(where + problem));
            QVERIFY2(!plot.yAxis->tickVector().isEmpty(), qPrintable(where + QStringLiteral("no tick")));
            if (height >= 400 && c.upper / c.lower >= 100)
                QVERIFY2(plot.yAxis->tickVector().size() >= 3, qPrintable(where + QString::number(plot.yAxis->tickVector().size())));
        }
    // A linear axis of the same small plots keeps its labels apart too.
    QCustomPlot plot;
    plot.resize(300, 70);
    setLogAxis(plot.yAxis, false);
    plot.yAxis->setRange(0, 9e5);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replot();
    plot.replot();
    QVERIFY2(crowdedTicks(plot.yAxis).isEmpty(), qPrintable(crowdedTicks(plot.yAxis)));
}

QTEST_MAIN(TestLecture)
#include "tst_lecture.moc"
