// SPDX-License-Identifier: GPL-3.0-or-later
#include "scheduleeditor.h"

#include "scientificspinbox.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>

namespace dplab {

ScheduleEditor::ScheduleEditor(QWidget *parent)
    : QWidget(parent)
    , mKind(new QComboBox(this))
    , mA(new ScientificSpinBox(this))
    , mT0(new ScientificSpinBox(this))
    , mP(new ScientificSpinBox(this))
    , mQ(new ScientificSpinBox(this))
    , mT0Label(new QLabel(QStringLiteral("t₀"), this))
    , mPLabel(new QLabel(QStringLiteral("p"), this))
    , mQLabel(new QLabel(QStringLiteral("q"), this))
{
    mKind->addItem(tr("constant a"), QStringLiteral("constant"));
    mKind->addItem(tr("a / (t + t₀)^p"), QStringLiteral("polynomial"));
    mKind->addItem(tr("a · q^t"), QStringLiteral("geometric"));
    mKind->setToolTip(tr("How the value changes with the iteration t = 0, 1, 2, …"));
    mKind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mKind->setMinimumContentsLength(8);
    mA->setToolTip(tr("Scale a"));
    mT0->setRange(-1e300, 1e300);
    mT0->setStepRange(1e-12, 1e12);
    mT0->setToolTip(tr("Offset t₀ > 0 of the polynomial schedule a/(t+t₀)^p"));
    mP->setRange(-1e300, 1e300);
    mP->setStepRange(-10, 10);
    mP->setToolTip(tr("Exponent p of the polynomial schedule a/(t+t₀)^p"));
    mQ->setRange(-1e300, 1e300);
    mQ->setStepRange(1e-12, 1e12);
    mQ->setToolTip(tr("Ratio q > 0 of the geometric schedule a·q^t"));

    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setHorizontalSpacing(4);
    layout->setVerticalSpacing(2);
    layout->addWidget(mKind, 0, 0, 1, 4);
    layout->addWidget(new QLabel(QStringLiteral("a"), this), 1, 0);
    layout->addWidget(mA, 1, 1);
    layout->addWidget(mT0Label, 1, 2);
    layout->addWidget(mT0, 1, 3);
    layout->addWidget(mPLabel, 2, 2);
    layout->addWidget(mP, 2, 3);
    layout->addWidget(mQLabel, 1, 2);
    layout->addWidget(mQ, 1, 3);
    layout->setColumnStretch(1, 1);
    layout->setColumnStretch(3, 1);

    connect(mKind, &QComboBox::currentIndexChanged, this, [this] {
        updateVisibility();
        emitValue();
    });
    for (ScientificSpinBox *box : {mA, mT0, mP, mQ})
        connect(box, &QDoubleSpinBox::valueChanged, this, &ScheduleEditor::emitValue);
    mT0->setValue(1);
    mP->setValue(0.5);
    mQ->setValue(0.99);
    updateVisibility();
}

void ScheduleEditor::setScaleRange(double min, double max, bool logScale)
{
    // Any number may be typed; the form marks one outside [min, max] (ParamForm::check).
    mA->setRange(-1e300, 1e300);
    mA->setStepRange(std::max(min, -1e12), std::min(max, 1e12));
    mA->setLogScale(logScale);
}

void ScheduleEditor::setValue(const Json &value)
{
    mUpdating = true;
    if (value.is_number()) {
        mKind->setCurrentIndex(0);
        mA->setValue(value.get<double>());
    } else if (value.is_object()) {
        const std::string type = value.value("type", std::string("constant"));
        mKind->setCurrentIndex(type == "polynomial" ? 1 : type == "geometric" ? 2 : 0);
        mA->setValue(value.value("a", 0.0));
        if (value.contains("t0"))
            mT0->setValue(value.value("t0", 1.0));
        if (value.contains("p"))
            mP->setValue(value.value("p", 0.5));
        if (value.contains("q"))
            mQ->setValue(value.value("q", 0.99));
    }
    updateVisibility();
    mUpdating = false;
}

Json ScheduleEditor::value() const
{
    const QString kind = mKind->currentData().toString();
    if (kind == QLatin1String("polynomial"))
        return Json{{"type", "polynomial"}, {"a", mA->value()}, {"t0", mT0->value()}, {"p", mP->value()}};
    if (kind == QLatin1String("geometric"))
        return Json{{"type", "geometric"}, {"a", mA->value()}, {"q", mQ->value()}};
    return Json(mA->value());
}

void ScheduleEditor::updateVisibility()
{
    const int kind = mKind->currentIndex();
    mT0Label->setVisible(kind == 1);
    mT0->setVisible(kind == 1);
    mPLabel->setVisible(kind == 1);
    mP->setVisible(kind == 1);
    mQLabel->setVisible(kind == 2);
    mQ->setVisible(kind == 2);
}

void ScheduleEditor::emitValue()
{
    if (!mUpdating)
        emit valueEdited(value());
}

} // namespace dplab
