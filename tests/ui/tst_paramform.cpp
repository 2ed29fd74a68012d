// SPDX-License-Identifier: GPL-3.0-or-later
//
// ParamForm: a form builds for every descriptor in every registry (algorithms, privacy,
// compressors, generators, weight schemes, problems); its values resolve to the descriptor's
// defaults; edits of each editor kind emit the right key and JSON value; per-agent lists and
// schedules round-trip; tooltips carry help, range and condition.
#include "paramform.h"
#include "scheduleeditor.h"
#include "scientificspinbox.h"

#include "dplab/algo/algorithm.h"
#include "dplab/compress/compressor.h"
#include "dplab/graph/generators.h"
#include "dplab/graph/weights.h"
#include "dplab/problem/problem.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include "uitest.h"

#include <QTest>

using namespace dplab;

namespace {

// Specs a form can edit (explicit matrices are edited in the file, nested objects too).
std::vector<ParamSpec> editable(const std::vector<ParamSpec> &specs)
{
    std::vector<ParamSpec> out;
    for (const ParamSpec &s : specs)
        if (!(s.type == ParamType::Text && s.defaultValue.is_null()))
            out.push_back(s);
    return out;
}

void checkDescriptor(const std::string &what, const std::vector<ParamSpec> &allSpecs)
{
    const std::vector<ParamSpec> specs = editable(allSpecs);
    ParamForm form;
    form.setSpecs(specs);
    for (const ParamSpec &s : specs)
        QVERIFY2(form.editor(QString::fromStdString(s.key)), (what + ": no editor for " + s.key).c_str());
    // Required parameters without a default cannot be resolved from the form alone (an optional
    // real, such as a target ε, resolves to "not set").
    bool allDefaults = true;
    for (const ParamSpec &s : specs)
        allDefaults = allDefaults && (!s.defaultValue.is_null() || s.type == ParamType::Real);
    if (!allDefaults)
        return;
    auto fromForm = resolveParams(specs, form.values(), what);
    QVERIFY2(fromForm.ok(), fromForm.ok() ? "" : fromForm.error().toString().c_str());
    auto defaults = resolveParams(specs, Json(), what);
    QVERIFY(defaults.ok());
    QCOMPARE(QString::fromStdString(fromForm->dump()), QString::fromStdString(defaults->dump()));
}

} // namespace

class TestParamForm : public QObject
{
    Q_OBJECT

private slots:
    void everyRegisteredDescriptorBuilds();
    void editsEmitKeyAndValue();
    void invalidValuesAreMarkedAtTheFieldNotReverted();
    void perAgentList();
    void scheduleRoundTrip();
    void setValuesDoesNotEmit();
    void toolTipHasHelpRangeAndCondition();
    void targetEpsilonIsAnExplicitCheckBox();
};

void TestParamForm::everyRegisteredDescriptorBuilds()
{
    for (const AlgorithmDescriptor &d : algorithmRegistry()) {
        checkDescriptor(d.id + ".params", d.params);
        checkDescriptor(d.id + ".privacy", d.privacyParams);
    }
    for (const Descriptor &d : compressorDescriptors())
        checkDescriptor("compressor " + d.id, d.params);
    for (const Descriptor &d : generatorDescriptors())
        checkDescriptor("generator " + d.id, d.params);
    for (const Descriptor &d : weightSchemeDescriptors())
        checkDescriptor("weights " + d.id, d.params);
    for (const Descriptor &d : problemDescriptors())
        checkDescriptor("problem " + d.id, d.params);
}

