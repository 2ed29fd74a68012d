// SPDX-License-Identifier: GPL-3.0-or-later
#include "experimentsettingswidget.h"

#include "experimentdocument.h"
#include "textconvert.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>

#include <algorithm>

namespace dplab {

namespace {

void setTextIfChanged(QLineEdit *edit, const QString &text)
{
    if (edit->text() != text && !edit->hasFocus()) {
        const QSignalBlocker blocker(edit);
        edit->setText(text);
        edit->setCursorPosition(0); // a long name shows its start ("…version with and without" hid it)
    }
}

void setSpinValue(QSpinBox *box, long long value)
{
    const QSignalBlocker blocker(box);
    box->setValue(static_cast<int>(std::clamp<long long>(value, box->minimum(), box->maximum())));
}

} // namespace

ExperimentSettingsWidget::ExperimentSettingsWidget(ExperimentDocument *document, QWidget *parent)
    : QGroupBox(tr("Experiment"), parent)
    , mDocument(document)
{
    auto *form = new QFormLayout(this);
    mName = new QLineEdit(this);
    mSeed = new QLineEdit(this);
    mSeed->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{1,19}")), mSeed));
    mSeed->setToolTip(tr("Every random draw (noise, random graphs, data splits, random initial points) comes "
                         "from streams derived from this seed: same seed, same curves."));
    mIterations = new QSpinBox(this);
    mIterations->setRange(1, 100000000);
    mIterations->setKeyboardTracking(false);
    mIterations->setToolTip(tr("Iterations T of every run"));
    mRepetitions = new QSpinBox(this);
    mRepetitions->setRange(1, 100000);
    mRepetitions->setKeyboardTracking(false);
    mRepetitions->setToolTip(tr("Independent repetitions (different noise draws); plots show mean ± std"));
    mRecordEvery = new QSpinBox(this);
    // 0 stands for an absent record_every: the default cadence, shown as "auto".
    mRecordEvery->setRange(0, 100000000);
    mRecordEvery->setSpecialValueText(tr("auto"));
    mRecordEvery->setKeyboardTracking(false);
    mRecordEvery->setToolTip(tr("Record every k iterations: the metrics are computed at iterations 0, k, "
                                "2k, … and the last (k = 1: every iteration). auto: at most %1 evenly "
                                "spaced iterations per run.")
                                 .arg(kDefaultRecordedPoints));
    form->addRow(tr("Name"), mName);
    form->addRow(tr("Seed"), mSeed);
    form->addRow(tr("Iterations"), mIterations);
    form->addRow(tr("Repetitions"), mRepetitions);
    form->addRow(tr("Record every"), mRecordEvery);

    connect(mName, &QLineEdit::editingFinished, this, [this] {
        mDocument->setValue("/name", toStdString(mName->text()), tr("Rename experiment"));
    });
    connect(mSeed, &QLineEdit::editingFinished, this, [this] {
        bool ok = false;
        const qulonglong seed = mSeed->text().toULongLong(&ok);
        if (ok)
            mDocument->setValue("/seed", Json(static_cast<std::uint64_t>(seed)), tr("Change seed"));
    });
    connect(mIterations, &QSpinBox::valueChanged, this, [this](int v) {
        if (!mRefreshing)
            mDocument->setValue("/iterations", v, tr("Change iterations"));
    });
    connect(mRepetitions, &QSpinBox::valueChanged, this, [this](int v) {
        if (!mRefreshing)
            mDocument->setValue("/repetitions", v, tr("Change repetitions"));
    });
    connect(mRecordEvery, &QSpinBox::valueChanged, this, [this](int v) {
        if (!mRefreshing)
            mDocument->setValue("/record_every", v > 0 ? Json(v) : Json(), tr("Change recording interval"));
    });
}

void ExperimentSettingsWidget::refresh()
{
    mRefreshing = true;
    const Json name = mDocument->value("/name");
    setTextIfChanged(mName, name.is_string() ? toQString(name.get<std::string>()) : QString());
    const Json seed = mDocument->value("/seed");
    setTextIfChanged(mSeed, seed.is_number_integer() ? QString::number(seed.get<std::uint64_t>()) : QStringLiteral("0"));
    auto number = [this](const char *pointer, long long def) {
        const Json v = mDocument->value(pointer);
        return v.is_number() ? static_cast<long long>(v.get<double>()) : def;
    };
    setSpinValue(mIterations, number("/iterations", 100));
    setSpinValue(mRepetitions, number("/repetitions", 1));
    setSpinValue(mRecordEvery, number("/record_every", 0));
    mRefreshing = false;
}

} // namespace dplab
