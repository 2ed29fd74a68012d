// SPDX-License-Identifier: GPL-3.0-or-later
//
// ExperimentPanel: for every registered algorithm the generated parameter form round-trips an
// edit into the experiment document (which still validates); algorithms invalid for the graph
// kind are disabled with the reason; undo updates the form; run list buttons edit the runs.
#include "elidingcombobox.h"
#include "experimentdocument.h"
#include "experimentpanel.h"
#include "problemwidget.h"
#include "graphdocument.h"
#include "paramform.h"
#include "presetlibrary.h"
#include "presettest.h"
#include "scheduleeditor.h"
#include "scientificspinbox.h"

#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <QToolButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolTip>
#include "uitest.h"

#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

using namespace dplab;

namespace {

Json presetFor(const AlgorithmDescriptor &algorithm)
{
    Json doc;
    QString error;
    PresetLibrary::read(PresetLibrary::defaultPreset(), &doc, &error);
    if (algorithm.graphKind == GraphKind::Undirected)
        doc["graph"] = Json{{"generator", {{"type", "ring"}, {"nodes", 6}}}};
    doc["runs"] = Json::array({Json{{"label", "r"}, {"algorithm", algorithm.id}}});
    return doc;
}

// A value different from `current` that the spec accepts.
Json otherValue(const ParamSpec &spec, const Json &current)
{
    const double lo = spec.min, hi = spec.max;
    const double v = current.is_number() ? current.get<double>()
                     : current.is_object() ? current.value("a", 0.0)
                                           : 0.0;
    double w = v != 0 ? v * 0.5 : std::min(hi, std::max(lo, 0.0) + 0.5);
    if (w < lo || w > hi || (spec.minExclusive && w <= lo))
        w = std::min(hi, v + 1);
    return w;
}

} // namespace

class TestExperimentPanel : public QObject
{
    Q_OBJECT

private slots:
    void formEditsRoundTripForEveryAlgorithm();
    void invalidAlgorithmsDisabledWithReason();
    void undoUpdatesForm();
    void runButtons();
    void experimentFields();
    void wheelOverUnfocusedFieldScrolls();
    void editingKeepsFormAndScroll();
    void longChoiceShortenedWithTooltip();
};

void TestExperimentPanel::formEditsRoundTripForEveryAlgorithm()
{
    for (const AlgorithmDescriptor &algorithm : algorithmRegistry()) {
        if (algorithm.needsOnline)
            continue; // needs an online preset; covered by the preset runs
        ExperimentDocument doc;
        QString error;
        QVERIFY2(doc.loadJson(presetFor(algorithm), PresetLibrary::baseDir(), QString(), &error), qPrintable(error));
        ExperimentPanel panel(&doc);
        QCOMPARE(panel.algorithmBox()->currentData().toString(), QString::fromStdString(algorithm.id));
        QCOMPARE(panel.paramsForm()->specs().size(), algorithm.params.size());
        QCOMPARE(panel.privacyForm()->specs().size(), algorithm.privacyParams.size());
        for (const std::vector<ParamSpec> *specs : {&algorithm.params, &algorithm.privacyParams}) {
            ParamForm *form = specs == &algorithm.params ? panel.paramsForm() : panel.privacyForm();
            const char *group = specs == &algorithm.params ? "params" : "privacy";
            for (const ParamSpec &spec : *specs) {
                QWidget *editor = form->editor(QString::fromStdString(spec.key));
                QVERIFY(editor);
                const std::string pointer = "/runs/0/" + std::string(group) + "/" + spec.key;
                const Json before = doc.value(pointer);
                if (auto *box = qobject_cast<ScientificSpinBox *>(editor)) {
                    const double target = otherValue(spec, before).get<double>();
                    box->setValue(target);
                    QCOMPARE(doc.value(pointer).get<double>(), box->value());
                } else if (auto *schedule = qobject_cast<ScheduleEditor *>(editor)) {
                    const Json target = otherValue(spec, before);
                    schedule->setValue(Json{{"type", "polynomial"}, {"a", target}, {"t0", 1.0}, {"p", 0.5}});
                    // setValue does not emit; a user edit of the scale does.
                    auto *a = schedule->findChild<ScientificSpinBox *>();
                    QVERIFY(a);
                    a->setValue(a->value() * 0.5);
                    QVERIFY(doc.value(pointer).is_number() || doc.value(pointer).is_object());
                } else if (auto *spin = qobject_cast<QSpinBox *>(editor)) {
                    spin->setValue(spin->value() == spin->maximum() ? spin->value() - 1 : spin->value() + 1);
                    QCOMPARE(doc.value(pointer).get<int>(), spin->value());
                } else {
                    continue;
                }
                auto e = doc.validate();
                QVERIFY2(e.ok(), (algorithm.id + " " + spec.key + ": " + (e.ok() ? "" : e.error().toString())).c_str());
                // The resolved value in the experiment equals what the form shows.
                const Json resolved = e->runs[0].params.contains(spec.key) && std::string(group) == "params"
                                          ? e->runs[0].params.at(spec.key)
                                          : e->runs[0].privacy.at(spec.key);
                if (auto *box = qobject_cast<ScientificSpinBox *>(editor))
                    QCOMPARE(resolved.get<double>(), box->value());
            }
        }
    }
}

