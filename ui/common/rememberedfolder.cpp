// SPDX-License-Identifier: GPL-3.0-or-later
#include "rememberedfolder.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace dplab {

namespace {

QString key(const QString &kind)
{
    return QStringLiteral("folders/") + kind;
}

} // namespace

QString rememberedFolder(const QString &kind)
{
    const QString folder = QSettings().value(key(kind)).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void rememberFolder(const QString &kind, const QString &path)
{
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    QSettings().setValue(key(kind), info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

} // namespace dplab
