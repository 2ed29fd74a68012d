// SPDX-License-Identifier: GPL-3.0-or-later
#include "problemwidget.h"

#include "elidingcombobox.h"
#include "experimentdocument.h"
#include "mathtext.h"
#include "paramform.h"
#include "textconvert.h"

#include "dplab/engine/experiment.h"
#include "dplab/problem/problem.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace dplab {

namespace {

void writeProblemValue(ExperimentDocument *document, const QString &key, const Json &value)
{
    // The form is flat ("data.name"); the problem object is nested ({"data": {"name": ...}}).
    QString pointer = QStringLiteral("/problem/") + key;
    pointer.replace(QLatin1Char('.'), QLatin1Char('/'));
    document->setValue(toStdString(pointer), value, ProblemWidget::tr("Change %1").arg(key));
}

} // namespace

ProblemWidget::ProblemWidget(ExperimentDocument *document, QWidget *parent)
    : QGroupBox(tr("Problem and data"), parent)
    , mDocument(document)
{
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    mType = new ElidingComboBox(this);
    for (const Descriptor &d : problemDescriptors()) {
        mType->addItem(toQString(d.name), toQString(d.id));
        mType->setItemData(mType->count() - 1, mathToRichText(toQString(d.explanation)), Qt::ToolTipRole);
    }
    form->addRow(tr("Objective"), mType);
    layout->addLayout(form);
    mParams = new ParamForm(this);
    mParams->setProperty("dplabJsonPath", QStringLiteral("problem"));
    layout->addWidget(mParams);
    mGroupBox = new QWidget(this);
    auto *groupLayout = new QVBoxLayout(mGroupBox);
    groupLayout->setContentsMargins(0, 0, 0, 0);
    groupLayout->setSpacing(2);
    layout->addWidget(mGroupBox);
    mNote = new QLabel(this);
    mNote->setWordWrap(true);
    mNote->setStyleSheet(QStringLiteral("color: #555;"));
    layout->addWidget(mNote);

    connect(mType, &QComboBox::activated, this, [this](int index) {
        const std::string id = toStdString(mType->itemData(index).toString());
        Json problem{{"type", id}};
        for (const Descriptor &d : problemDescriptors())
            if (d.id == id)
                for (const ParamSpec &p : d.params)
                    if (p.defaultValue.is_null() && p.type == ParamType::Integer && p.key.find('.') == std::string::npos)
                        problem[p.key] = std::max<long long>(2, static_cast<long long>(p.min)); // e.g. dimension
        mDocument->setValue("/problem", problem, tr("Change problem"));
    });
    connect(mParams, &ParamForm::valueEdited, this, [this](const QString &key, const Json &value) {
        writeProblemValue(mDocument, key, value);
    });
}

void ProblemWidget::setValidated(std::shared_ptr<const Experiment> experiment)
{
    mValidated = std::move(experiment);
    refresh();
}

void ProblemWidget::rebuildForms(const QString &type)
{
    const Descriptor *descriptor = nullptr;
    for (const Descriptor &d : problemDescriptors())
        if (toQString(d.id) == type)
            descriptor = &d;
    std::vector<ParamSpec> top;
    QVector<std::vector<ParamSpec>> nested;
    QStringList prefixes;
    if (descriptor)
        for (const ParamSpec &spec : descriptor->params) {
            const auto dot = spec.key.find('.');
            if (dot == std::string::npos) {
                top.push_back(spec);
                continue;
            }
            const QString prefix = toQString(spec.key.substr(0, dot));
            if (!prefixes.contains(prefix)) {
                prefixes << prefix;
                nested.push_back({});
            }
            nested[prefixes.indexOf(prefix)].push_back(spec);
        }
    mParams->setSpecs(top);
    for (const Group &g : std::as_const(mGroups)) {
        delete g.toggle;
        delete g.form;
    }
    mGroups.clear();
    for (int k = 0; k < prefixes.size(); ++k) {
        Group g{prefixes[k], new QToolButton(mGroupBox), new ParamForm(mGroupBox)};
        g.toggle->setCheckable(true);
        g.toggle->setArrowType(Qt::RightArrow);
        g.toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        g.toggle->setAutoRaise(true);
        g.toggle->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        g.form->setSpecs(nested[k]);
        // Its keys are "data.name" etc., so presentation locks address "problem.data.name".
        g.form->setProperty("dplabJsonPath", QStringLiteral("problem"));
        g.form->setVisible(false);
        connect(g.toggle, &QToolButton::toggled, g.form, [toggle = g.toggle, form = g.form](bool on) {
            toggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
            form->setVisible(on);
        });
        connect(g.form, &ParamForm::valueEdited, this, [this](const QString &key, const Json &value) {
            writeProblemValue(mDocument, key, value);
        });
        mGroupBox->layout()->addWidget(g.toggle);
        mGroupBox->layout()->addWidget(g.form);
        mGroups.push_back(g);
    }
    mFormType = type;
}

