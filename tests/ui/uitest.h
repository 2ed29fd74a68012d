// SPDX-License-Identifier: GPL-3.0-or-later
//
// Helpers shared by the UI tests.
#pragma once

#include "dplab/common/params.h"

#include <QFile>
#include <QString>

/** JSON as compact text, for QCOMPARE (QTest cannot compare nlohmann::json directly). */
inline QString js(const dplab::Json &json)
{
    return QString::fromStdString(json.dump());
}

/** The JSON of FILE in FOLDER (a test's presets folder); the test program stops when it cannot be
 *  read. */
inline dplab::Json presetJson(const QString &folder, const QString &file)
{
    QFile f(folder + QLatin1Char('/') + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file));
    return dplab::Json::parse(f.readAll().toStdString());
}