void TestParamForm::editsEmitKeyAndValue()
{
    ParamForm form;
    ParamSpec schedule;
    schedule.key = "step";
    schedule.type = ParamType::Schedule;
    schedule.defaultValue = 0.1;
    schedule.min = 0;
    schedule.minExclusive = true;
    form.setSpecs({realParam("r", "Real", 0.5, 0, 10, "a real"), intParam("i", "Int", 3, 1, 9, "an int"),
                   boolParam("b", "Bool", false, "a bool"), choiceParam("c", "Choice", "x", {"x", "y"}, "a choice"),
                   schedule});
    QSignalSpy edited(&form, &ParamForm::valueEdited);

    static_cast<ScientificSpinBox *>(form.editor(QStringLiteral("r")))->setValue(2.5);
    QCOMPARE(edited.count(), 1);
    QCOMPARE(edited.last().at(0).toString(), QStringLiteral("r"));
    QCOMPARE(js(edited.last().at(1).value<Json>()), js(Json(2.5)));

    static_cast<QSpinBox *>(form.editor(QStringLiteral("i")))->setValue(7);
    QCOMPARE(js(edited.last().at(1).value<Json>()), js(Json(7)));
    static_cast<QCheckBox *>(form.editor(QStringLiteral("b")))->setChecked(true);
    QCOMPARE(js(edited.last().at(1).value<Json>()), js(Json(true)));
    static_cast<QComboBox *>(form.editor(QStringLiteral("c")))->setCurrentIndex(1);
    QCOMPARE(js(edited.last().at(1).value<Json>()), js(Json("y")));
    QCOMPARE(edited.count(), 4);

    const Json values = form.values();
    QCOMPARE(values.at("r").get<double>(), 2.5);
    QCOMPARE(values.at("i").get<int>(), 7);
    QCOMPARE(values.at("b").get<bool>(), true);
    QCOMPARE(values.at("c").get<std::string>(), std::string("y"));
    QVERIFY(resolveParams(form.specs(), values, "").ok());
    // Out-of-range input is kept and marked (it was clamped or reverted without a word).
    static_cast<QSpinBox *>(form.editor(QStringLiteral("i")))->setValue(100);
    QCOMPARE(form.values().at("i").get<int>(), 100);
    QVERIFY2(form.problem(QStringLiteral("i")).contains(QStringLiteral("must be in [1, 9], got 100")),
             qPrintable(form.problem(QStringLiteral("i"))));
}

