// SPDX-License-Identifier: GPL-3.0-or-later
//
// Conversions between core's std::string / Json and Qt's QString (UTF-8 both ways).
//
// Threading: pure functions.
#pragma once

#include "dplab/common/formatnumber.h"
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

/** A number for people, as a QString: formatNumber (dplab/common/formatnumber.h), the one number
 *  formatter — `digits` significant digits, no trailing zeros ("0.05", "1e-06"). */
inline QString numberText(double v, int digits = 6)
{
    return toQString(formatNumber(v, digits));
}

/** A parameter's bound for people: "−∞" / "∞" beyond ±1e299 (the descriptors' unbounded), else
 *  numberText. */
inline QString boundText(double v)
{
    if (v <= -1e299)
        return QStringLiteral("−∞");
    if (v >= 1e299)
        return QStringLiteral("∞");
    return numberText(v);
}

} // namespace dplab
