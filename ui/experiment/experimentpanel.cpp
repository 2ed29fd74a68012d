// SPDX-License-Identifier: GPL-3.0-or-later
#include "experimentpanel.h"

#include "experimentdocument.h"
#include "graphdocument.h"
#include "paramform.h"
#include "textconvert.h"

#include "dplab/compress/compressor.h"
#include "dplab/problem/problem.h"
#include "dplab/graph/weights.h"

#include <QCheckBox>

#include <algorithm>
#include <QColorDialog>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QToolButton>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>
#include <QTreeWidget>
#include <QUndoStack>
#include <QVBoxLayout>

namespace dplab {

namespace {

void setTextIfChanged(QLineEdit *edit, const QString &text)
{
    if (edit->text() != text && !edit->hasFocus()) {
        const QSignalBlocker blocker(edit);
        edit->setText(text);
    }
}

void setSpinValue(QSpinBox *box, long long value)
{
    const QSignalBlocker blocker(box);
    box->setValue(static_cast<int>(std::clamp<long long>(value, box->minimum(), box->maximum())));
}

QIcon colourIcon(const QColor &colour)
{
    QPixmap pixmap(14, 14);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(colour.darker(130));
    painter.setBrush(colour);
    painter.drawRoundedRect(QRectF(1, 1, 12, 12), 3, 3);
    return QIcon(pixmap);
}

QString kindReason(const AlgorithmDescriptor &d, bool directed, const Problem *problem)
{
    if (d.graphKind == GraphKind::Undirected && directed)
        return ExperimentPanel::tr("%1 needs an undirected graph (untick Directed)").arg(toQString(d.name));
    if (d.graphKind == GraphKind::Directed && !directed)
        return ExperimentPanel::tr("%1 is for directed graphs (tick Directed: each edge becomes both arcs)")
            .arg(toQString(d.name));
    if (d.needsOnline && problem && !problem->isOnline())
        return ExperimentPanel::tr("%1 needs an online problem (a data stream)").arg(toQString(d.name));
    return QString();
}

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

QGroupBox *group(const QString &title, QWidget *parent)
{
    auto *box = new QGroupBox(title, parent);
    return box;
}

} // namespace

ExperimentPanel::ExperimentPanel(ExperimentDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mValidationTimer(new QTimer(this))
{
    buildUi();
    mValidationTimer->setSingleShot(true);
    mValidationTimer->setInterval(250);
    connect(mValidationTimer, &QTimer::timeout, this, &ExperimentPanel::validateNow);
    connect(document, &ExperimentDocument::valueChanged, this, [this] {
        refresh();
        scheduleValidation();
    });
    connect(document, &ExperimentDocument::loaded, this, [this] {
        mCurrentRun = mDocument->runCount() > 0 ? 0 : -1;
        mStatuses.clear();
        refresh();
        validateNow();
        emit currentRunChanged(mCurrentRun);
    });
    connect(document->graphDocument(), &GraphDocument::changed, this, [this] {
        refreshGraph();
        refreshRunEditor();
        scheduleValidation();
    });
    mCurrentRun = mDocument->runCount() > 0 ? 0 : -1;
    refresh();
}

void ExperimentPanel::buildUi()
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(scroll);
    auto *content = new QWidget(scroll);
    scroll->setWidget(content);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);

    // --- experiment ---
    auto *experimentBox = group(tr("Experiment"), content);
    auto *form = new QFormLayout(experimentBox);
    mName = new QLineEdit(experimentBox);
    mSeed = new QLineEdit(experimentBox);
    mSeed->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{1,19}")), mSeed));
    mSeed->setToolTip(tr("Every random draw (noise, random graphs, data splits, random initial points) comes "
                         "from streams derived from this seed: same seed, same curves."));
    mIterations = new QSpinBox(experimentBox);
    mIterations->setRange(1, 100000000);
    mIterations->setKeyboardTracking(false);
    mIterations->setToolTip(tr("Iterations T of every run"));
    mRepetitions = new QSpinBox(experimentBox);
    mRepetitions->setRange(1, 100000);
    mRepetitions->setKeyboardTracking(false);
    mRepetitions->setToolTip(tr("Independent repetitions (different noise draws); plots show mean ± std"));
    mRecordEvery = new QSpinBox(experimentBox);
    mRecordEvery->setRange(1, 100000000);
    mRecordEvery->setKeyboardTracking(false);
    mRecordEvery->setToolTip(tr("Metrics are computed every this many iterations"));
    form->addRow(tr("Name"), mName);
    form->addRow(tr("Seed"), mSeed);
    form->addRow(tr("Iterations"), mIterations);
    form->addRow(tr("Repetitions"), mRepetitions);
    form->addRow(tr("Record every"), mRecordEvery);
    layout->addWidget(experimentBox);

