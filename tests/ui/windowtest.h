// SPDX-License-Identifier: GPL-3.0-or-later
//
// Helpers shared by the UI tests that drive a whole MainWindow (tst_mainwindow, tst_lecture,
// tst_guistall, tst_experimentdocument).
#pragma once

#include "mainwindow.h"
#include "presetlibrary.h"

#include <QCoreApplication>
#include <QFile>
#include <QRect>
#include <QSettings>
#include <QSize>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

/** Settings of the test program's own (QStandardPaths' test mode, organisation DPLabTest,
 *  application `application`), cleared: no window layout or recent file of a previous run. They
 *  live under a HOME of this process's own: test mode puts the settings and the crash-recovery
 *  autosave under $HOME/.qttest, and every checkout's suite runs as the same user, so two suites
 *  on one machine shared one recovery.json and one's autosave or discardRecovery() landed in the
 *  middle of the other's recovery test. */
inline void useFreshTestSettings(const QString &application)
{
    static QTemporaryDir home;
    if (home.isValid())
        qputenv("HOME", QFile::encodeName(home.path()));
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DPLabTest"));
    QCoreApplication::setApplicationName(application);
    QSettings().clear();
}

/** Test data: one row "preset" (its resource path) per compiled-in preset, named by its file. */
inline void addPresetRows()
{
    QTest::addColumn<QString>("preset");
    for (const dplab::PresetInfo &p : dplab::PresetLibrary::presets())
        QTest::newRow(qPrintable(p.fileName)) << p.resourcePath;
}

/** Opens `preset` in `window`, resizes it to `size` and shows it; false when the preset does not
 *  open or the window is not exposed. */
inline bool openShown(dplab::MainWindow &window, const QString &preset, QSize size)
{
    if (!window.openPreset(preset))
        return false;
    window.resize(size);
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

/** The same with the window placed at `geometry` (setGeometry) instead of resized. */
inline bool openShown(dplab::MainWindow &window, const QString &preset, const QRect &geometry)
{
    if (!window.openPreset(preset))
        return false;
    window.setGeometry(geometry);
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}
