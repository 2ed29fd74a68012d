// SPDX-License-Identifier: GPL-3.0-or-later
#include "experimentpanel.h"

#include "experimentdocument.h"
#include "experimentsettingswidget.h"
#include "graphdocument.h"
#include "parametertitle.h"
#include "problemwidget.h"
#include "runeditorwidget.h"
#include "runlistwidget.h"
#include "textconvert.h"
#include "weightswidget.h"
#include "wheelguard.h"

#include "dplab/engine/experiment.h"

#include <QComboBox>
#include <QLabel>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

namespace dplab {

ExperimentPanel::ExperimentPanel(ExperimentDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mValidationTimer(new QTimer(this))
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    mScroll = new QScrollArea(this);
    mScroll->setWidgetResizable(true);
    mScroll->setFrameShape(QFrame::NoFrame);
    mScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(mScroll);
    auto *content = new QWidget(mScroll);
    mScroll->setWidget(content);
    new WheelGuard(mScroll); // the wheel scrolls the panel unless a field has the focus
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);

    mSettings = new ExperimentSettingsWidget(document, content);
    mWeights = new WeightsWidget(document, content);
    mProblem = new ProblemWidget(document, content);
    mRunList = new RunListWidget(document, content);
    mRunEditor = new RunEditorWidget(document, content);
    mValidation = new QLabel(content);
    mValidation->setWordWrap(true);
    mValidation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (QWidget *w : {static_cast<QWidget *>(mSettings), static_cast<QWidget *>(mWeights),
                       static_cast<QWidget *>(mProblem), static_cast<QWidget *>(mRunList),
                       static_cast<QWidget *>(mRunEditor), static_cast<QWidget *>(mValidation)})
        layout->addWidget(w);
    layout->addStretch(1);

    // Long scheme / algorithm names must not make the panel wider than its dock.
    for (QComboBox *box : content->findChildren<QComboBox *>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }

    mValidationTimer->setSingleShot(true);
    mValidationTimer->setInterval(250);
    connect(mValidationTimer, &QTimer::timeout, this, &ExperimentPanel::validateNow);
    connect(mRunList, &RunListWidget::currentRunChanged, this, [this](int run) {
        mRunEditor->setRun(run);
        emit currentRunChanged(run);
    });
    connect(document, &ExperimentDocument::valueChanged, this, [this] {
        refresh();
        mValidationTimer->start();
    });
    connect(document, &ExperimentDocument::loaded, this, [this] {
        mRunList->resetForNewDocument();
        refresh();
        validateNow();
        emit currentRunChanged(mRunList->currentRun());
    });
    connect(document->graphDocument(), &GraphDocument::changed, this, [this] {
        mWeights->refresh();
        mRunEditor->refresh();
        mValidationTimer->start();
    });
    refresh();
}

void ExperimentPanel::refresh()
{
    mSettings->refresh();
    mWeights->refresh();
    mProblem->refresh();
    mRunList->refresh();
    mRunEditor->setRun(mRunList->currentRun());
}

int ExperimentPanel::currentRun() const
{
    return mRunList->currentRun();
}

void ExperimentPanel::setCurrentRun(int run)
{
    mRunList->setCurrentRun(run);
}

void ExperimentPanel::setRunStatuses(const QStringList &statuses)
{
    mRunList->setRunStatuses(statuses);
}

QString ExperimentPanel::validationMessage() const
{
    return mValidation->text();
}

void ExperimentPanel::validateNow()
{
    mValidationTimer->stop();
    // Resolve (no data loaded, every sweep point, limits); build only small problems from cached
    // data, for the theorem-condition warnings — large ones are built when the run starts.
    auto experiment = mDocument->resolve();
    if (experiment && experiment->problemSpec.bytes <= 64.0 * (1 << 20))
        if (Status built = buildExperiment(*experiment); !built)
            experiment = built.error();
    bool ok = experiment.ok();
    QString message;
    std::shared_ptr<const Experiment> last;
    if (ok) {
        last = std::make_shared<const Experiment>(experiment.value());
        const Experiment &e = experiment.value();
        message = tr("✓ Ready: %n run(s)", nullptr, int(e.runs.size()))
                  + tr(" × %n repetition(s)", nullptr, e.repetitions) + tr(" × %1 iterations").arg(e.iterations);
        if (e.sweep)
            message += tr(", sweeping %1 over %2 values")
                           .arg(sweepParameterTitle(toQString(e.sweep->parameter)))
                           .arg(e.sweep->values.size());
        if (!e.isBuilt())
            message += tr("; about %1 of memory, data loaded when the run starts").arg(toQString(dplab::formatBytes(e.resources.totalBytes())));
        mValidation->setStyleSheet(QStringLiteral("color: #1a7f37;"));
        mValidation->setText(message);
    } else {
        message = toQString(experiment.error().toString());
        mValidation->setStyleSheet(QStringLiteral("color: #c01c28;"));
        mValidation->setText(QStringLiteral("✗ ") + message);
    }
    mRunEditor->setValidated(last);
    mProblem->setValidated(last);
    emit validated(ok, message);
}

QComboBox *ExperimentPanel::algorithmBox() const
{
    return mRunEditor->algorithmBox();
}

ParamForm *ExperimentPanel::paramsForm() const
{
    return mRunEditor->paramsForm();
}

ParamForm *ExperimentPanel::privacyForm() const
{
    return mRunEditor->privacyForm();
}

ParamForm *ExperimentPanel::compressorForm() const
{
    return mRunEditor->compressorForm();
}

ParamForm *ExperimentPanel::problemForm() const
{
    return mProblem->form();
}

QComboBox *ExperimentPanel::problemBox() const
{
    return mProblem->typeBox();
}

QComboBox *ExperimentPanel::compressorBox() const
{
    return mRunEditor->compressorBox();
}

QTreeWidget *ExperimentPanel::runList() const
{
    return mRunList->tree();
}

QString ExperimentPanel::warningText() const
{
    return mRunEditor->warningText();
}

} // namespace dplab