    // --- graph and weights ---
    auto *graphBox = group(tr("Graph, weights and problem"), content);
    auto *graphForm = new QFormLayout(graphBox);
    mDirected = new QCheckBox(tr("Directed (edge j → i: j sends to i)"), graphBox);
    graphForm->addRow(mDirected);
    mRowSchemeLabel = new QLabel(tr("Weights"), graphBox);
    mRowScheme = new QComboBox(graphBox);
    fillSchemeBox(mRowScheme);
    graphForm->addRow(mRowSchemeLabel, mRowScheme);
    mRowSchemeParams = new ParamForm(graphBox);
    graphForm->addRow(mRowSchemeParams);
    mColumnSchemeLabel = new QLabel(tr("Column C"), graphBox);
    mColumnScheme = new QComboBox(graphBox);
    fillSchemeBox(mColumnScheme);
    graphForm->addRow(mColumnSchemeLabel, mColumnScheme);
    mColumnSchemeParams = new ParamForm(graphBox);
    graphForm->addRow(mColumnSchemeParams);
    layout->addWidget(graphBox);

    // --- problem ---
    auto *problemBox = group(tr("Problem and data"), content);
    auto *problemLayout = new QVBoxLayout(problemBox);
    auto *problemForm = new QFormLayout;
    mProblemType = new QComboBox(problemBox);
    for (const Descriptor &d : problemDescriptors()) {
        mProblemType->addItem(toQString(d.name), toQString(d.id));
        mProblemType->setItemData(mProblemType->count() - 1, toQString(d.explanation), Qt::ToolTipRole);
    }
    problemForm->addRow(tr("Objective"), mProblemType);
    problemLayout->addLayout(problemForm);
    mProblemParams = new ParamForm(problemBox);
    mProblemParams->setProperty("dplabJsonPath", QStringLiteral("problem"));
    problemLayout->addWidget(mProblemParams);
    mProblemGroupBox = new QWidget(problemBox);
    auto *groupLayout = new QVBoxLayout(mProblemGroupBox);
    groupLayout->setContentsMargins(0, 0, 0, 0);
    groupLayout->setSpacing(2);
    problemLayout->addWidget(mProblemGroupBox);
    mProblem = new QLabel(problemBox);
    mProblem->setWordWrap(true);
    mProblem->setStyleSheet(QStringLiteral("color: #555; font-size: 9pt;"));
    problemLayout->addWidget(mProblem);
    layout->addWidget(problemBox);

    // --- runs ---
    auto *runsBox = group(tr("Runs"), content);
    auto *runsLayout = new QVBoxLayout(runsBox);
    mRuns = new QTreeWidget(runsBox);
    mRuns->setColumnCount(2);
    mRuns->setHeaderLabels({tr("Run"), tr("Status")});
    mRuns->setRootIsDecorated(false);
    mRuns->setEditTriggers(QAbstractItemView::EditKeyPressed);
    mRuns->header()->setStretchLastSection(false);
    mRuns->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    mRuns->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    mRuns->setMaximumHeight(140);
    mRuns->setToolTip(tr("Double-click a run to rename it"));
    runsLayout->addWidget(mRuns);
    auto *buttons = new QHBoxLayout;
    buttons->setSpacing(2);
    mAddRun = new QToolButton(runsBox);
    mAddRun->setText(tr("Add"));
    mAddRun->setToolTip(tr("Add a run with the first algorithm that fits the graph"));
    mDuplicateRun = new QToolButton(runsBox);
    mDuplicateRun->setText(tr("Duplicate"));
    mDuplicateRun->setToolTip(tr("Copy the selected run (same seed: a fair comparison)"));
    mRemoveRun = new QToolButton(runsBox);
    mRemoveRun->setText(tr("Remove"));
    mColourRun = new QToolButton(runsBox);
    mColourRun->setText(tr("Colour…"));
    for (QToolButton *b : {mAddRun, mDuplicateRun, mRemoveRun, mColourRun}) {
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        b->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
        buttons->addWidget(b);
    }
    buttons->addStretch(1);
    runsLayout->addLayout(buttons);
    layout->addWidget(runsBox);

