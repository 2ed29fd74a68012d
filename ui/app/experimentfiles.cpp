// SPDX-License-Identifier: GPL-3.0-or-later
#include "experimentfiles.h"

#include "experimentdocument.h"
#include "nonblockingwarning.h"
#include "presetlibrary.h"
#include "textconvert.h"

#include "dplab/algo/algorithm.h"
#include "dplab/common/files.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/runlabel.h"

#include <QAction>
#include <QDateTime>
#include <QFile>
#include <QStandardPaths>
#include <QUndoStack>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QSettings>
#include <QStyle>
#include <QTimer>
#include <QUrl>

namespace dplab {

namespace {

constexpr int kMaxRecentFiles = 10;

Json newExperimentTemplate()
{
    std::string algorithm;
    std::string name;
    for (const AlgorithmDescriptor &d : algorithmRegistry())
        if (d.graphKind != GraphKind::Directed && !d.needsOnline) {
            algorithm = d.id;
            name = defaultRunLabel(d);
            break;
        }
    return Json{{"format", kExperimentFormat},
                {"version", kExperimentVersion},
                {"name", "Untitled experiment"},
                {"seed", 1},
                {"iterations", 500},
                {"repetitions", 1},
                {"record_every", 1},
                {"graph", {{"generator", {{"type", "ring"}, {"nodes", 8}}}, {"weights", {{"scheme", "metropolis"}}}}},
                {"problem", {{"type", "quadratic"}, {"dimension", 2}}},
                {"runs", Json::array({Json{{"label", name}, {"algorithm", algorithm}}})}};
}

} // namespace

ExperimentFiles::ExperimentFiles(ExperimentDocument *document, QWidget *window)
    : QObject(window)
    , mDocument(document)
    , mWindow(window)
{
    QStyle *s = window->style();
    mNewAction = new QAction(tr("&New"), this);
    mNewAction->setShortcut(QKeySequence::New);
    connect(mNewAction, &QAction::triggered, this, &ExperimentFiles::newExperiment);
    mOpenAction = new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this);
    mOpenAction->setShortcut(QKeySequence::Open);
    connect(mOpenAction, &QAction::triggered, this, &ExperimentFiles::open);
    mSaveAction = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this);
    mSaveAction->setShortcut(QKeySequence::Save);
    connect(mSaveAction, &QAction::triggered, this, &ExperimentFiles::save);
    mSaveAsAction = new QAction(tr("Save &As…"), this);
    mSaveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(mSaveAsAction, &QAction::triggered, this, &ExperimentFiles::saveAs);

    mAutosaveTimer = new QTimer(this);
    mAutosaveTimer->setSingleShot(true);
    mAutosaveTimer->setInterval(20000);
    connect(mAutosaveTimer, &QTimer::timeout, this, &ExperimentFiles::autosave);
    connect(mDocument, &ExperimentDocument::changed, this, [this] {
        if (!mAutosaveTimer->isActive())
            mAutosaveTimer->start();
    });
    // Saved, or replaced by another document: nothing left to recover.
    connect(this, &ExperimentFiles::replaced, this, &ExperimentFiles::discardRecovery);
}

// --- crash recovery -----------------------------------------------------------------------------

QString ExperimentFiles::recoveryPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("recovery.json"));
}

bool ExperimentFiles::autosave()
{
    if (!mDocument->isModified())
        return false;
    const QString path = recoveryPath();
    QDir().mkpath(QFileInfo(path).absolutePath());
    const Json recovery{{"format", "dplab-recovery"},
                        {"saved_at", toStdString(QDateTime::currentDateTime().toString(Qt::ISODate))},
                        {"file", toStdString(mDocument->fileName())},
                        {"base_dir", toStdString(mDocument->baseDir())},
                        {"experiment", mDocument->toJson()}};
    return static_cast<bool>(writeFileAtomic(toStdString(path), recovery.dump(1)));
}

void ExperimentFiles::discardRecovery()
{
    QFile::remove(recoveryPath());
}

