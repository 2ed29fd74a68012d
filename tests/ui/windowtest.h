// SPDX-License-Identifier: GPL-3.0-or-later
//
// Helpers shared by the UI tests that drive a whole MainWindow (tst_mainwindow, tst_lecture,
// tst_guistall, tst_experimentdocument).
#pragma once

#include "mainwindow.h"
#include "presetlibrary.h"

#include <QCoreApplication>
#include <QRect>
#include <QSettings>
#include <QSize>
#include <QStandardPaths>
#include <QTest>

/** Settings of the test program's own (QStandardPaths' test mode, organisation DPLabTest,
 *  application `application`), cleared: no window layout or recent file of a previous run. */
inline void useFreshTestSettings(const QString &application)
{
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