void TestParamForm::invalidValuesAreMarkedAtTheFieldNotReverted()
{
    // A step of −0.1 typed into the field reverted silently to 0.05; a step of 0 was accepted
    // and the error appeared only at the bottom of the panel, the field unmarked.
    ParamForm form;
    ParamSpec schedule;
    schedule.key = "gamma";
    schedule.type = ParamType::Schedule;
    schedule.defaultValue = 0.1;
    schedule.min = 0;
    schedule.minExclusive = true;
    schedule.max = 1e6;
    form.setSpecs({realParam("stepsize", "Step size", 0.05, 0, 1e6, "the step",
                             {.minExclusive = true}), schedule});
    form.resize(400, 300);
    form.show();
    QVERIFY(QTest::qWaitForWindowExposed(&form));
    QSignalSpy edited(&form, &ParamForm::valueEdited);
    auto *box = static_cast<ScientificSpinBox *>(form.editor(QStringLiteral("stepsize")));
    auto type = [](QAbstractSpinBox *spin, const QString &text) {
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, text);
        QTest::keyClick(spin, Qt::Key_Return);
    };
    QVERIFY(form.problem(QStringLiteral("stepsize")).isEmpty());
    type(box, QStringLiteral("-0.1"));
    QCOMPARE(box->text(), QStringLiteral("-0.1")); // kept as typed
    QCOMPARE(box->value(), -0.1);
    QVERIFY(box->property("invalid").toBool());
    QVERIFY2(form.problem(QStringLiteral("stepsize")).contains(QStringLiteral("must be in (0, 1e+06], got -0.1")),
             qPrintable(form.problem(QStringLiteral("stepsize"))));
    auto *message = form.findChild<QLabel *>(QStringLiteral("problem_stepsize"));
    QVERIFY(message && message->isVisible());
    // Right under its field, not at the bottom of a panel.
    QVERIFY(message->geometry().top() >= box->geometry().bottom());
    QVERIFY(message->geometry().top() - box->geometry().bottom() < box->height());
    QCOMPARE(js(edited.last().at(1).value<Json>()), js(Json(-0.1)));
    type(box, QStringLiteral("0"));
    QCOMPARE(box->value(), 0.0);
    QVERIFY2(form.problem(QStringLiteral("stepsize")).contains(QStringLiteral("got 0")),
             qPrintable(form.problem(QStringLiteral("stepsize"))));
    type(box, QStringLiteral("0.2"));
    QVERIFY(form.problem(QStringLiteral("stepsize")).isEmpty());
    QVERIFY(!box->property("invalid").toBool());
    QVERIFY(!message->isVisible());
    QCOMPARE(js(edited.last().at(1).value<Json>()), js(Json(0.2)));
    // The arrows step back into the range from an invalid value.
    type(box, QStringLiteral("-3"));
    box->stepBy(1);
    QVERIFY(box->value() > 0);
    // A schedule's scale is checked the same way.
    auto *scale = form.editor(QStringLiteral("gamma"))->findChildren<ScientificSpinBox *>().value(0);
    QVERIFY(scale);
    type(scale, QStringLiteral("0"));
    QVERIFY2(form.problem(QStringLiteral("gamma")).contains(QStringLiteral("must be in (0")),
             qPrintable(form.problem(QStringLiteral("gamma"))));
    // Values shown from the document are checked too (a file with a bad value opens marked).
    form.setValues(Json{{"stepsize", -1.0}, {"gamma", 0.5}});
    QVERIFY(!form.problem(QStringLiteral("stepsize")).isEmpty());
    QVERIFY(form.problem(QStringLiteral("gamma")).isEmpty());
}

void TestParamForm::perAgentList()
{
    ParamSpec spec = realParam("noise", "Noise", 0.0, 0, 100, "per-agent noise");
    spec.perAgent = true;
    ParamForm form;
    form.setSpecs({spec});
    QVERIFY(qobject_cast<ScientificSpinBox *>(form.editor(QStringLiteral("noise"))));
    form.setValues(Json{{"noise", {0.5, 1.0, 2.0}}});
    auto *line = qobject_cast<QLineEdit *>(form.editor(QStringLiteral("noise")));
    QVERIFY(line);
    QCOMPARE(line->text(), QStringLiteral("0.5, 1, 2"));
    QSignalSpy edited(&form, &ParamForm::valueEdited);
    line->setText(QStringLiteral("1, 2,3"));
    emit line->editingFinished();
    QCOMPARE(edited.count(), 1);
    QCOMPARE(js(edited.last().at(1).value<Json>()), js((Json{1.0, 2.0, 3.0})));
    QVERIFY(resolveParams({spec}, form.values(), "privacy", 3).ok());
    // Back to a scalar: a spin box again.
    form.setValues(Json{{"noise", 0.25}});
    QVERIFY(qobject_cast<ScientificSpinBox *>(form.editor(QStringLiteral("noise"))));
}

void TestParamForm::scheduleRoundTrip()
{
    ScheduleEditor editor;
    editor.setScaleRange(0, 10, true);
    const Json polynomial{{"type", "polynomial"}, {"a", 0.5}, {"t0", 2.0}, {"p", 0.6}};
    editor.setValue(polynomial);
    QCOMPARE(js(editor.value()), js(polynomial));
    const Json geometric{{"type", "geometric"}, {"a", 0.25}, {"q", 0.98}};
    editor.setValue(geometric);
    QCOMPARE(js(editor.value()), js(geometric));
    editor.setValue(Json{{"type", "constant"}, {"a", 0.125}});
    QCOMPARE(js(editor.value()), js(Json(0.125))); // a constant is saved as a plain number
    editor.setValue(0.5);
    QCOMPARE(js(editor.value()), js(Json(0.5)));
}

