// SPDX-License-Identifier: GPL-3.0-or-later
#include "presentationcontroller.h"

#include "experimentdocument.h"
#include "paramform.h"
#include "teachingpanel.h"
#include "textconvert.h"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTimer>
#include <QVBoxLayout>

namespace dplab {

namespace {

QStringList toQStringList(const std::vector<std::string> &list)
{
    QStringList out;
    for (const auto &s : list)
        out << toQString(s);
    return out;
}

std::vector<std::string> toStdList(const QString &text)
{
    std::vector<std::string> out;
    for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString t = line.trimmed();
        if (!t.isEmpty())
            out.push_back(toStdString(t));
    }
    return out;
}

} // namespace

PresentationController::PresentationController(QObject *parent) : QObject(parent) {}

void PresentationController::setDocument(ExperimentDocument *document)
{
    if (mDocument)
        disconnect(mDocument, nullptr, this, nullptr);
    mDocument = document;
    if (!mDocument)
        return;
    auto queue = [this] {
        if (mApplyQueued)
            return;
        mApplyQueued = true;
        QTimer::singleShot(0, this, [this] {
            mApplyQueued = false;
            apply();
        });
    };
    connect(mDocument, &ExperimentDocument::changed, this, queue);
    connect(mDocument, &ExperimentDocument::loaded, this, [this, queue] {
        // "start" switches presentation mode on; a file without it leaves the mode as it is, so a
        // lecturer can switch experiments while presenting.
        if (presentation().start && !mActive)
            setActive(true);
        queue();
    });
    apply();
}

void PresentationController::setTeachingPanel(TeachingPanel *panel)
{
    mTeaching = panel;
    apply();
}

void PresentationController::registerPanel(const QString &id, QWidget *widget)
{
    mPanels.insert(id, widget);
}

void PresentationController::setFormRoot(QWidget *root)
{
    mFormRoot = root;
}

Presentation PresentationController::presentation() const
{
    if (!mDocument)
        return {};
    const Json json = mDocument->value("/presentation");
    if (!json.is_object())
        return {};
    // Read leniently (core validates the paths when the file is run or saved through the
    // settings dialog): a half-edited file still presents, and nothing here loads data.
    Presentation p;
    auto strings = [&](const char *key) {
        std::vector<std::string> out;
        if (json.contains(key) && json.at(key).is_array())
            for (const auto &v : json.at(key))
                if (v.is_string())
                    out.push_back(v.get<std::string>());
        return out;
    };
    p.hiddenPanels = strings("hidden_panels");
    p.hiddenParams = strings("hidden_params");
    p.locked = strings("locked");
    if (json.contains("notes") && json.at("notes").is_string())
        p.notes = json.at("notes").get<std::string>();
    if (json.contains("start") && json.at("start").is_boolean())
        p.start = json.at("start").get<bool>();
    if (json.contains("live") && json.at("live").is_boolean()) // kept when the settings are saved
        p.live = json.at("live").get<bool>();
    return p;
}

void PresentationController::setPresentation(const Presentation &p)
{
    if (!mDocument)
        return;
    mDocument->setValue("/presentation", presentationToJson(p), tr("Change presentation settings"));
    apply();
}

void PresentationController::setActive(bool active)
{
    if (active == mActive)
        return;
    mActive = active;
    apply();
    emit activeChanged(active);
}

void PresentationController::apply()
{
    const Presentation p = presentation();
    for (auto it = mPanels.begin(); it != mPanels.end(); ++it) {
        QWidget *w = it.value();
        if (!w)
            continue;
        const bool hide = mActive && p.isPanelHidden(toStdString(it.key()));
        if (hide) {
            if (!mWasVisible.contains(it.key()))
                mWasVisible.insert(it.key(), w->isVisible());
            w->hide();
        } else if (mWasVisible.contains(it.key())) {
            w->setVisible(mWasVisible.take(it.key()));
        }
    }
    if (mTeaching) {
        for (const auto &id : presentationPanelIds())
            mTeaching->setPanelVisible(toQString(id), !(mActive && p.isPanelHidden(id)));
        mTeaching->setNotes(toQString(p.notes));
    }
    applyForms(p, mActive);
}