void TestExperimentPanel::invalidAlgorithmsDisabledWithReason()
{
    ExperimentDocument d;
    QVERIFY(loadDefaultPreset(d)); // directed graph
    ExperimentPanel panel(&d);
    auto *model = qobject_cast<QStandardItemModel *>(panel.algorithmBox()->model());
    QVERIFY(model);
    int disabled = 0;
    for (int i = 0; i < panel.algorithmBox()->count(); ++i) {
        const AlgorithmDescriptor *a = findAlgorithm(panel.algorithmBox()->itemData(i).toString().toStdString());
        QVERIFY(a);
        const bool shouldBeEnabled = a->graphKind != GraphKind::Undirected && !a->needsOnline;
        if (a->graphKind == GraphKind::Undirected) {
            QVERIFY(!model->item(i)->isEnabled());
            QVERIFY(panel.algorithmBox()->itemData(i, Qt::ToolTipRole).toString().contains(QStringLiteral("undirected")));
            ++disabled;
        } else if (shouldBeEnabled) {
            QVERIFY(model->item(i)->isEnabled());
        }
    }
    bool anyUndirected = false;
    for (const auto &a : algorithmRegistry())
        anyUndirected = anyUndirected || a.graphKind == GraphKind::Undirected;
    QCOMPARE(disabled > 0, anyUndirected);
}

void TestExperimentPanel::undoUpdatesForm()
{
    ExperimentDocument d;
    QVERIFY(loadDefaultPreset(d));
    ExperimentPanel panel(&d);
    panel.setCurrentRun(1);
    const std::string pointer = "/runs/1/privacy/noise_y";
    auto *box = qobject_cast<ScientificSpinBox *>(panel.privacyForm()->editor(QStringLiteral("noise_y")));
    if (!box)
        QSKIP("the default preset's second run has no real noise_y parameter");
    const double before = box->value();
    box->setValue(before * 4);
    QCOMPARE(d.value(pointer).get<double>(), before * 4);
    d.undoStack()->undo();
    QCOMPARE(box->value(), before);
    d.undoStack()->redo();
    QCOMPARE(box->value(), before * 4);
}

void TestExperimentPanel::runButtons()
{
    ExperimentDocument d;
    QVERIFY(loadDefaultPreset(d));
    ExperimentPanel panel(&d);
    QSignalSpy current(&panel, &ExperimentPanel::currentRunChanged);
    panel.setCurrentRun(0);
    QToolButton *add = nullptr, *duplicate = nullptr, *remove = nullptr;
    for (QToolButton *b : panel.findChildren<QToolButton *>()) {
        if (b->text() == QStringLiteral("Add"))
            add = b;
        else if (b->text() == QStringLiteral("Duplicate"))
            duplicate = b;
        else if (b->text() == QStringLiteral("Remove"))
            remove = b;
    }
    QVERIFY(add && duplicate && remove);
    duplicate->click();
    QCOMPARE(d.runCount(), 3);
    QCOMPARE(panel.currentRun(), 1);
    QCOMPARE(panel.runList()->topLevelItemCount(), 3);
    add->click();
    QCOMPARE(d.runCount(), 4);
    QCOMPARE(panel.currentRun(), 3);
    remove->click();
    QCOMPARE(d.runCount(), 3);
    QCOMPARE(panel.runList()->topLevelItemCount(), 3);
    QVERIFY(d.validate().ok());
    // Rename through the list item.
    panel.runList()->topLevelItem(0)->setText(0, QStringLiteral("Renamed"));
    QCOMPARE(d.run(0).at("label").get<std::string>(), std::string("Renamed"));
    QVERIFY(current.count() >= 2);
}