    // --- selected run ---
    mRunBox = group(tr("Selected run"), content);
    auto *runLayout = new QVBoxLayout(mRunBox);
    auto *algorithmForm = new QFormLayout;
    mAlgorithm = new QComboBox(mRunBox);
    for (const AlgorithmDescriptor &d : algorithmRegistry())
        mAlgorithm->addItem(toQString(d.name), toQString(d.id));
    algorithmForm->addRow(tr("Algorithm"), mAlgorithm);
    runLayout->addLayout(algorithmForm);
    mAlgorithmInfo = new QLabel(mRunBox);
    mAlgorithmInfo->setWordWrap(true);
    mAlgorithmInfo->setStyleSheet(QStringLiteral("color: #555; font-size: 9pt;"));
    runLayout->addWidget(mAlgorithmInfo);
    mParams = new ParamForm(mRunBox);
    runLayout->addWidget(mParams);
    mPrivacyBox = new QGroupBox(tr("Privacy noise"), mRunBox);
    auto *privacyLayout = new QVBoxLayout(mPrivacyBox);
    mPrivacy = new ParamForm(mPrivacyBox);
    privacyLayout->addWidget(mPrivacy);
    runLayout->addWidget(mPrivacyBox);
    auto *extraForm = new QFormLayout;
    mCompressor = new QComboBox(mRunBox);
    for (const Descriptor &d : compressorDescriptors()) {
        mCompressor->addItem(toQString(d.name), toQString(d.id));
        mCompressor->setItemData(mCompressor->count() - 1, toQString(d.explanation), Qt::ToolTipRole);
    }
    extraForm->addRow(tr("Compressor"), mCompressor);
    runLayout->addLayout(extraForm);
    mCompressorParams = new ParamForm(mRunBox);
    runLayout->addWidget(mCompressorParams);
    auto *initForm = new QFormLayout;
    mInit = new QComboBox(mRunBox);
    mInit->addItem(tr("zeros"), QStringLiteral("zeros"));
    mInit->addItem(tr("random (Gaussian × scale)"), QStringLiteral("random"));
    mInit->addItem(tr("given in the file"), QStringLiteral("x"));
    mInitScale = new QDoubleSpinBox(mRunBox);
    mInitScale->setRange(0, 1e6);
    mInitScale->setDecimals(3);
    mInitScale->setKeyboardTracking(false);
    mInitScale->setToolTip(tr("Standard deviation of the random initial decisions"));
    initForm->addRow(tr("Initial point"), mInit);
    initForm->addRow(tr("Initial scale"), mInitScale);
    runLayout->addLayout(initForm);
    layout->addWidget(mRunBox);

