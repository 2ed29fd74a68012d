// SPDX-License-Identifier: GPL-3.0-or-later
//
// Helpers shared by the UI tests.
#pragma once

#include "dplab/common/params.h"

#include <QString>

/** JSON as compact text, for QCOMPARE (QTest cannot compare nlohmann::json directly). */
inline QString js(const dplab::Json &json)
{
    return QString::fromStdString(json.dump());
}