bool ExperimentFiles::hasRecovery()
{
    return QFileInfo::exists(recoveryPath());
}

bool ExperimentFiles::restoreRecovery(QString *error)
{
    auto recovery = readJsonFile(toStdString(recoveryPath()));
    if (!recovery || !recovery->is_object() || !recovery->contains("experiment")) {
        if (error)
            *error = recovery ? tr("%1: not a DPLab recovery file").arg(recoveryPath())
                              : toQString(recovery.error().toString());
        return false;
    }
    const Json &r = *recovery;
    QString warning;
    if (!mDocument->loadJson(r.at("experiment"), toQString(r.value("base_dir", std::string())),
                             toQString(r.value("file", std::string())), error, &warning))
        return false;
    mDocument->undoStack()->resetClean(); // unsaved: Save writes it back to its file
    emit replaced();
    autosave(); // still recoverable until it is saved
    emit message(tr("Restored the unsaved experiment from %1").arg(toQString(r.value("saved_at", std::string()))), 8000);
    return true;
}

bool ExperimentFiles::offerRecovery()
{
    if (!hasRecovery())
        return false;
    auto recovery = readJsonFile(toStdString(recoveryPath()));
    QString name = tr("an experiment");
    QString when;
    if (recovery && recovery->is_object()) {
        const Json experiment = recovery->value("experiment", Json::object());
        if (experiment.is_object() && experiment.contains("name") && experiment.at("name").is_string())
            name = QStringLiteral("“%1”").arg(toQString(experiment.at("name").get<std::string>()));
        when = toQString(recovery->value("saved_at", std::string()));
    }
    const auto answer = QMessageBox::question(
        mWindow, tr("Restore unsaved work"),
        tr("DPLab did not close normally. Restore the unsaved changes to %1 (autosaved %2)?").arg(name, when),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer != QMessageBox::Yes) {
        discardRecovery();
        return false;
    }
    QString error;
    if (restoreRecovery(&error))
        return true;
    showNonBlockingWarning(mWindow, tr("Restore unsaved work"), tr("Could not restore:\n%1").arg(error));
    return false;
}

void ExperimentFiles::setRecentMenu(QMenu *menu)
{
    mRecentMenu = menu;
    updateRecentMenu();
}

void ExperimentFiles::fillPresetMenu(QMenu *menu)
{
    const QVector<PresetInfo> list = PresetLibrary::presets();
    for (const QString &groupName : PresetLibrary::groups(list)) {
        QMenu *group = menu->addMenu(groupName);
        for (const PresetInfo &p : list) {
            if (p.group != groupName)
                continue;
            QAction *a = group->addAction(p.title);
            a->setToolTip(p.description);
            a->setStatusTip(p.fileName);
            connect(a, &QAction::triggered, this, [this, path = p.resourcePath] { openPreset(path); });
        }
        group->setToolTipsVisible(true);
    }
    if (list.isEmpty())
        menu->addAction(tr("(no presets compiled in)"))->setEnabled(false);
}

bool ExperimentFiles::acceptsDrop(const QMimeData *mime)
{
    return mime && mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile()
           && mime->urls().first().toLocalFile().endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

void ExperimentFiles::openDropped(const QMimeData *mime)
{
    if (!acceptsDrop(mime))
        return;
    const QString path = mime->urls().first().toLocalFile();
    QTimer::singleShot(0, this, [this, path] { openFile(path); });
}

// --- recent files -------------------------------------------------------------------------------

void ExperimentFiles::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
    updateRecentMenu();
}

void ExperimentFiles::updateRecentMenu()
{
    if (!mRecentMenu)
        return;
    mRecentMenu->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString &f : files) {
        QAction *a = mRecentMenu->addAction(QFileInfo(f).fileName());
        a->setToolTip(f);
        a->setStatusTip(f);
        connect(a, &QAction::triggered, this, [this, f] { openFile(f); });
    }
    if (!files.isEmpty()) {
        mRecentMenu->addSeparator();
        QAction *clear = mRecentMenu->addAction(tr("Clear Menu"));
        connect(clear, &QAction::triggered, this, [this] {
            QSettings().remove(QStringLiteral("recentFiles"));
            updateRecentMenu();
        });
    }
    mRecentMenu->setEnabled(!files.isEmpty());
}

