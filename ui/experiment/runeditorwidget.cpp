// SPDX-License-Identifier: GPL-3.0-or-later
#include "runeditorwidget.h"

#include "elidingcombobox.h"
#include "experimentdocument.h"
#include "graphdocument.h"
#include "mathtext.h"
#include "paramform.h"
#include "textconvert.h"

#include "dplab/compress/compressor.h"
#include "dplab/engine/experiment.h"
#include "dplab/problem/problem.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <algorithm>

namespace dplab {

namespace {

QString kindReason(const AlgorithmDescriptor &d, bool directed, const Problem *problem)
{
    if (d.graphKind == GraphKind::Undirected && directed)
        return RunEditorWidget::tr("%1 needs an undirected graph (untick Directed)").arg(toQString(d.name));
    if (d.graphKind == GraphKind::Directed && !directed)
        return RunEditorWidget::tr("%1 is for directed graphs (tick Directed: each edge becomes both arcs)")
            .arg(toQString(d.name));
    if (d.needsOnline && problem && !problem->isOnline())
        return RunEditorWidget::tr("%1 needs an online problem (a data stream)").arg(toQString(d.name));
    return QString();
}

} // namespace

RunEditorWidget::RunEditorWidget(ExperimentDocument *document, QWidget *parent)
    : QGroupBox(tr("Selected run"), parent)
    , mDocument(document)
{
    auto *layout = new QVBoxLayout(this);
    auto *algorithmForm = new QFormLayout;
    mAlgorithm = new ElidingComboBox(this);
    for (const AlgorithmDescriptor &d : algorithmRegistry())
        mAlgorithm->addItem(toQString(d.name), toQString(d.id));
    algorithmForm->addRow(tr("Algorithm"), mAlgorithm);
    layout->addLayout(algorithmForm);
    mAlgorithmInfo = new QLabel(this);
    mAlgorithmInfo->setWordWrap(true);
    mAlgorithmInfo->setStyleSheet(QStringLiteral("color: #555;"));
    layout->addWidget(mAlgorithmInfo);
    mParams = new ParamForm(this);
    layout->addWidget(mParams);
    mPrivacyBox = new QGroupBox(tr("Privacy noise"), this);
    auto *privacyLayout = new QVBoxLayout(mPrivacyBox);
    mPrivacy = new ParamForm(mPrivacyBox);
    privacyLayout->addWidget(mPrivacy);
    layout->addWidget(mPrivacyBox);
    auto *extraForm = new QFormLayout;
    mCompressor = new QComboBox(this);
    for (const Descriptor &d : compressorDescriptors()) {
        mCompressor->addItem(toQString(d.name), toQString(d.id));
        mCompressor->setItemData(mCompressor->count() - 1, mathToRichText(toQString(d.explanation)), Qt::ToolTipRole);
    }
    extraForm->addRow(tr("Compressor"), mCompressor);
    layout->addLayout(extraForm);
    mCompressorParams = new ParamForm(this);
    layout->addWidget(mCompressorParams);
    auto *initForm = new QFormLayout;
    mInit = new QComboBox(this);
    mInit->addItem(tr("zeros"), QStringLiteral("zeros"));
    mInit->addItem(tr("random (Gaussian × scale)"), QStringLiteral("random"));
    mInit->addItem(tr("each agent's own target a_i"), QStringLiteral("targets"));
    mInit->setItemData(2, tr("Starts agent i at the minimiser a_i of its own f_i (rendezvous); follows the seed"),
                       Qt::ToolTipRole);
    mInit->addItem(tr("given in the file"), QStringLiteral("x"));
    mInitScale = new QDoubleSpinBox(this);
    mInitScale->setRange(0, 1e6);
    mInitScale->setDecimals(3);
    mInitScale->setKeyboardTracking(false);
    mInitScale->setToolTip(tr("Standard deviation of the random initial decisions"));
    initForm->addRow(tr("Initial point"), mInit);
    initForm->addRow(tr("Initial scale"), mInitScale);
    layout->addLayout(initForm);
    mWarnings = new QLabel(this);
    mWarnings->setWordWrap(true);
    mWarnings->setStyleSheet(QStringLiteral("color: #9a6700;"));
    mWarnings->setVisible(false);
    layout->addWidget(mWarnings);

    connect(mAlgorithm, &QComboBox::activated, this, [this](int index) {
        if (mRun >= 0)
            mDocument->setRunAlgorithm(mRun, toStdString(mAlgorithm->itemData(index).toString()));
    });
    connect(mParams, &ParamForm::valueEdited, this, [this](const QString &key, const Json &value) {
        mDocument->setValue(runPointer("/params/") + toStdString(key), value, tr("Change %1").arg(key));
    });
    connect(mPrivacy, &ParamForm::valueEdited, this, [this](const QString &key, const Json &value) {
        mDocument->setValue(runPointer("/privacy/") + toStdString(key), value, tr("Change %1").arg(key));
    });
    connect(mCompressor, &QComboBox::activated, this, [this](int index) {
        const std::string id = toStdString(mCompressor->itemData(index).toString());
        Json spec{{"type", id}};
        for (const Descriptor &d : compressorDescriptors())
            if (d.id == id)
                for (const ParamSpec &p : d.params)
                    if (!p.defaultValue.is_null())
                        spec[p.key] = p.defaultValue;
        mDocument->setValue(runPointer("/compressor"), spec, tr("Change compressor"));
    });
    connect(mCompressorParams, &ParamForm::valueEdited, this, [this](const QString &key, const Json &value) {
        mDocument->setValue(runPointer("/compressor/") + toStdString(key), value, tr("Change %1").arg(key));
    });
    auto writeInit = [this] {
        if (mRefreshing || mRun < 0)
            return;
        const QString type = mInit->currentData().toString();
        if (type == QLatin1String("x"))
            return;
        Json init{{"type", toStdString(type)}};
        if (type == QLatin1String("random"))
            init["scale"] = mInitScale->value();
        mDocument->setValue(runPointer("/init"), init, tr("Change initial point"));
    };
    connect(mInit, &QComboBox::activated, this, writeInit);
    connect(mInitScale, &QDoubleSpinBox::valueChanged, this, writeInit);
}

std::string RunEditorWidget::runPointer(const char *suffix) const
{
    return "/runs/" + std::to_string(mRun) + suffix;
}

void RunEditorWidget::setRun(int run)
{
    mRun = run;
    refresh();
}

void RunEditorWidget::setValidated(std::shared_ptr<const Experiment> experiment)
{
    mValidated = std::move(experiment);
    if (mValidated)
        mValidatedProblem = mValidated->problem; // kept while the document does not validate
    refresh();
}

void RunEditorWidget::refresh()
{
    mRefreshing = true;
    const bool have = mRun >= 0 && mRun < mDocument->runCount();
    setEnabled(have);
    if (!have) {
        setTitle(tr("Selected run"));
        mWarnings->setVisible(false);
        mRefreshing = false;
        return;
    }
    const Json run = mDocument->run(mRun);
    setTitle(tr("Run “%1”").arg(toQString(run.value("label", std::string()))));
    const QString id = toQString(run.value("algorithm", std::string()));
    const bool directed = mDocument->graphDocument()->graph().isDirected();
    const Problem *problem = mValidatedProblem.get();

    // Algorithm choice: invalid ones disabled with the reason.
    auto *model = qobject_cast<QStandardItemModel *>(mAlgorithm->model());
    const auto &registry = algorithmRegistry();
    for (int i = 0; i < mAlgorithm->count() && i < static_cast<int>(registry.size()); ++i) {
        const AlgorithmDescriptor &d = registry[i];
        const QString reason = kindReason(d, directed, problem);
        QString tip = mathToHtml(toQString(d.explanation));
        if (!d.reference.empty())
            tip = QStringLiteral("<b>%1</b>: ").arg(toQString(d.reference).toHtmlEscaped()) + tip;
        if (model)
            model->item(i)->setEnabled(reason.isEmpty() || d.id == toStdString(id));
        mAlgorithm->setItemData(i,
                                QStringLiteral("<p>%1</p>").arg(reason.isEmpty() ? tip : reason.toHtmlEscaped() + QStringLiteral("</p><p>") + tip),
                                Qt::ToolTipRole);
    }
    {
        const QSignalBlocker blocker(mAlgorithm);
        mAlgorithm->setCurrentIndex(mAlgorithm->findData(id));
    }
    const AlgorithmDescriptor *algorithm = findAlgorithm(toStdString(id));
    if (!algorithm) {
        mAlgorithmInfo->setText(tr("Unknown algorithm “%1”").arg(id));
        mParams->setSpecs({});
        mPrivacy->setSpecs({});
        mPrivacyBox->setVisible(false);
        mFormAlgorithm.clear();
        mWarnings->setVisible(false);
        mRefreshing = false;
        return;
    }
    QString info;
    if (!algorithm->reference.empty())
        info = QStringLiteral("<b>%1</b> — ").arg(toQString(algorithm->reference).toHtmlEscaped());
    info += mathToHtml(toQString(algorithm->explanation));
    const QString reason = kindReason(*algorithm, directed, problem);
    if (!reason.isEmpty())
        info += QStringLiteral("<br/><span style='color:#c01c28'>⚠ %1</span>").arg(reason.toHtmlEscaped());
    mAlgorithmInfo->setText(info);
    mAlgorithmInfo->setToolTip(tr("<p>%1</p><p>F1: the help on this run.</p>").arg(mathToHtml(toQString(algorithm->explanation))));
    if (mFormAlgorithm != id) {
        mParams->setSpecs(algorithm->params);
        mPrivacy->setSpecs(algorithm->privacyParams);
        mFormAlgorithm = id;
    }
    mParams->setValues(run.value("params", Json::object()));
    mPrivacy->setValues(run.value("privacy", Json::object()));
    // Presentation mode finds the forms by JSON path (ui/teaching/presentationcontroller.h).
    mParams->setProperty("dplabJsonPath", QStringLiteral("runs[%1].params").arg(mRun));
    mPrivacy->setProperty("dplabJsonPath", QStringLiteral("runs[%1].privacy").arg(mRun));
    mPrivacyBox->setVisible(!algorithm->privacyParams.empty());

    // Compressor.
    const Json compressor = run.value("compressor", Json{{"type", "identity"}});
    const QString type = toQString(compressor.is_object() ? compressor.value("type", std::string("identity"))
                                                          : std::string("identity"));
    {
        const QSignalBlocker blocker(mCompressor);
        mCompressor->setCurrentIndex(std::max(0, mCompressor->findData(type)));
    }
    mCompressor->setEnabled(algorithm->acceptsCompressor);
    mCompressor->setToolTip(algorithm->acceptsCompressor
                                ? tr("Applied to every message the run's agents send")
                                : tr("%1 does not take a compressor").arg(toQString(algorithm->name)));
    if (mFormCompressor != type) {
        std::vector<ParamSpec> specs;
        for (const Descriptor &d : compressorDescriptors())
            if (toQString(d.id) == type)
                specs = d.params;
        mCompressorParams->setSpecs(specs);
        mFormCompressor = type;
    }
    mCompressorParams->setValues(compressor);
    mCompressorParams->setVisible(!mCompressorParams->isEmpty());
    mCompressorParams->setEnabled(algorithm->acceptsCompressor);

    // Initial point.
    const Json init = run.value("init", Json{{"type", "zeros"}});
    const QString initType = init.contains("x") ? QStringLiteral("x") : toQString(init.value("type", std::string("zeros")));
    {
        const QSignalBlocker blocker(mInit);
        mInit->setCurrentIndex(std::max(0, mInit->findData(initType)));
        if (auto *m = qobject_cast<QStandardItemModel *>(mInit->model()))
            m->item(mInit->findData(QStringLiteral("x")))->setEnabled(initType == QLatin1String("x"));
    }
    {
        const QSignalBlocker blocker(mInitScale);
        mInitScale->setValue(init.value("scale", 1.0));
    }
    mInitScale->setEnabled(initType == QLatin1String("random"));
    mRefreshing = false;
    updateWarnings();
}

QString RunEditorWidget::warningText() const
{
    return mWarnings->isVisible() ? mWarnings->text() : QString();
}

void RunEditorWidget::updateWarnings()
{
    // The theorem conditions the selected run's parameters violate, as the algorithm reports
    // them after a reset on the validated experiment (the same reset the runner does).
    QStringList warnings;
    if (mValidated && mValidated->isBuilt() && mRun >= 0 && mRun < static_cast<int>(mValidated->runs.size())) {
        const Experiment &e = *mValidated;
        const RunSpec &spec = e.runs[mRun];
        const RunContext ctx = makeRunContext(e, mRun, 0);
        std::unique_ptr<Algorithm> algorithm = spec.algorithm->create();
        if (Status s = algorithm->reset(ctx); !s)
            warnings << toQString(s.error().toString());
        else
            for (const std::string &w : algorithm->warnings())
                warnings << toQString(w);
    }
    if (warnings.isEmpty()) {
        mWarnings->clear();
        mWarnings->setVisible(false);
        return;
    }
    QString html;
    for (const QString &w : warnings)
        html += QStringLiteral("⚠ %1<br/>").arg(w.toHtmlEscaped());
    mWarnings->setText(html);
    mWarnings->setToolTip(
        tr("Outside a theorem's conditions the run is allowed, but the paper's guarantee does not hold."));
    mWarnings->setVisible(true);
}

} // namespace dplab
