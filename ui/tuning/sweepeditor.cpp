// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweepeditor.h"

#include "experimentdocument.h"
#include "parameterchoices.h"
#include "textconvert.h"

#include "dplab/common/limits.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/sweepgrid.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace dplab {

namespace {

/** A value as the file shows it: 6 significant digits (a log range's 0.0316228, not
 *  0.031622776601683791), a whole number for an integer parameter. */
Json rounded(double v, bool integer)
{
    if (integer)
        return Json(static_cast<long long>(std::llround(v)));
    return Json(QString::number(v, 'g', 6).toDouble());
}

} // namespace

SweepEditor::SweepEditor(ExperimentDocument *document, QWidget *parent)
    : QDialog(parent)
    , mDocument(document)
    , mChoices(new QVector<ParameterChoice>)
{
    setWindowTitle(tr("Sweep a parameter"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Runs the whole experiment once per value. A second parameter makes a grid: every "
                                "pair of values, shown as a heatmap in the Sweep view."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    mAxes[0] = buildAxis(tr("Parameter"));
    layout->addWidget(mAxes[0].box);
    mGrid = new QCheckBox(tr("&Grid with a second parameter"), this);
    layout->addWidget(mGrid);
    mAxes[1] = buildAxis(tr("Second parameter"));
    mAxes[1].box->setEnabled(false);
    connect(mGrid, &QCheckBox::toggled, mAxes[1].box, &QWidget::setEnabled);
    layout->addWidget(mAxes[1].box);
    mStatus = new QLabel(this);
    mStatus->setWordWrap(true);
    layout->addWidget(mStatus);

    auto *buttons = new QHBoxLayout;
    auto *remove = new QPushButton(tr("&Remove sweep"), this);
    auto *set = new QPushButton(tr("&Set sweep"), this);
    set->setDefault(true);
    auto *close = new QPushButton(tr("Close"), this);
    buttons->addWidget(remove);
    buttons->addStretch();
    buttons->addWidget(set);
    buttons->addWidget(close);
    layout->addLayout(buttons);
    connect(set, &QPushButton::clicked, this, [this] {
        if (apply()) {
            mStatus->setText(tr("The sweep is set (Edit ▸ Undo takes it back). Run to see it in the Sweep view."));
        } else {
            mStatus->setText(QStringLiteral("<span style='color:#b00020'>%1</span>").arg(mError.toHtmlEscaped()));
        }
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        mStatus->setText(removeSweep() ? tr("The sweep is removed.") : tr("The experiment has no sweep."));
    });
    connect(close, &QPushButton::clicked, this, &QDialog::close);
    refresh();
}

SweepEditor::~SweepEditor()
{
    delete mChoices;
}

SweepEditor::AxisForm SweepEditor::buildAxis(const QString &title)
{
    AxisForm f;
    f.box = new QGroupBox(title, this);
    auto *form = new QFormLayout(f.box);
    f.parameter = new QComboBox(f.box);
    f.info = new QLabel(f.box);
    f.info->setWordWrap(true);
    form->addRow(tr("Parameter:"), f.parameter);
    form->addRow(QString(), f.info);
    f.asList = new QRadioButton(tr("values"), f.box);
    f.list = new QLineEdit(f.box);
    f.list->setPlaceholderText(tr("e.g. 0.01, 0.03, 0.1"));
    auto *listRow = new QHBoxLayout;
    listRow->addWidget(f.asList);
    listRow->addWidget(f.list, 1);
    form->addRow(listRow);
    f.asRange = new QRadioButton(tr("range"), f.box);
    f.from = new QLineEdit(f.box);
    f.to = new QLineEdit(f.box);
    f.count = new QSpinBox(f.box);
    f.count->setRange(2, static_cast<int>(kMaxSweepValues));
    f.count->setValue(5);
    f.log = new QCheckBox(tr("log"), f.box);
    auto *rangeRow = new QHBoxLayout;
    rangeRow->addWidget(f.asRange);
    rangeRow->addWidget(f.from, 1);
    rangeRow->addWidget(new QLabel(QStringLiteral("…"), f.box));
    rangeRow->addWidget(f.to, 1);
    rangeRow->addWidget(new QLabel(tr("count"), f.box));
    rangeRow->addWidget(f.count);
    rangeRow->addWidget(f.log);
    form->addRow(rangeRow);
    f.asRange->setChecked(true);
    const int index = mAxes[0].box ? 1 : 0;
    connect(f.parameter, &QComboBox::currentIndexChanged, this, [this, index] { onParameterChosen(index); });
    return f;
}

const ParameterChoice *SweepEditor::chosen(int index) const
{
    const int k = mAxes[index].parameter->currentIndex();
    return k >= 0 && k < mChoices->size() ? &(*mChoices)[k] : nullptr;
}

void SweepEditor::onParameterChosen(int index)
{
    const AxisForm &f = mAxes[index];
    const ParameterChoice *c = chosen(index);
    if (!c) {
        f.info->setText(tr("The runs have no numeric parameter."));
        return;
    }
    f.info->setText(tr("Range %1; now %2.").arg(c->rangeText(), QString::number(c->value, 'g', 6)));
    // A decade either side of the current value (inside the range), log for positive values.
    double v = std::isfinite(c->value) && c->value != 0 ? c->value : (c->min > 0 ? c->min * 10 : 1.0);
    double lo = v > 0 ? v / 10 : v * 10, hi = v > 0 ? v * 10 : v / 10;
    if (c->max < 1e299)
        hi = std::min(hi, c->max);
    if (c->min > -1e299 && lo < c->min)
        lo = c->minExclusive ? hi / 100 : c->min;
    if (c->integer) {
        lo = std::ceil(lo);
        hi = std::floor(hi);
    }
    f.from->setText(QString::number(lo, 'g', 6));
    f.to->setText(QString::number(hi, 'g', 6));
    f.log->setChecked(lo > 0 && !c->integer);
}

void SweepEditor::refresh()
{
    *mChoices = numericParameters(mDocument->toJson());
    for (AxisForm &f : mAxes) {
        const QSignalBlocker block(f.parameter);
        f.parameter->clear();
        for (const ParameterChoice &c : *mChoices)
            f.parameter->addItem(c.title());
    }
    for (int a = 0; a < 2; ++a) {
        mAxes[a].parameter->setCurrentIndex(mChoices->isEmpty() ? -1 : std::min(a, int(mChoices->size()) - 1));
        onParameterChosen(a);
    }
    mGrid->setChecked(false);
    // The sweep the document has, when its paths are offered here: shown as a list.
    const Json sweep = mDocument->value("/sweep");
    if (sweep.is_object() && sweep.contains("values") && sweep.at("values").is_array()) {
        auto parameter = sweepParameterFromJson(sweep.value("parameter", Json()));
        if (!parameter)
            return;
        const std::vector<std::string> paths = sweepPaths(SweepSpec{*parameter, {}});
        if (paths.size() > 2)
            return;
        for (std::size_t a = 0; a < paths.size(); ++a) {
            QStringList values;
            for (const Json &v : sweep.at("values")) {
                const Json x = paths.size() == 1 ? v : (v.is_array() && v.size() == paths.size() ? v[a] : Json());
                const QString text = toQString(x.dump());
                if (!values.contains(text))
                    values << text;
            }
            Axis axis;
            axis.path = toQString(paths[a]);
            axis.list = values.join(QStringLiteral(", "));
            setAxis(static_cast<int>(a), axis);
        }
    }
}

bool SweepEditor::setAxis(int index, const Axis &axis, bool enabled)
{
    if (index == 1)
        mGrid->setChecked(enabled);
    if (!enabled)
        return true;
    AxisForm &f = mAxes[index];
    int k = -1;
    for (int i = 0; i < mChoices->size(); ++i)
        if (toQString((*mChoices)[i].path()) == axis.path)
            k = i;
    // With one run, "every run" is that run.
    const QString every = QStringLiteral("runs[*].");
    if (k < 0 && axis.path.startsWith(every) && mDocument->runCount() == 1)
        for (int i = 0; i < mChoices->size(); ++i)
            if (toQString((*mChoices)[i].path()) == QStringLiteral("runs[0].") + axis.path.mid(every.size()))
                k = i;
    if (k < 0)
        return false;
    f.parameter->setCurrentIndex(k);
    onParameterChosen(index);
    f.asRange->setChecked(axis.range);
    f.asList->setChecked(!axis.range);
    if (axis.range) {
        f.from->setText(QString::number(axis.from, 'g', 10));
        f.to->setText(QString::number(axis.to, 'g', 10));
        f.count->setValue(axis.count);
        f.log->setChecked(axis.log);
    } else {
        f.list->setText(axis.list);
    }
    return true;
}

Result<std::vector<Json>> SweepEditor::axisValues(int index) const
{
    const AxisForm &f = mAxes[index];
    const ParameterChoice *c = chosen(index);
    const std::string field = index == 0 ? "Parameter" : "Second parameter";
    if (!c)
        return Error::invalid(field, "choose a numeric parameter of a run");
    std::vector<Json> values;
    if (f.asList->isChecked()) {
        const QStringList items = f.list->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
        if (items.isEmpty())
            return Error::invalid(field + " values", "give one or more numbers, e.g. 0.01, 0.1, 1");
        for (const QString &item : items) {
            bool ok = false;
            const double v = item.toDouble(&ok);
            if (!ok)
                return Error::invalid(field + " values", "\"" + toStdString(item) + "\" is not a number");
            values.push_back(c->integer ? Json(static_cast<long long>(std::llround(v))) : Json(v));
        }
    } else {
        bool okFrom = false, okTo = false;
        const double from = f.from->text().trimmed().toDouble(&okFrom), to = f.to->text().trimmed().toDouble(&okTo);
        if (!okFrom || !okTo)
            return Error::invalid(field + " range", "from and to must be numbers");
        const int n = f.count->value();
        if (f.log->isChecked() && !(from > 0 && to > 0))
            return Error::invalid(field + " range", "a log range needs from and to > 0");
        for (int k = 0; k < n; ++k) {
            const double t = double(k) / double(n - 1);
            const double v = k == 0       ? from
                             : k == n - 1 ? to
                             : f.log->isChecked() ? std::exp(std::log(from) + t * (std::log(to) - std::log(from)))
                                                  : from + t * (to - from);
            const Json x = k == 0 || k == n - 1 ? (c->integer ? rounded(v, true) : Json(v)) : rounded(v, c->integer);
            if (values.empty() || values.back() != x) // integers: a value once
                values.push_back(x);
        }
    }
    for (const Json &v : values)
        if (!c->accepts(v.get<double>()))
            return Error::invalid(field + " values", v.dump() + " is outside " + toStdString(c->label) + "'s range "
                                                         + toStdString(c->rangeText()));
    return values;
}

Result<Json> SweepEditor::sweepJson() const
{
    auto first = axisValues(0);
    if (!first)
        return first.error();
    if (!mGrid->isChecked())
        return Json{{"parameter", chosen(0)->path()}, {"values", *first}};
    auto second = axisValues(1);
    if (!second)
        return second.error();
    if (chosen(0)->path() == chosen(1)->path())
        return Error::invalid("Second parameter", "is the first one: choose another parameter for a grid");
    if (first->size() * second->size() > kMaxSweepValues)
        return Error::invalid("Second parameter values", "the grid has " + std::to_string(first->size() * second->size())
                                                             + " points; at most " + std::to_string(kMaxSweepValues));
    Json values = Json::array();
    for (const Json &a : *first)
        for (const Json &b : *second)
            values.push_back(Json::array({a, b}));
    return Json{{"parameter", Json::array({chosen(0)->path(), chosen(1)->path()})}, {"values", values}};
}

bool SweepEditor::apply()
{
    mError.clear();
    auto sweep = sweepJson();
    if (!sweep) {
        mError = toQString(sweep.error().toString());
        return false;
    }
    // Core resolves the experiment with the sweep (every point) before anything is written.
    Json doc = mDocument->toJson();
    doc["sweep"] = *sweep;
    if (auto resolved = resolveExperiment(doc, toStdString(mDocument->baseDir())); !resolved) {
        mError = toQString(resolved.error().toString());
        return false;
    }
    mDocument->setValue("/sweep", *sweep, tr("Set sweep"));
    return true;
}

bool SweepEditor::removeSweep()
{
    if (mDocument->value("/sweep").is_null())
        return false;
    mDocument->setValue("/sweep", Json(), tr("Remove sweep"));
    return true;
}

} // namespace dplab