    // Long scheme / algorithm names must not make the panel wider than its dock.
    for (QComboBox *box : content->findChildren<QComboBox *>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    mWarnings = new QLabel(content);
    mWarnings->setWordWrap(true);
    mWarnings->setStyleSheet(QStringLiteral("color: #9a6700;"));
    mWarnings->setVisible(false);
    runLayout->addWidget(mWarnings);
    mValidation = new QLabel(content);
    mValidation->setWordWrap(true);
    mValidation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(mValidation);
    layout->addStretch(1);

    // --- wiring: widgets → document ---
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
            mDocument->setValue("/record_every", v, tr("Change recording interval"));
    });
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
    connect(mRowScheme, &QComboBox::activated, this, &ExperimentPanel::writeWeights);
    connect(mColumnScheme, &QComboBox::activated, this, &ExperimentPanel::writeWeights);
    connect(mRowSchemeParams, &ParamForm::valueEdited, this, &ExperimentPanel::writeWeights);
    connect(mColumnSchemeParams, &ParamForm::valueEdited, this, &ExperimentPanel::writeWeights);

    connect(mProblemType, &QComboBox::activated, this, [this](int index) {
        const std::string id = toStdString(mProblemType->itemData(index).toString());
        Json problem{{"type", id}};
        for (const Descriptor &d : problemDescriptors())
            if (d.id == id)
                for (const ParamSpec &p : d.params)
                    if (p.defaultValue.is_null() && p.type == ParamType::Integer && p.key.find('.') == std::string::npos)
                        problem[p.key] = std::max<long long>(2, static_cast<long long>(p.min)); // e.g. dimension
        mDocument->setValue("/problem", problem, tr("Change problem"));
    });
    connect(mProblemParams, &ParamForm::valueEdited, this, [this](const QString &key, const Json &value) {
        // Top-level keys only here; the nested groups connect their own forms.
        QString pointer = QStringLiteral("/problem/") + key;
        pointer.replace(QLatin1Char('.'), QLatin1Char('/'));
        mDocument->setValue(toStdString(pointer), value, tr("Change %1").arg(key));
    });
    connect(mRuns, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (mRefreshing || !item)
            return;
        setCurrentRun(mRuns->indexOfTopLevelItem(item));
    });
    connect(mRuns, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem *item, int) {
        mRuns->editItem(item, 0);
    });
    connect(mRuns, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem *item, int column) {
        if (!mRefreshing && column == 0)
            onRunRenamed(mRuns->indexOfTopLevelItem(item), item->text(0));
    });
    connect(mAddRun, &QToolButton::clicked, this, [this] {
        const int run = mDocument->addRun();
        if (run >= 0)
            setCurrentRun(run);
    });
    connect(mDuplicateRun, &QToolButton::clicked, this, [this] {
        const int run = mDocument->duplicateRun(mCurrentRun);
        if (run >= 0)
            setCurrentRun(run);
    });
    connect(mRemoveRun, &QToolButton::clicked, this, [this] {
        if (mCurrentRun < 0)
            return;
        const int run = mCurrentRun;
        mDocument->removeRun(run);
        setCurrentRun(std::min(run, mDocument->runCount() - 1));
    });
    connect(mColourRun, &QToolButton::clicked, this, &ExperimentPanel::chooseColour);

    connect(mAlgorithm, &QComboBox::activated, this, [this](int index) {
        if (mCurrentRun >= 0)
            mDocument->setRunAlgorithm(mCurrentRun, toStdString(mAlgorithm->itemData(index).toString()));
    });
    connect(mParams, &ParamForm::valueEdited, this, [this](const QString &key, const Json &value) {
        mDocument->setValue(toStdString(runPointer("/params/") + key), value, tr("Change %1").arg(key));
    });
    connect(mPrivacy, &ParamForm::valueEdited, this, [this](const QString &key, const Json &value) {
        mDocument->setValue(toStdString(runPointer("/privacy/") + key), value, tr("Change %1").arg(key));
    });
    connect(mCompressor, &QComboBox::activated, this, [this](int index) {
        const std::string id = toStdString(mCompressor->itemData(index).toString());
        Json spec{{"type", id}};
        for (const Descriptor &d : compressorDescriptors())
            if (d.id == id)
                for (const ParamSpec &p : d.params)
                    if (!p.defaultValue.is_null())
                        spec[p.key] = p.defaultValue;
        mDocument->setValue(toStdString(runPointer("/compressor")), spec, tr("Change compressor"));
    });
    connect(mCompressorParams, &ParamForm::valueEdited, this, [this](const QString &key, const Json &value) {
        mDocument->setValue(toStdString(runPointer("/compressor/") + key), value, tr("Change %1").arg(key));
    });
    auto writeInit = [this] {
        if (mRefreshing || mCurrentRun < 0)
            return;
        const QString type = mInit->currentData().toString();
        if (type == QLatin1String("x"))
            return;
        Json init{{"type", toStdString(type)}};
        if (type == QLatin1String("random"))
            init["scale"] = mInitScale->value();
        mDocument->setValue(toStdString(runPointer("/init")), init, tr("Change initial point"));
    };
    connect(mInit, &QComboBox::activated, this, writeInit);
    connect(mInitScale, &QDoubleSpinBox::valueChanged, this, writeInit);
}