void TestExperimentPanel::experimentFields()
{
    Json doc;
    QString error;
    QVERIFY(PresetLibrary::read(PresetLibrary::defaultPreset(), &doc, &error));
    ExperimentDocument d;
    QVERIFY(d.loadJson(doc, PresetLibrary::baseDir(), QString(), &error));
    ExperimentPanel panel(&d);
    QSpinBox *iterations = nullptr;
    for (QSpinBox *s : panel.findChildren<QSpinBox *>())
        if (s->value() == 1000)
            iterations = s;
    QVERIFY(iterations);
    iterations->setValue(250);
    QCOMPARE(d.value("/iterations").get<int>(), 250);
    d.undoStack()->undo();
    QCOMPARE(iterations->value(), 1000);

    // An absent record_every is the default cadence: shown as "auto", not as 1 (which records
    // every iteration); choosing auto removes the key again.
    doc.erase("record_every");
    QVERIFY(d.loadJson(doc, PresetLibrary::baseDir(), QString(), &error));
    QSpinBox *recordEvery = nullptr;
    for (QSpinBox *s : panel.findChildren<QSpinBox *>())
        if (s->specialValueText() == QStringLiteral("auto"))
            recordEvery = s;
    QVERIFY(recordEvery);
    QCOMPARE(recordEvery->value(), 0);
    QCOMPARE(recordEvery->text(), QStringLiteral("auto"));
    recordEvery->setValue(5);
    QCOMPARE(d.value("/record_every").get<int>(), 5);
    recordEvery->setValue(0);
    QVERIFY(d.value("/record_every").is_null());
    QVERIFY(d.validate().ok());
}

