// SPDX-License-Identifier: GPL-3.0-or-later
//
// ExperimentFiles: the document manager of the window (like Tiled's DocumentManager). It opens,
// saves and replaces the one ExperimentDocument — File ▸ New/Open/Open Recent/Save/Save As, the
// compiled-in presets, dropped files — asks before unsaved changes are lost, and keeps the
// recent-files list in QSettings. It owns the file actions; MainWindow only places them.
//
// A file that cannot be opened leaves the document (and the results shown for it) untouched;
// `replaced()` is emitted only after a new document has been loaded.
//
// Threading: GUI thread.
#pragma once

#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QMimeData;
class QTimer;
class QWidget;

namespace dplab {

class ExperimentDocument;

class ExperimentFiles : public QObject
{
    Q_OBJECT

public:
    /** `window` parents the dialogs. */
    ExperimentFiles(ExperimentDocument *document, QWidget *window);

    ExperimentDocument *document() const { return mDocument; }

    QAction *newAction() const { return mNewAction; }
    QAction *openAction() const { return mOpenAction; }
    QAction *saveAction() const { return mSaveAction; }
    QAction *saveAsAction() const { return mSaveAsAction; }
    /** Fills `menu` with the recent files (kept up to date from then on). */
    void setRecentMenu(QMenu *menu);
    /** Adds one submenu per preset group ("Paper 001", "Teaching", …) to `menu`. */
    void fillPresetMenu(QMenu *menu);

    /** Whether `mime` carries an experiment file (a local .json) that dropping would open. */
    static bool acceptsDrop(const QMimeData *mime);
    /** Opens the dropped experiment file (after the drop event returns). */
    void openDropped(const QMimeData *mime);

    /** Opens an experiment file (asks to save unsaved changes first). */
    bool openFile(const QString &path);
    /** Opens a compiled-in preset (":/presets/…") as an untitled copy. */
    bool openPreset(const QString &resourcePath);
    /** Opens without asking (tests, command line): replaces the document on success only. */
    bool loadFile(const QString &path, QString *error);
    /** Asks whether to save unsaved changes; false when the user cancels. */
    bool maybeSave();

    // --- Crash recovery ---------------------------------------------------------------------
    // While the document has unsaved changes it is autosaved (every 20 s after a change) to
    // recovery.json in the application data folder; a clean exit removes it. After a crash the
    // next start offers to restore it.

    /** The recovery file (QStandardPaths::AppDataLocation/recovery.json). */
    static QString recoveryPath();
    /** Writes the recovery file now (when there are unsaved changes), atomically. */
    bool autosave();
    /** Removes the recovery file (a clean exit, or after the user declined it). */
    static void discardRecovery();
    /** Whether a recovery file from an earlier session exists. */
    static bool hasRecovery();
    /** Opens the recovered experiment (unsaved, with its original file name); false with
     *  `error` when it cannot be read. */
    bool restoreRecovery(QString *error);
    /** At start-up: when a recovery file exists, asks whether to restore it; true when restored. */
    bool offerRecovery();

public slots:
    void newExperiment();
    void open();
    bool save();
    bool saveAs();

signals:
    /** A new document was loaded (file, preset, New): results of the old one are stale. */
    void replaced();
    /** A message for the status bar. */
    void message(const QString &text, int timeoutMs);

private:
    void addRecentFile(const QString &path);
    void updateRecentMenu();

    ExperimentDocument *mDocument;
    QWidget *mWindow;
    QAction *mNewAction;
    QAction *mOpenAction;
    QAction *mSaveAction;
    QAction *mSaveAsAction;
    QMenu *mRecentMenu = nullptr;
    QTimer *mAutosaveTimer;
};

} // namespace dplab