void ExperimentPanel::fillSchemeBox(QComboBox *box)
{
    for (const Descriptor &d : weightSchemeDescriptors()) {
        box->addItem(toQString(d.name), toQString(d.id));
        QString tip = toQString(d.explanation);
        if (!d.reference.empty())
            tip += QStringLiteral(" (") + toQString(d.reference) + QStringLiteral(")");
        box->setItemData(box->count() - 1, tip, Qt::ToolTipRole);
    }
}

QString ExperimentPanel::runPointer(const char *suffix) const
{
    return QStringLiteral("/runs/%1%2").arg(mCurrentRun).arg(QLatin1String(suffix));
}

void ExperimentPanel::setCurrentRun(int run)
{
    if (run >= mDocument->runCount())
        run = mDocument->runCount() - 1;
    if (run == mCurrentRun && (run < 0 || mRuns->currentItem() == mRuns->topLevelItem(run)))
        return;
    mCurrentRun = run;
    refreshRunList();
    refreshRunEditor();
    emit currentRunChanged(run);
}

void ExperimentPanel::setRunStatuses(const QStringList &statuses)
{
    mStatuses = statuses;
    mRefreshing = true;
    for (int i = 0; i < mRuns->topLevelItemCount(); ++i)
        mRuns->topLevelItem(i)->setText(1, mStatuses.value(i));
    mRefreshing = false;
}

QString ExperimentPanel::validationMessage() const
{
    return mValidation->text();
}

void ExperimentPanel::refresh()
{
    if (mCurrentRun >= mDocument->runCount())
        mCurrentRun = mDocument->runCount() - 1;
    if (mCurrentRun < 0 && mDocument->runCount() > 0)
        mCurrentRun = 0;
    refreshExperiment();
    refreshGraph();
    refreshRunList();
    refreshRunEditor();
}

void ExperimentPanel::refreshExperiment()
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
    setSpinValue(mRecordEvery, number("/record_every", 1));
    refreshProblem();
    mRefreshing = false;
}

void ExperimentPanel::refreshProblem()
{
    const Json problem = mDocument->value("/problem");
    const QString type = problem.is_object() ? toQString(problem.value("type", std::string())) : QString();
    {
        const QSignalBlocker blocker(mProblemType);
        mProblemType->setCurrentIndex(mProblemType->findData(type));
    }
    const Descriptor *descriptor = nullptr;
    for (const Descriptor &d : problemDescriptors())
        if (toQString(d.id) == type)
            descriptor = &d;
    if (mProblemForm != type) {
        // Top-level parameters in one form; nested ones ("data.name") in a collapsible form per
        // group, so a bundled data set does not show every loader option at once.
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
        mProblemParams->setSpecs(top);
        for (const ProblemGroup &g : std::as_const(mProblemGroups)) {
            delete g.toggle;
            delete g.form;
        }
        mProblemGroups.clear();
        for (int k = 0; k < prefixes.size(); ++k) {
            ProblemGroup g{prefixes[k], new QToolButton(mProblemGroupBox), new ParamForm(mProblemGroupBox)};
            g.toggle->setCheckable(true);
            g.toggle->setArrowType(Qt::RightArrow);
            g.toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
            g.toggle->setAutoRaise(true);
            g.toggle->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
            g.form->setSpecs(nested[k]);
            g.form->setVisible(false);
            connect(g.toggle, &QToolButton::toggled, g.form, [toggle = g.toggle, form = g.form](bool on) {
                toggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
                form->setVisible(on);
            });
            connect(g.form, &ParamForm::valueEdited, this, [this](const QString &key, const Json &value) {
                QString pointer = QStringLiteral("/problem/") + key;
                pointer.replace(QLatin1Char('.'), QLatin1Char('/'));
                mDocument->setValue(toStdString(pointer), value, tr("Change %1").arg(key));
            });
            mProblemGroupBox->layout()->addWidget(g.toggle);
            mProblemGroupBox->layout()->addWidget(g.form);
            mProblemGroups.push_back(g);
        }
        mProblemForm = type;
    }
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
    mProblemParams->setValues(flat);
    for (const ProblemGroup &g : std::as_const(mProblemGroups)) {
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
        const QString summary = given.isEmpty() ? g.prefix : QStringLiteral("%1: %2").arg(g.prefix, given.join(QStringLiteral(", ")));
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
                                                      it->is_number_float() ? formatNumber(it->get<double>(), 4)
                                                      : toQString(it->is_string() ? it->get<std::string>() : it->dump()));
        if (!parts.isEmpty())
            note += (note.isEmpty() ? QString() : QStringLiteral("\n")) + parts.join(QStringLiteral(", "));
    }
    mProblem->setText(note);
    mProblem->setVisible(!note.isEmpty());
}

