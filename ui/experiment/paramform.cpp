// SPDX-License-Identifier: GPL-3.0-or-later
#include "paramform.h"
#include "mathtext.h"

#include "scheduleeditor.h"
#include "scientificspinbox.h"
#include "textconvert.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include <algorithm>
#include <climits>
#include <cmath>

namespace dplab {

namespace {

constexpr const char *kPerAgentProperty = "dplabPerAgentList";
constexpr const char *kOptionalProperty = "dplabOptional";

/** A Real spec without a default is optional in core (absent or null: not set). */
bool isOptional(const ParamSpec &spec)
{
    return spec.type == ParamType::Real && spec.defaultValue.is_null();
}

/** The value an optional field shows while unset, so that ticking its box gives a valid number. */
double unsetShownValue(const ParamSpec &spec)
{
    const double lo = spec.minExclusive ? std::nextafter(spec.min, spec.max) : spec.min;
    return std::clamp(1.0, lo, spec.max);
}

QString rangeText(const ParamSpec &spec)
{
    return (spec.minExclusive ? QStringLiteral("(") : QStringLiteral("[")) + boundText(spec.min) + QStringLiteral(", ")
           + boundText(spec.max) + QStringLiteral("]");
}

QString listText(const Json &list)
{
    QStringList parts;
    for (const Json &v : list)
        parts << (v.is_number() ? numberText(v.get<double>(), 10) : toQString(v.dump()));
    return parts.join(QStringLiteral(", "));
}

} // namespace

ParamForm::ParamForm(QWidget *parent)
    : QWidget(parent)
    , mLayout(new QFormLayout(this))
{
    mLayout->setContentsMargins(0, 0, 0, 0);
    mLayout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    mLayout->setRowWrapPolicy(QFormLayout::WrapLongRows);
}

QString ParamForm::toolTipFor(const ParamSpec &spec)
{
    QString tip = QStringLiteral("<p><b>%1</b> (<code>%2</code>)</p>")
                      .arg(mathToHtml(toQString(spec.label)), toQString(spec.key).toHtmlEscaped());
    if (!spec.help.empty())
        tip += QStringLiteral("<p>%1</p>").arg(mathToHtml(toQString(spec.help)));
    if (spec.type == ParamType::Real || spec.type == ParamType::Integer || spec.type == ParamType::Schedule) {
        tip += QStringLiteral("<p>%1 %2").arg(ParamForm::tr("Range:"), rangeText(spec));
        if (!spec.unit.empty())
            tip += QStringLiteral(" %1").arg(toQString(spec.unit).toHtmlEscaped());
        if (spec.logScale)
            tip += ParamForm::tr(" (log scale)");
        tip += QStringLiteral("</p>");
    }
    if (spec.perAgent)
        tip += ParamForm::tr("<p>May be given per agent as a list (one value per agent).</p>");
    if (!spec.condition.empty())
        tip += QStringLiteral("<p><i>%1</i> %2</p>")
                   .arg(ParamForm::tr("Theorem condition:"), mathToHtml(toQString(spec.condition)));
    return tip;
}

void ParamForm::setSpecs(const std::vector<ParamSpec> &specs)
{
    mSpecs = specs;
    rebuild(Json::object());
}

void ParamForm::rebuild(const Json &values)
{
    while (mLayout->rowCount() > 0)
        mLayout->removeRow(0);
    mEditors.clear();
    mProblems.clear();
    mUpdating = true;
    for (const ParamSpec &spec : mSpecs) {
        const Json value = values.is_object() && values.contains(spec.key) ? values.at(spec.key) : spec.defaultValue;
        QWidget *editor = createEditor(spec, value);
        editor->setToolTip(toolTipFor(spec));
        QString label = toQString(spec.label.empty() ? spec.key : spec.label);
        if (!spec.unit.empty())
            label += QStringLiteral(" [%1]").arg(toQString(spec.unit));
        auto *labelWidget = new QLabel(label, this);
        labelWidget->setToolTip(editor->toolTip());
        labelWidget->setBuddy(editor);
        mLayout->addRow(labelWidget, editor);
        mEditors.insert(toQString(spec.key), editor);
        // The message for a value outside the spec, right under its field.
        auto *problem = new QLabel(this);
        problem->setWordWrap(true);
        problem->setObjectName(QStringLiteral("problem_") + toQString(spec.key));
        problem->setStyleSheet(QStringLiteral("color: #c01c28;"));
        problem->setVisible(false);
        mLayout->addRow(problem);
        mProblems.insert(toQString(spec.key), problem);
        check(spec, value);
    }
    mUpdating = false;
}

void ParamForm::check(const ParamSpec &spec, const Json &value)
{
    const QString key = toQString(spec.key);
    QWidget *editor = mEditors.value(key);
    QLabel *label = mProblems.value(key);
    if (!editor || !label)
        return;
    // The validator's own words (resolveParams is what the CLI and Run check). An absent
    // optional value (null) is not a problem.
    const auto resolved = value.is_null() ? Result<Json>(Json()) : resolveParams({spec}, Json{{spec.key, value}}, std::string());
    const QString message = resolved ? QString() : toQString(resolved.error().message);
    const bool invalid = !message.isEmpty();
    if (editor->property("invalid").toBool() == invalid && label->text() == message)
        return;
    editor->setProperty("invalid", invalid);
    editor->setStyleSheet(invalid ? QStringLiteral("QAbstractSpinBox, QLineEdit { border: 2px solid #c01c28; }")
                                  : QString());
    label->setText(message.isEmpty() ? QString() : QStringLiteral("⚠ ") + message);
    label->setVisible(invalid);
}

QString ParamForm::problem(const QString &key) const
{
    const QLabel *label = mProblems.value(key);
    return label && !label->isHidden() ? label->text() : QString();
}

QWidget *ParamForm::createEditor(const ParamSpec &spec, const Json &value)
{
    const QString key = toQString(spec.key);
    auto edited = [this, key, spec](const Json &v) {
        check(spec, v);
        if (!mUpdating)
            emit valueEdited(key, v);
    };
    if (spec.perAgent && value.is_array() && spec.type != ParamType::Schedule) {
        auto *line = new QLineEdit(this);
        line->setProperty(kPerAgentProperty, true);
        line->setText(listText(value));
        line->setPlaceholderText(tr("one value per agent, comma-separated"));
        connect(line, &QLineEdit::editingFinished, this, [this, spec, line, edited] {
            edited(editorValue(spec, line));
        });
        return line;
    }
    if (isOptional(spec)) {
        // An explicit check box: unticked writes no key (null), ticked writes the field's number.
        auto *row = new QWidget(this);
        row->setProperty(kOptionalProperty, true);
        auto *rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        auto *check = new QCheckBox(spec.key == "epsilon" ? tr("calibrate to ε") : tr("set"), row);
        check->setObjectName(QStringLiteral("optionalCheck"));
        auto *box = new ScientificSpinBox(row);
        box->setObjectName(QStringLiteral("optionalValue"));
        const double lo = std::max(spec.min, -1e300);
        const double hi = std::min(spec.max, 1e300);
        // An exclusive minimum stays out of reach: the spin box rounds to its decimals (1e-323),
        // where the smallest double above 0 would become 0, a value the key refuses.
        box->setRange(spec.minExclusive ? std::max(std::nextafter(lo, hi), lo + 1e-300) : lo, hi);
        box->setLogScale(spec.logScale);
        box->setValue(unsetShownValue(spec));
        rowLayout->addWidget(check);
        rowLayout->addWidget(box, 1);
        setEditorValue(spec, row, value);
        connect(check, &QCheckBox::toggled, this, [edited, box](bool on) {
            box->setEnabled(on);
            edited(on ? Json(box->value()) : Json());
        });
        connect(box, &QDoubleSpinBox::valueChanged, this, [edited, check](double v) {
            if (check->isChecked())
                edited(Json(v));
        });
        return row;
    }
    switch (spec.type) {
    case ParamType::Real: {
        auto *box = new ScientificSpinBox(this);
        const double lo = std::max(spec.min, -1e300);
        const double hi = std::min(spec.max, 1e300);
        // Any number may be typed (and is marked when outside the spec, not reverted); the
        // arrows step within the spec (an exclusive minimum of 0: the smallest positive double).
        box->setRange(-1e300, 1e300);
        // (An exclusive 0: 1e-12, not the smallest double, which the box's 323 decimals round to 0.)
        box->setStepRange(spec.minExclusive ? (lo == 0 ? std::min(1e-12, hi) : std::nextafter(lo, hi)) : lo, hi);
        box->setLogScale(spec.logScale);
        setEditorValue(spec, box, value);
        connect(box, &QDoubleSpinBox::valueChanged, this, [edited](double v) { edited(Json(v)); });
        return box;
    }
    case ParamType::Integer: {
        auto *box = new QSpinBox(this);
        // As for reals: any integer may be typed and is marked when outside the spec.
        box->setRange(INT_MIN, INT_MAX);
        box->setKeyboardTracking(false);
        setEditorValue(spec, box, value);
        connect(box, &QSpinBox::valueChanged, this, [edited](int v) { edited(Json(v)); });
        return box;
    }
    case ParamType::Bool: {
        auto *box = new QCheckBox(this);
        setEditorValue(spec, box, value);
        connect(box, &QCheckBox::toggled, this, [edited](bool v) { edited(Json(v)); });
        return box;
    }
    case ParamType::Choice: {
        auto *box = new QComboBox(this);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
        for (const std::string &c : spec.choices)
            box->addItem(toQString(c), toQString(c));
        setEditorValue(spec, box, value);
        connect(box, &QComboBox::currentIndexChanged, this,
                [edited, box](int) { edited(Json(toStdString(box->currentData().toString()))); });
        return box;
    }
    case ParamType::Schedule: {
        auto *editor = new ScheduleEditor(this);
        editor->setScaleRange(spec.minExclusive ? std::nextafter(spec.min, spec.max) : spec.min, spec.max,
                              spec.logScale);
        setEditorValue(spec, editor, value);
        connect(editor, &ScheduleEditor::valueEdited, this, edited);
        return editor;
    }
    case ParamType::Text: {
        auto *line = new QLineEdit(this);
        setEditorValue(spec, line, value);
        connect(line, &QLineEdit::editingFinished, this, [edited, line] { edited(Json(toStdString(line->text()))); });
        return line;
    }
    }
    return new QWidget(this);
}

void ParamForm::setEditorValue(const ParamSpec &spec, QWidget *editor, const Json &value)
{
    if (editor->property(kPerAgentProperty).toBool()) {
        static_cast<QLineEdit *>(editor)->setText(value.is_array() ? listText(value) : listText(Json::array({value})));
        return;
    }
    if (editor->property(kOptionalProperty).toBool()) {
        auto *check = editor->findChild<QCheckBox *>(QStringLiteral("optionalCheck"));
        auto *box = editor->findChild<ScientificSpinBox *>(QStringLiteral("optionalValue"));
        const QSignalBlocker blockCheck(check);
        const QSignalBlocker blockBox(box);
        check->setChecked(value.is_number());
        if (value.is_number()) // unset: the field keeps the number shown last
            box->setValue(value.get<double>());
        box->setEnabled(value.is_number());
        return;
    }
    switch (spec.type) {
    case ParamType::Real:
        if (value.is_number())
            static_cast<ScientificSpinBox *>(editor)->setValue(value.get<double>());
        return;
    case ParamType::Integer:
        if (value.is_number())
            static_cast<QSpinBox *>(editor)->setValue(static_cast<int>(value.get<double>()));
        return;
    case ParamType::Bool:
        if (value.is_boolean())
            static_cast<QCheckBox *>(editor)->setChecked(value.get<bool>());
        return;
    case ParamType::Choice: {
        auto *box = static_cast<QComboBox *>(editor);
        if (value.is_string())
            box->setCurrentIndex(std::max(0, box->findData(toQString(value.get<std::string>()))));
        return;
    }
    case ParamType::Schedule:
        static_cast<ScheduleEditor *>(editor)->setValue(value);
        return;
    case ParamType::Text:
        if (value.is_string())
            static_cast<QLineEdit *>(editor)->setText(toQString(value.get<std::string>()));
        return;
    }
}

Json ParamForm::editorValue(const ParamSpec &spec, QWidget *editor) const
{
    if (editor->property(kPerAgentProperty).toBool()) {
        Json list = Json::array();
        const QStringList parts = static_cast<QLineEdit *>(editor)->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
        for (const QString &part : parts) {
            bool ok = false;
            const double v = part.trimmed().toDouble(&ok);
            if (!ok)
                list.push_back(toStdString(part.trimmed())); // the validator names the bad entry
            else if (spec.type == ParamType::Integer && std::floor(v) == v)
                list.push_back(static_cast<long long>(v));
            else
                list.push_back(v);
        }
        return list;
    }
    if (editor->property(kOptionalProperty).toBool()) {
        if (!editor->findChild<QCheckBox *>(QStringLiteral("optionalCheck"))->isChecked())
            return Json(); // not set: no key
        return editor->findChild<ScientificSpinBox *>(QStringLiteral("optionalValue"))->value();
    }
    switch (spec.type) {
    case ParamType::Real:
        return static_cast<ScientificSpinBox *>(editor)->value();
    case ParamType::Integer:
        return static_cast<QSpinBox *>(editor)->value();
    case ParamType::Bool:
        return static_cast<QCheckBox *>(editor)->isChecked();
    case ParamType::Choice:
        return toStdString(static_cast<QComboBox *>(editor)->currentData().toString());
    case ParamType::Schedule:
        return static_cast<ScheduleEditor *>(editor)->value();
    case ParamType::Text:
        return toStdString(static_cast<QLineEdit *>(editor)->text());
    }
    return Json();
}

void ParamForm::setValues(const Json &values)
{
    // A per-agent list where a scalar editor is (or the other way round) needs a new row.
    for (const ParamSpec &spec : mSpecs) {
        QWidget *editor = mEditors.value(toQString(spec.key));
        const bool isList = editor && editor->property(kPerAgentProperty).toBool();
        const bool wantList = spec.perAgent && values.is_object() && values.contains(spec.key)
                              && values.at(spec.key).is_array();
        if (isList != wantList) {
            rebuild(values);
            return;
        }
    }
    mUpdating = true;
    for (const ParamSpec &spec : mSpecs) {
        QWidget *editor = mEditors.value(toQString(spec.key));
        if (!editor)
            continue;
        const Json value = values.is_object() && values.contains(spec.key) ? values.at(spec.key) : spec.defaultValue;
        const QSignalBlocker blocker(editor);
        setEditorValue(spec, editor, value);
        check(spec, value);
    }
    mUpdating = false;
}

Json ParamForm::values() const
{
    Json out = Json::object();
    for (const ParamSpec &spec : mSpecs)
        if (QWidget *editor = mEditors.value(toQString(spec.key)))
            if (Json value = editorValue(spec, editor); !value.is_null() || !isOptional(spec))
                out[spec.key] = std::move(value);
    return out;
}

} // namespace dplab