void PresentationController::applyForms(const Presentation &p, bool active)
{
    if (!mFormRoot)
        return;
    for (ParamForm *form : mFormRoot->findChildren<ParamForm *>()) {
        const QString prefix = form->property("dplabJsonPath").toString();
        if (prefix.isEmpty())
            continue;
        auto *layout = qobject_cast<QFormLayout *>(form->layout());
        for (const ParamSpec &spec : form->specs()) {
            QWidget *editor = form->editor(toQString(spec.key));
            if (!editor)
                continue;
            const std::string path = toStdString(prefix) + "." + spec.key;
            const bool locked = active && p.isLocked(path);
            const bool hidden = active && p.isParamHidden(path);
            editor->setEnabled(!locked);
            editor->setProperty("dplabLocked", locked);
            if (locked)
                editor->setToolTip(tr("Locked for this lesson (presentation mode).") + QStringLiteral("\n\n")
                                   + ParamForm::toolTipFor(spec));
            else
                editor->setToolTip(ParamForm::toolTipFor(spec));
            editor->setVisible(!hidden);
            if (layout)
                if (QWidget *label = layout->labelForField(editor))
                    label->setVisible(!hidden);
        }
    }
}

bool PresentationController::editSettings(QWidget *parent)
{
    Presentation p = presentation();
    QDialog dialog(parent);
    dialog.setWindowTitle(tr("Presentation settings"));
    auto *layout = new QVBoxLayout(&dialog);
    auto *panels = new QGroupBox(tr("Hide these panels in presentation mode"), &dialog);
    auto *grid = new QGridLayout(panels);
    QHash<QString, QCheckBox *> boxes;
    int k = 0;
    for (const auto &id : presentationPanelIds()) {
        auto *box = new QCheckBox(toQString(id), panels);
        box->setChecked(p.isPanelHidden(id));
        grid->addWidget(box, k / 4, k % 4);
        boxes.insert(toQString(id), box);
        ++k;
    }
    layout->addWidget(panels);
    auto *form = new QFormLayout;
    auto *locked = new QPlainTextEdit(toQStringList(p.locked).join(QLatin1Char('\n')), &dialog);
    locked->setPlaceholderText(QStringLiteral("runs[0].params.stepsize\nruns[*].privacy.noise_y"));
    locked->setMaximumHeight(80);
    form->addRow(tr("Locked parameters\n(one JSON path a line)"), locked);
    auto *hidden = new QPlainTextEdit(toQStringList(p.hiddenParams).join(QLatin1Char('\n')), &dialog);
    hidden->setMaximumHeight(80);
    form->addRow(tr("Hidden parameters"), hidden);
    auto *start = new QCheckBox(tr("Open this file in presentation mode"), &dialog);
    start->setChecked(p.start);
    form->addRow(QString(), start);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Lesson notes (Markdown)"), &dialog));
    auto *notes = new QPlainTextEdit(toQString(p.notes), &dialog);
    notes->setMinimumSize(520, 220);
    layout->addWidget(notes, 1);
    auto *error = new QLabel(&dialog);
    error->setStyleSheet(QStringLiteral("color: #b00020"));
    error->setWordWrap(true);
    layout->addWidget(error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, &dialog);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    Presentation edited;
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        Presentation q;
        for (const auto &id : presentationPanelIds())
            if (boxes.value(toQString(id))->isChecked())
                q.hiddenPanels.push_back(id);
        q.locked = toStdList(locked->toPlainText());
        q.hiddenParams = toStdList(hidden->toPlainText());
        q.notes = toStdString(notes->toPlainText());
        q.start = start->isChecked();
        // Validate the paths against the resolved experiment before writing them.
        if (mDocument) {
            Json doc = mDocument->toJson();
            doc.erase("presentation");
            auto experiment = parseExperiment(doc, toStdString(mDocument->baseDir()));
            auto check = parsePresentation(presentationToJson(q), experiment ? experiment->resolved : doc);
            if (!check) {
                error->setText(toQString(check.error().toString()));
                return;
            }
        }
        edited = q;
        dialog.accept();
    });
    if (dialog.exec() != QDialog::Accepted)
        return false;
    setPresentation(edited);
    return true;
}

} // namespace dplab
