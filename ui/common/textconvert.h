// SPDX-License-Identifier: GPL-3.0-or-later
//
// Conversions between core's std::string / Json and Qt's QString (UTF-8 both ways).
//
// Threading: pure functions.
#pragma once

#include "dplab/common/params.h"

#include <QString>

#include <string>

namespace dplab {

inline QString toQString(const std::string &s)
{
    return QString::fromStdString(s);
}

inline std::string toStdString(const QString &s)
{
    return s.toStdString();
}

/** A number for people: up to 6 significant digits, no trailing zeros ("0.05", "1e-06"). */
inline QString formatNumber(double v, int digits = 6)
{
    return QString::number(v, 'g', digits);
}

} // namespace dplab