void TestParamForm::setValuesDoesNotEmit()
{
    ParamForm form;
    form.setSpecs({realParam("r", "Real", 0.5, 0, 10, "a real"), boolParam("b", "Bool", false, "")});
    QSignalSpy edited(&form, &ParamForm::valueEdited);
    form.setValues(Json{{"r", 3.0}, {"b", true}});
    QCOMPARE(edited.count(), 0);
    QCOMPARE(form.values().at("r").get<double>(), 3.0);
    QCOMPARE(form.values().at("b").get<bool>(), true);
}

void TestParamForm::toolTipHasHelpRangeAndCondition()
{
    ParamSpec spec = realParam("stepsize", "Step size", 0.1, 0, 1, "The step λ.",
                               {.minExclusive = true, .logScale = true});
    spec.condition = "λ < 1/L";
    spec.unit = "1/L";
    const QString tip = ParamForm::toolTipFor(spec);
    QVERIFY(tip.contains(QStringLiteral("The step λ.")));
    QVERIFY(tip.contains(QStringLiteral("(0, 1]")));
    QVERIFY(tip.contains(QStringLiteral("log scale")));
    QVERIFY(tip.contains(QStringLiteral("λ &lt; 1/L")));
}

void TestParamForm::targetEpsilonIsAnExplicitCheckBox()
{
    // No target is no key: the privacy form shows "calibrate to ε" unticked and writes no
    // "epsilon"; ticking it writes the field's number (> 0), unticking removes the key again.
    const AlgorithmDescriptor *algorithm = findAlgorithm("robust-dp-gt");
    QVERIFY(algorithm);
    ParamForm form;
    form.setSpecs(algorithm->privacyParams);
    QWidget *editor = form.editor(QStringLiteral("epsilon"));
    QVERIFY(editor);
    auto *check = editor->findChild<QCheckBox *>();
    auto *box = editor->findChild<ScientificSpinBox *>();
    QVERIFY(check && box);
    QVERIFY(check->text().contains(QStringLiteral("calibrate to ε")));
    QVERIFY(!check->isChecked());
    QVERIFY(!box->isEnabled());
    QVERIFY(!form.values().contains("epsilon"));
    QVERIFY(box->minimum() > 0.0); // a target the field can show is a valid one

    QSignalSpy edited(&form, &ParamForm::valueEdited);
    check->setChecked(true);
    QCOMPARE(edited.count(), 1);
    QCOMPARE(edited.last().at(0).toString(), QStringLiteral("epsilon"));
    QVERIFY(edited.last().at(1).value<Json>().get<double>() > 0.0);
    QVERIFY(box->isEnabled());
    box->setValue(2.5);
    QCOMPARE(js(edited.last().at(1).value<Json>()), js(Json(2.5)));
    QCOMPARE(form.values().at("epsilon").get<double>(), 2.5);
    auto resolved = resolveParams(form.specs(), form.values(), "privacy");
    QVERIFY2(resolved.ok(), resolved.ok() ? "" : resolved.error().toString().c_str());

    check->setChecked(false);
    QVERIFY(edited.last().at(1).value<Json>().is_null()); // the document removes the key
    QVERIFY(!form.values().contains("epsilon"));
    QVERIFY(!box->isEnabled());

    // Shown from a document: a number ticks the box, no key (or null) unticks it; no signal.
    const int before = edited.count();
    form.setValues(Json{{"epsilon", 7.0}});
    QVERIFY(check->isChecked());
    QCOMPARE(box->value(), 7.0);
    form.setValues(Json{{"epsilon", nullptr}});
    QVERIFY(!check->isChecked());
    form.setValues(Json::object());
    QVERIFY(!check->isChecked());
    QCOMPARE(edited.count(), before);
}

QTEST_MAIN(TestParamForm)
#include "tst_paramform.moc"
