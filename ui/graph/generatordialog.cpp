// SPDX-License-Identifier: GPL-3.0-or-later
#include "generatordialog.h"

#include "paramform.h"
#include "textconvert.h"

#include "dplab/graph/analysis.h"
#include "dplab/graph/generators.h"
#include "dplab/graph/weights.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace dplab {

GeneratorDialog::GeneratorDialog(QWidget *parent)
    : QDialog(parent)
    , mType(new QComboBox(this))
    , mExplanation(new QLabel(this))
    , mForm(new ParamForm(this))
    , mPreview(new QLabel(this))
    , mButtons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Generate graph"));
    for (const Descriptor &d : generatorDescriptors()) {
        mType->addItem(toQString(d.name), toQString(d.id));
        mType->setItemData(mType->count() - 1, toQString(d.explanation), Qt::ToolTipRole);
    }
    auto *layout = new QVBoxLayout(this);
    auto *top = new QFormLayout;
    top->addRow(tr("Generator"), mType);
    layout->addLayout(top);
    mExplanation->setWordWrap(true);
    mExplanation->setStyleSheet(QStringLiteral("color: #555;"));
    layout->addWidget(mExplanation);
    layout->addWidget(mForm);
    mPreview->setWordWrap(true);
    mPreview->setMinimumHeight(48);
    mPreview->setTextFormat(Qt::RichText);
    layout->addWidget(mPreview);
    layout->addStretch(1);
    layout->addWidget(mButtons);
    layout->setSizeConstraint(QLayout::SetFixedSize); // follows the form as the generator changes
    connect(mButtons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(mButtons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(mType, &QComboBox::currentIndexChanged, this, &GeneratorDialog::onTypeChanged);
    connect(mForm, &ParamForm::valueEdited, this, &GeneratorDialog::updatePreview);
    mForm->setMinimumWidth(400);
    onTypeChanged();
}

void GeneratorDialog::setSpec(const Json &spec)
{
    if (!spec.is_object())
        return;
    const int index = mType->findData(toQString(spec.value("type", std::string())));
    if (index < 0)
        return;
    mType->setCurrentIndex(index);
    mForm->setValues(spec);
    updatePreview();
}

Json GeneratorDialog::spec() const
{
    Json spec = mForm->values();
    spec["type"] = toStdString(mType->currentData().toString());
    return spec;
}

void GeneratorDialog::onTypeChanged()
{
    const Descriptor *d = findGenerator(toStdString(mType->currentData().toString()));
    if (!d)
        return;
    QString text = toQString(d->explanation);
    if (!d->reference.empty())
        text += QStringLiteral(" (") + toQString(d->reference) + QStringLiteral(")");
    mExplanation->setText(text);
    mForm->setSpecs(d->params);
    updatePreview();
}

void GeneratorDialog::updatePreview()
{
    auto g = generateGraph(spec(), "generator");
    QPushButton *ok = mButtons->button(QDialogButtonBox::Ok);
    if (!g) {
        mGraph = Graph();
        mPreview->setText(QStringLiteral("<span style='color:#c01c28'>✗ %1</span>")
                              .arg(toQString(g.error().toString()).toHtmlEscaped()));
        ok->setEnabled(false);
        return;
    }
    mGraph = std::move(g.value());
    const Connectivity c = analyseConnectivity(mGraph);
    QString text = tr("%1 nodes, %2 edges, %3")
                       .arg(mGraph.nodeCount())
                       .arg(mGraph.edgeCount())
                       .arg(mGraph.isDirected() ? tr("directed") : tr("undirected"));
    text += QStringLiteral("<br/>") + (c.connected ? QStringLiteral("<span style='color:#1a7f37'>✓</span> ")
                                                   : QStringLiteral("<span style='color:#c01c28'>✗ not</span> "))
            + (mGraph.isDirected() ? tr("strongly connected") : tr("connected"));
    if (mGraph.nodeCount() <= 400 && mGraph.nodeCount() > 0) {
        const Json scheme = mGraph.isDirected() ? Json{{"scheme", "uniform-row"}} : Json{{"scheme", "metropolis"}};
        auto w = buildWeights(mGraph, scheme, mGraph.isDirected() ? WeightRole::Row : WeightRole::Doubly, "weights");
        if (w)
            text += tr("<br/>σ₂ of %1 weights: %2")
                        .arg(mGraph.isDirected() ? tr("uniform row-stochastic") : tr("Metropolis"))
                        .arg(numberText(secondSingularValue(*w), 4));
    }
    mPreview->setText(text);
    ok->setEnabled(mGraph.nodeCount() > 0);
}

} // namespace dplab
