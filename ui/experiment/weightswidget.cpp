// SPDX-License-Identifier: GPL-3.0-or-later
#include "weightswidget.h"

#include "elidingcombobox.h"
#include "experimentdocument.h"
#include "graphdocument.h"
#include "mathtext.h"
#include "paramform.h"
#include "textconvert.h"

#include "dplab/graph/weights.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QUndoStack>

#include <algorithm>

namespace dplab {

namespace {

// Scheme parameters other than the explicit matrix (edited in the file, not in a form).
std::vector<ParamSpec> schemeFormSpecs(const std::string &id)
{
    std::vector<ParamSpec> specs;
    for (const Descriptor &d : weightSchemeDescriptors())
        if (d.id == id)
            for (const ParamSpec &spec : d.params)
                if (spec.key != "matrix")
                    specs.push_back(spec);
    return specs;
}

void fillSchemeBox(QComboBox *box)
{
    for (const Descriptor &d : weightSchemeDescriptors()) {
        box->addItem(toQString(d.name), toQString(d.id));
        QString tip = toQString(d.explanation);
        if (!d.reference.empty())
            tip += QStringLiteral(" (") + toQString(d.reference) + QStringLiteral(")");
        box->setItemData(box->count() - 1, mathToRichText(tip), Qt::ToolTipRole);
    }
}

} // namespace

WeightsWidget::WeightsWidget(ExperimentDocument *document, QWidget *parent)
    : QGroupBox(tr("Graph and weights"), parent)
    , mDocument(document)
{
    auto *form = new QFormLayout(this);
    mDirected = new QCheckBox(tr("Directed (edge j → i: j sends to i)"), this);
    form->addRow(mDirected);
    mRowSchemeLabel = new QLabel(tr("Weights"), this);
    mRowScheme = new ElidingComboBox(this);
    fillSchemeBox(mRowScheme);
    form->addRow(mRowSchemeLabel, mRowScheme);
    mRowSchemeParams = new ParamForm(this);
    form->addRow(mRowSchemeParams);
    mColumnSchemeLabel = new QLabel(tr("Column C"), this);
    mColumnScheme = new ElidingComboBox(this);
    const QString columnTip = tr("Sets C, the column-stochastic matrix (columns sum to 1): each agent splits "
                                 "what it pushes among its out-neighbours (the gradient trackers are pushed)");
    mColumnSchemeLabel->setToolTip(columnTip);
    mColumnScheme->setToolTip(columnTip);
    mColumnScheme->setAccessibleName(tr("Column C scheme"));
    fillSchemeBox(mColumnScheme);
    form->addRow(mColumnSchemeLabel, mColumnScheme);
    mColumnSchemeParams = new ParamForm(this);
    form->addRow(mColumnSchemeParams);

    connect(mDirected, &QCheckBox::toggled, this, [this](bool directed) {
        if (mRefreshing)
            return;
        QUndoStack *stack = mDocument->undoStack();
        stack->beginMacro(directed ? tr("Make graph directed") : tr("Make graph undirected"));
        mDocument->graphDocument()->setDirected(directed);
        // The weights of the other kind rarely fit: back to the default for the new kind.
        mDocument->setValue("/graph/weights", Json(), tr("Default weights"));
        stack->endMacro();
    });
    connect(mRowScheme, &QComboBox::activated, this, &WeightsWidget::writeWeights);
    connect(mColumnScheme, &QComboBox::activated, this, &WeightsWidget::writeWeights);
    connect(mRowSchemeParams, &ParamForm::valueEdited, this, &WeightsWidget::writeWeights);
    connect(mColumnSchemeParams, &ParamForm::valueEdited, this, &WeightsWidget::writeWeights);
}

void WeightsWidget::refresh()
{
    mRefreshing = true;
    const bool directed = mDocument->graphDocument()->graph().isDirected();
    {
        const QSignalBlocker blocker(mDirected);
        mDirected->setChecked(directed);
    }
    // A bare ring4-family scheme shows the generator's targets it takes (as a run resolves it).
    Json weights = mDocument->withGeneratorTargets(mDocument->value("/graph/weights"));
    if (weights.is_null())
        weights = directed ? Json{{"row", {{"scheme", "uniform"}}}, {"column", {{"scheme", "uniform"}}}}
                           : Json{{"scheme", "metropolis"}};
    const bool split = weights.contains("row") || weights.contains("column");
    Json row = split ? weights.value("row", Json{{"scheme", "uniform"}}) : weights;
    Json column = split ? weights.value("column", Json{{"scheme", "uniform"}}) : weights;
    auto show = [](QComboBox *box, ParamForm *form, QString &formScheme, const Json &spec) {
        const QString id = toQString(spec.value("scheme", std::string()));
        const QSignalBlocker blocker(box);
        box->setCurrentIndex(std::max(0, box->findData(id)));
        if (formScheme != id) {
            form->setSpecs(schemeFormSpecs(toStdString(id)));
            formScheme = id;
        }
        form->setValues(spec);
        form->setVisible(!form->isEmpty());
    };
    show(mRowScheme, mRowSchemeParams, mRowSchemeForm, row);
    show(mColumnScheme, mColumnSchemeParams, mColumnSchemeForm, column);
    mRowSchemeLabel->setText(directed ? tr("Row R") : tr("Weights W"));
    // Both combos list the same schemes ("Uniform (row or column by role)"): each says which
    // matrix it sets.
    const QString rowTip = directed ? tr("Sets R, the row-stochastic matrix (rows sum to 1): each agent "
                                         "averages what its in-neighbours send (the decisions are pulled)")
                                    : tr("Sets W, the doubly stochastic matrix of the undirected graph");
    mRowSchemeLabel->setToolTip(rowTip);
    mRowScheme->setToolTip(rowTip);
    mRowScheme->setAccessibleName(directed ? tr("Row R scheme") : tr("Weights W scheme"));
    mColumnSchemeLabel->setVisible(directed);
    mColumnScheme->setVisible(directed);
    mColumnSchemeParams->setVisible(directed && !mColumnSchemeParams->isEmpty());
    mRefreshing = false;
}

void WeightsWidget::writeWeights()
{
    if (mRefreshing)
        return;
    const bool directed = mDocument->graphDocument()->graph().isDirected();
    const Json current = mDocument->value("/graph/weights");
    auto specFrom = [](QComboBox *box, ParamForm *form, const Json &old) {
        const std::string id = toStdString(box->currentData().toString());
        Json spec{{"scheme", id}};
        if (toQString(id) == QLatin1String("matrix") && old.is_object() && old.contains("matrix"))
            spec["matrix"] = old.at("matrix");
        if (old.is_object() && old.value("scheme", std::string()) == id) {
            const Json values = form->values();
            for (auto it = values.begin(); it != values.end(); ++it)
                spec[it.key()] = it.value();
        } else {
            for (const ParamSpec &p : schemeFormSpecs(id))
                if (!p.defaultValue.is_null())
                    spec[p.key] = p.defaultValue;
        }
        return spec;
    };
    Json spec;
    if (directed) {
        const bool split = current.is_object() && (current.contains("row") || current.contains("column"));
        const Json oldRow = split ? current.value("row", Json()) : current;
        const Json oldColumn = split ? current.value("column", Json()) : current;
        spec = Json{{"row", specFrom(mRowScheme, mRowSchemeParams, oldRow)},
                    {"column", specFrom(mColumnScheme, mColumnSchemeParams, oldColumn)}};
    } else {
        spec = specFrom(mRowScheme, mRowSchemeParams, current);
    }
    mDocument->setValue("/graph/weights", spec, tr("Change weights"));
}

} // namespace dplab