void ProblemWidget::refresh()
{
    const Json problem = mDocument->value("/problem");
    const QString type = problem.is_object() ? toQString(problem.value("type", std::string())) : QString();
    {
        const QSignalBlocker blocker(mType);
        mType->setCurrentIndex(mType->findData(type));
    }
    if (mFormType != type)
        rebuildForms(type);
    const Descriptor *descriptor = nullptr;
    for (const Descriptor &d : problemDescriptors())
        if (toQString(d.id) == type)
            descriptor = &d;
    // The form is flat ("data.name"); the problem object is nested ({"data": {"name": ...}}).
    Json flat = Json::object();
    QStringList covered;
    if (descriptor && problem.is_object()) {
        for (const ParamSpec &spec : descriptor->params) {
            std::string pointer = "/" + spec.key;
            std::replace(pointer.begin(), pointer.end(), '.', '/');
            const Json::json_pointer p(pointer);
            if (problem.contains(p))
                flat[spec.key] = problem.at(p);
            covered << toQString(spec.key.substr(0, spec.key.find('.')));
        }
    }
    mParams->setValues(flat);
    for (const Group &g : std::as_const(mGroups)) {
        g.form->setValues(flat);
        // The toggle summarises what the file sets in the group: "data: bundled, breast-cancer".
        QStringList given;
        const Json sub = problem.is_object() ? problem.value(toStdString(g.prefix), Json()) : Json();
        if (sub.is_object())
            for (auto it = sub.begin(); it != sub.end() && given.size() < 3; ++it)
                given << (it->is_string() ? QFileInfo(toQString(it->get<std::string>())).fileName()
                                          : toQString(it->dump()));
        // File paths shown by name, the whole summary elided: the toggle must never widen the
        // panel (a Fashion-MNIST path made it 850 px wide). The full text is the tooltip.
        const QString summary = given.isEmpty() ? g.prefix
                                                : QStringLiteral("%1: %2").arg(g.prefix, given.join(QStringLiteral(", ")));
        g.toggle->setText(g.toggle->fontMetrics().elidedText(summary, Qt::ElideRight, 240));
        g.toggle->setToolTip(summary);
    }
    QStringList extra;
    if (problem.is_object())
        for (auto it = problem.begin(); it != problem.end(); ++it)
            if (it.key() != "type" && !covered.contains(toQString(it.key())))
                extra << toQString(it.key());
    QString note;
    if (!extra.isEmpty())
        note = tr("Also given in the file: %1.").arg(extra.join(QStringLiteral(", ")));
    if (mValidated && mValidated->problem) {
        const Json facts = mValidated->problem->describe();
        QStringList parts;
        for (auto it = facts.begin(); it != facts.end() && parts.size() < 6; ++it)
            if (it->is_primitive())
                parts << QStringLiteral("%1: %2").arg(toQString(it.key()),
                                                      it->is_number_float() ? numberText(it->get<double>(), 4)
                                                      : toQString(it->is_string() ? it->get<std::string>() : it->dump()));
        if (!parts.isEmpty())
            note += (note.isEmpty() ? QString() : QStringLiteral("\n")) + parts.join(QStringLiteral(", "));
    }
    mNote->setText(note);
    mNote->setVisible(!note.isEmpty());
}

} // namespace dplab