// --- opening ------------------------------------------------------------------------------------

bool ExperimentFiles::maybeSave()
{
    if (!mDocument->isModified())
        return true;
    const auto answer = QMessageBox::warning(
        mWindow, tr("Unsaved changes"), tr("“%1” has unsaved changes. Save them?").arg(mDocument->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

bool ExperimentFiles::loadFile(const QString &path, QString *error)
{
    QString warning;
    if (!mDocument->loadFile(path, error, &warning))
        return false; // the document and its results stay as they were
    emit replaced();
    addRecentFile(path);
    if (!warning.isEmpty())
        emit message(tr("Opened with a problem to fix: %1").arg(warning), 15000);
    else
        emit message(tr("Opened %1").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

bool ExperimentFiles::openFile(const QString &path)
{
    if (!maybeSave())
        return false;
    QString error;
    if (!loadFile(path, &error)) {
        showNonBlockingWarning(mWindow, tr("Open experiment"), tr("Could not open %1:\n%2").arg(path, error));
        return false;
    }
    return true;
}

bool ExperimentFiles::openPreset(const QString &resourcePath)
{
    if (!maybeSave())
        return false;
    Json doc;
    QString error;
    QString warning;
    if (!PresetLibrary::read(resourcePath, &doc, &error)
        || !mDocument->loadJson(doc, PresetLibrary::baseDir(), QString(), &error, &warning)) {
        showNonBlockingWarning(mWindow, tr("Open preset"), tr("Could not open %1:\n%2").arg(resourcePath, error));
        return false;
    }
    emit replaced();
    if (!warning.isEmpty())
        emit message(tr("Preset has a problem: %1").arg(warning), 15000);
    return true;
}

void ExperimentFiles::newExperiment()
{
    if (!maybeSave())
        return;
    QString error;
    if (!mDocument->loadJson(newExperimentTemplate(), QDir::currentPath(), QString(), &error)) {
        QMessageBox::critical(mWindow, tr("New experiment"), error);
        return;
    }
    emit replaced();
}

void ExperimentFiles::open()
{
    if (!maybeSave())
        return;
    const QString dir = mDocument->fileName().isEmpty() ? QDir::homePath()
                                                        : QFileInfo(mDocument->fileName()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(mWindow, tr("Open experiment"), dir,
                                                      tr("DPLab experiments (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!loadFile(path, &error))
        showNonBlockingWarning(mWindow, tr("Open experiment"), tr("Could not open %1:\n%2").arg(path, error));
}

// --- saving -------------------------------------------------------------------------------------

bool ExperimentFiles::save()
{
    if (mDocument->fileName().isEmpty())
        return saveAs();
    QString error;
    if (!mDocument->save(mDocument->fileName(), &error)) {
        QMessageBox::critical(mWindow, tr("Save experiment"), tr("Could not save:\n%1").arg(error));
        return false;
    }
    discardRecovery();
    emit message(tr("Saved %1").arg(mDocument->displayName()), 4000);
    return true;
}

bool ExperimentFiles::saveAs()
{
    QString suggestion = mDocument->fileName();
    if (suggestion.isEmpty()) {
        QString name = mDocument->displayName().toLower();
        name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
        suggestion = QDir::home().filePath(name + QStringLiteral(".json"));
    }
    QString path = QFileDialog::getSaveFileName(mWindow, tr("Save experiment"), suggestion,
                                                tr("DPLab experiments (*.json)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    QString error;
    if (!mDocument->save(path, &error)) {
        QMessageBox::critical(mWindow, tr("Save experiment"), tr("Could not save:\n%1").arg(error));
        return false;
    }
    addRecentFile(path);
    discardRecovery();
    emit message(tr("Saved %1").arg(mDocument->displayName()), 4000);
    return true;
}

} // namespace dplab
