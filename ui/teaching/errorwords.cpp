// SPDX-License-Identifier: GPL-3.0-or-later
#include "errorwords.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace dplab {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("dplab::errorInWords", text);
}

QString sectionName(const QString &section)
{
    if (section == QLatin1String("privacy"))
        return tr("Privacy");
    if (section == QLatin1String("params"))
        return tr("Parameters");
    if (section == QLatin1String("compressor"))
        return tr("Compression");
    return section;
}

} // namespace

QString errorInWords(const QString &error)
{
    static const QRegularExpression runPath(QStringLiteral("^runs\\[(\\d+)\\]\\.(\\w+)\\.(\\w+)[^:]*: (.*)$"),
                                            QRegularExpression::DotMatchesEverythingOption);
    const auto m = runPath.match(error.trimmed());
    if (!m.hasMatch())
        return error;
    const int run = m.captured(1).toInt() + 1;
    const QString section = m.captured(2), key = m.captured(3), message = m.captured(4);
    const QString path = m.captured(0).section(QLatin1Char(':'), 0, 0);
    if (section == QLatin1String("privacy") && key == QLatin1String("epsilon") && message.contains(QStringLiteral("gradient bound")))
        return tr("Run %1 cannot be calibrated to a target ε: its accountant needs a bound c_l on the gradients. "
                  "Add a gradient bound c_l in Privacy (or turn on the problem's clipping) to calibrate. (%2)")
            .arg(run)
            .arg(path);
    return tr("Run %1, %2 ▸ %3: %4 (%5)").arg(run).arg(sectionName(section), key, message, path);
}

} // namespace dplab