void ExperimentPanel::refreshGraph()
{
    mRefreshing = true;
    const bool directed = mDocument->graphDocument()->graph().isDirected();
    {
        const QSignalBlocker blocker(mDirected);
        mDirected->setChecked(directed);
    }
    Json weights = mDocument->value("/graph/weights");
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
    mRowSchemeLabel->setToolTip(directed ? tr("Row-stochastic R: each agent averages what its in-neighbours send")
                                         : tr("Doubly stochastic W of the undirected graph"));
    mColumnSchemeLabel->setVisible(directed);
    mColumnScheme->setVisible(directed);
    mColumnSchemeParams->setVisible(directed && !mColumnSchemeParams->isEmpty());
    mRefreshing = false;
}

void ExperimentPanel::writeWeights()
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

void ExperimentPanel::refreshRunList()
{
    mRefreshing = true;
    const int count = mDocument->runCount();
    while (mRuns->topLevelItemCount() > count)
        delete mRuns->takeTopLevelItem(mRuns->topLevelItemCount() - 1);
    while (mRuns->topLevelItemCount() < count) {
        auto *item = new QTreeWidgetItem(mRuns);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
    for (int i = 0; i < count; ++i) {
        QTreeWidgetItem *item = mRuns->topLevelItem(i);
        const Json run = mDocument->run(i);
        const QString label = toQString(run.value("label", std::string()));
        if (item->text(0) != label)
            item->setText(0, label);
        item->setIcon(0, colourIcon(mDocument->runColor(i)));
        item->setText(1, mStatuses.value(i));
        const AlgorithmDescriptor *a = findAlgorithm(run.value("algorithm", std::string()));
        item->setToolTip(0, a ? toQString(a->name) : QString());
    }
    if (mCurrentRun >= 0 && mCurrentRun < count)
        mRuns->setCurrentItem(mRuns->topLevelItem(mCurrentRun));
    mDuplicateRun->setEnabled(mCurrentRun >= 0);
    mRemoveRun->setEnabled(mCurrentRun >= 0 && count > 1);
    mColourRun->setEnabled(mCurrentRun >= 0);
    mRefreshing = false;
}

void ExperimentPanel::refreshRunEditor()
{
    mRefreshing = true;
    const bool have = mCurrentRun >= 0 && mCurrentRun < mDocument->runCount();
    mRunBox->setEnabled(have);
    if (!have) {
        mRunBox->setTitle(tr("Selected run"));
        mWarnings->setVisible(false);
        mRefreshing = false;
        return;
    }
    const Json run = mDocument->run(mCurrentRun);
    mRunBox->setTitle(tr("Run “%1”").arg(toQString(run.value("label", std::string()))));
    const QString id = toQString(run.value("algorithm", std::string()));
    const bool directed = mDocument->graphDocument()->graph().isDirected();

    // Algorithm choice: invalid ones disabled with the reason.
    auto *model = qobject_cast<QStandardItemModel *>(mAlgorithm->model());
    const auto &registry = algorithmRegistry();
    for (int i = 0; i < mAlgorithm->count() && i < static_cast<int>(registry.size()); ++i) {
        const AlgorithmDescriptor &d = registry[i];
        const QString reason = kindReason(d, directed, mValidatedProblem.get());
        QString tip = toQString(d.explanation);
        if (!d.reference.empty())
            tip = toQString(d.reference) + QStringLiteral(": ") + tip;
        if (model)
            model->item(i)->setEnabled(reason.isEmpty() || d.id == toStdString(id));
        mAlgorithm->setItemData(i, reason.isEmpty() ? tip : reason + QStringLiteral("\n\n") + tip, Qt::ToolTipRole);
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
    info += toQString(algorithm->explanation).toHtmlEscaped();
    const QString reason = kindReason(*algorithm, directed, mValidatedProblem.get());
    if (!reason.isEmpty())
        info += QStringLiteral("<br/><span style='color:#c01c28'>⚠ %1</span>").arg(reason.toHtmlEscaped());
    mAlgorithmInfo->setText(info);
    mAlgorithmInfo->setToolTip(toQString(algorithm->explanation));
    if (mFormAlgorithm != id) {
        mParams->setSpecs(algorithm->params);
        mPrivacy->setSpecs(algorithm->privacyParams);
        mFormAlgorithm = id;
    }
    mParams->setValues(run.value("params", Json::object()));
    mPrivacy->setValues(run.value("privacy", Json::object()));
    // Presentation mode finds the forms by JSON path (ui/teaching/presentationcontroller.h).
    mParams->setProperty("dplabJsonPath", QStringLiteral("runs[%1].params").arg(mCurrentRun));
    mPrivacy->setProperty("dplabJsonPath", QStringLiteral("runs[%1].privacy").arg(mCurrentRun));
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
    mCompressor->setToolTip(algorithm->acceptsCompressor ? tr("Applied to every message the run's agents send")
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
            m->item(2)->setEnabled(initType == QLatin1String("x"));
    }
    {
        const QSignalBlocker blocker(mInitScale);
        mInitScale->setValue(init.value("scale", 1.0));
    }
    mInitScale->setEnabled(initType == QLatin1String("random"));
    mRefreshing = false;
    updateWarnings();
}

QString ExperimentPanel::warningText() const
{
    return mWarnings->isVisible() ? mWarnings->text() : QString();
}

void ExperimentPanel::updateWarnings()
{
    // The theorem conditions the selected run's parameters violate, as the algorithm reports
    // them after a reset on the validated experiment (the same reset the runner does).
    QStringList warnings;
    if (mValidated && mCurrentRun >= 0 && mCurrentRun < static_cast<int>(mValidated->runs.size())) {
        const Experiment &e = *mValidated;
        const RunSpec &spec = e.runs[mCurrentRun];
        const RunContext ctx = makeRunContext(e, mCurrentRun, 0);
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
    mWarnings->setToolTip(tr("Outside a theorem's conditions the run is allowed, but the paper's guarantee does not hold."));
    mWarnings->setVisible(true);
}

void ExperimentPanel::onRunRenamed(int row, const QString &text)
{
    QString error;
    if (!mDocument->renameRun(row, text, &error)) {
        refreshRunList(); // back to the old label
        if (toQString(mDocument->run(row).value("label", std::string())) != text.trimmed())
            QMessageBox::warning(this, tr("Rename run"), error);
    }
}

void ExperimentPanel::chooseColour()
{
    if (mCurrentRun < 0)
        return;
    const QColor colour = QColorDialog::getColor(mDocument->runColor(mCurrentRun), this, tr("Run colour"));
    if (colour.isValid())
        mDocument->setValue(toStdString(runPointer("/color")), toStdString(colour.name()), tr("Change run colour"));
}

void ExperimentPanel::scheduleValidation()
{
    mValidationTimer->start();
}

void ExperimentPanel::validateNow()
{
    mValidationTimer->stop();
    auto experiment = mDocument->validate();
    bool ok = experiment.ok();
    QString message;
    if (ok) {
        mValidatedProblem = experiment->problem;
        mValidated = std::make_shared<const Experiment>(experiment.value());
        const Experiment &e = experiment.value();
        message = tr("✓ Ready: %n run(s)", nullptr, int(e.runs.size()))
                  + tr(" × %n repetition(s)", nullptr, e.repetitions)
                  + tr(" × %1 iterations").arg(e.iterations);
        if (e.sweep)
            message += tr(", sweeping %1 over %2 values").arg(toQString(e.sweep->parameter)).arg(e.sweep->values.size());
        mValidation->setStyleSheet(QStringLiteral("color: #1a7f37;"));
        mValidation->setText(message);
    } else {
        message = toQString(experiment.error().toString());
        mValidation->setStyleSheet(QStringLiteral("color: #c01c28;"));
        mValidation->setText(QStringLiteral("✗ ") + message);
        mValidated.reset();
    }
    refreshRunEditor();
    refreshProblem();
    emit validated(ok, message);
}

} // namespace dplab