void TestExperimentPanel::wheelOverUnfocusedFieldScrolls()
{
    // Scrolling the panel with the wheel over a closed combo box switched a run's algorithm
    // (Push-Pull → LDP-GT): an unfocused field lets the wheel scroll the panel instead.
    ExperimentDocument doc;
    QVERIFY(loadDefaultPreset(doc));
    ExperimentPanel panel(&doc);
    QVERIFY(shown(panel, 380, 400));
    const std::string before = doc.run(0).value("algorithm", std::string());
    QComboBox *box = panel.algorithmBox();
    QVERIFY(!box->hasFocus());
    const QPointF centre(box->width() / 2.0, box->height() / 2.0);
    for (int delta : {-120, -120, 120}) {
        QWheelEvent wheel(centre, box->mapToGlobal(centre), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(box, &wheel);
    }
    QCOMPARE(doc.run(0).value("algorithm", std::string()), before);
    // Spin boxes too.
    auto *iterations = panel.findChild<QSpinBox *>();
    QVERIFY(iterations && !iterations->hasFocus());
    const int value = iterations->value();
    QWheelEvent wheel(QPointF(5, 5), iterations->mapToGlobal(QPointF(5, 5)), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(iterations, &wheel);
    QCOMPARE(iterations->value(), value);
}

void TestExperimentPanel::editingKeepsFormAndScroll()
{
    // Editing a parameter rebuilt the form and scrolled the panel back to the top.
    ExperimentDocument doc;
    QVERIFY(loadDefaultPreset(doc));
    ExperimentPanel panel(&doc);
    QVERIFY(shown(panel, 380, 300));
    QScrollBar *bar = panel.scrollArea()->verticalScrollBar();
    QTRY_VERIFY(bar->maximum() > 0);
    ParamForm *form = panel.paramsForm();
    QString key;
    QDoubleSpinBox *spin = nullptr;
    for (const ParamSpec &p : form->specs()) {
        QWidget *candidate = form->editor(QString::fromStdString(p.key));
        spin = qobject_cast<QDoubleSpinBox *>(candidate);
        if (!spin && candidate)
            spin = candidate->findChild<QDoubleSpinBox *>(); // a schedule's scale
        if (spin) {
            key = QString::fromStdString(p.key);
            break;
        }
    }
    QVERIFY(spin);
    QWidget *editor = form->editor(key);
    panel.scrollArea()->ensureWidgetVisible(editor);
    bar->setValue(bar->maximum());
    const int scrolled = bar->value();
    QVERIFY(scrolled > 0);
    spin->setFocus();
    const QString before = js(doc.run(0).value("params", Json::object()));
    spin->setValue(spin->value() * 0.5 + 0.01);
    QVERIFY(js(doc.run(0).value("params", Json::object())) != before);
    panel.validateNow();
    QCoreApplication::processEvents();
    QCOMPARE(form->editor(key), editor); // same widget: the form was not rebuilt
    QCOMPARE(bar->value(), scrolled);
}

void TestExperimentPanel::longChoiceShortenedWithTooltip()
{
    // At 1280×720 the objective box cut "Nonconvex logistic regression (paper 001, eq. 37)"
    // mid-letter: where a choice does not fit, the box shows it without its parenthesis (or cut
    // with "…"), its tooltip and its popup the whole choice.
    const QFontMetrics metrics(QApplication::font());
    const int wide = metrics.horizontalAdvance(QStringLiteral("Abcdef (paper 1)"));
    QCOMPARE(ElidingComboBox::shortened(QStringLiteral("Abcdef (paper 1)"), metrics, wide), QStringLiteral("Abcdef (paper 1)"));
    QCOMPARE(ElidingComboBox::shortened(QStringLiteral("Abcdef (paper 1)"), metrics, wide - 1), QStringLiteral("Abcdef"));
    const QString cut = ElidingComboBox::shortened(QStringLiteral("Abcdef (paper 1)"), metrics,
                                                   metrics.horizontalAdvance(QStringLiteral("Abcdef")) - 1);
    QVERIFY2(cut.endsWith(QChar(0x2026)) && QStringLiteral("Abcdef").startsWith(cut.chopped(1)), qPrintable(cut));

    Json json;
    QString error;
    QVERIFY(PresetLibrary::read(QStringLiteral(":/presets/paper001-fig2-nonconvex-logistic.json"), &json, &error));
    ExperimentDocument doc;
    QVERIFY2(doc.loadJson(json, PresetLibrary::baseDir(), QString(), &error), qPrintable(error));
    ExperimentPanel panel(&doc);
    QVERIFY(shown(panel, 330, 500)); // the dock's width at 1280×720
    auto *box = qobject_cast<ElidingComboBox *>(panel.problemWidget()->findChild<QComboBox *>());
    QVERIFY(box);
    const QString full = box->currentText();
    QCOMPARE(full, QStringLiteral("Nonconvex logistic regression (paper 001, eq. 37)"));
    QVERIFY2(box->fontMetrics().horizontalAdvance(full) > box->width(), "the box is wide enough: no test");
    const QString shown = box->displayedText();
    QVERIFY2(shown == QStringLiteral("Nonconvex logistic regression")
                 || (shown.endsWith(QChar(0x2026)) && full.startsWith(shown.chopped(1))),
             qPrintable(shown));
    QVERIFY(box->fontMetrics().horizontalAdvance(shown) < box->width());
    const QPoint centre = box->rect().center();
    QHelpEvent help(QEvent::ToolTip, centre, box->mapToGlobal(centre));
    QApplication::sendEvent(box, &help);
    QTRY_COMPARE(QToolTip::text(), full);
    QToolTip::hideText();
    // The popup lists the whole choice.
    box->showPopup();
    QTRY_VERIFY(box->view()->isVisible());
    QVERIFY2(box->view()->window()->width() > box->fontMetrics().horizontalAdvance(full),
             qPrintable(QStringLiteral("popup %1 px").arg(box->view()->window()->width())));
    box->hidePopup();
    // With room, the whole choice.
    panel.resize(900, 500);
    QTRY_COMPARE(box->displayedText(), full);
}

QTEST_MAIN(TestExperimentPanel)
#include "tst_experimentpanel.moc"
