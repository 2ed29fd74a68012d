// SPDX-License-Identifier: GPL-3.0-or-later
#include "presetlibrary.h"

#include "textconvert.h"

#include "dplab/common/files.h"
#include "dplab/engine/experiment.h"
#include "dplab/problem/problem.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace dplab {

namespace {

QString groupOf(const QString &fileName)
{
    // A paper's teaching demonstration (paper002-teaching-gossip.json) is teaching first.
    if (fileName.startsWith(QLatin1String("teaching-")) || fileName.contains(QLatin1String("-teaching-")))
        return QStringLiteral("Teaching");
    static const QRegularExpression paper(QStringLiteral("^paper-?(\\d+)-"));
    const auto match = paper.match(fileName);
    if (match.hasMatch())
        return QStringLiteral("Paper %1").arg(match.captured(1));
    if (fileName.startsWith(QLatin1String("teaching-")))
        return QStringLiteral("Teaching");
    return QStringLiteral("Other");
}

int groupRank(const QString &group)
{
    if (group.startsWith(QLatin1String("Paper")))
        return 0;
    if (group == QLatin1String("Teaching"))
        return 1;
    return 2;
}

} // namespace

bool PresetLibrary::isPreset(const QString &fileName, const Json &doc)
{
    return fileName.endsWith(QLatin1String(".json")) && fileName != QLatin1String("experiment.json") && doc.is_object()
           && doc.contains("format") && doc.at("format") == Json(kExperimentFormat);
}

QVector<PresetInfo> PresetLibrary::presets(const QString &folder)
{
    QVector<PresetInfo> list;
    const QDir dir(folder);
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        PresetInfo info;
        info.resourcePath = dir.filePath(name);
        info.fileName = name;
        info.group = groupOf(name);
        info.title = name;
        Json doc;
        if (!read(info.resourcePath, &doc, nullptr) || !isPreset(name, doc))
            continue;
        if (doc.contains("name") && doc.at("name").is_string())
            info.title = toQString(doc.at("name").get<std::string>());
        // In Presets ▸ Teaching the submenu says it: "Teaching:" before every item repeated it.
        if (info.group == QLatin1String("Teaching") && info.title.startsWith(QLatin1String("Teaching: ")))
            info.title = info.title.mid(10);
        if (doc.contains("description") && doc.at("description").is_string())
            info.description = toQString(doc.at("description").get<std::string>());
        list.push_back(info);
    }
    std::stable_sort(list.begin(), list.end(), [](const PresetInfo &a, const PresetInfo &b) {
        if (groupRank(a.group) != groupRank(b.group))
            return groupRank(a.group) < groupRank(b.group);
        if (a.group != b.group)
            return a.group < b.group;
        return a.fileName < b.fileName;
    });
    return list;
}

QStringList PresetLibrary::groups(const QVector<PresetInfo> &presets)
{
    QStringList out;
    for (const PresetInfo &p : presets)
        if (!out.contains(p.group))
            out << p.group;
    return out;
}

bool PresetLibrary::read(const QString &resourcePath, Json *document, QString *error)
{
    QFile file(resourcePath);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(resourcePath, file.errorString());
        return false;
    }
    const QByteArray bytes = file.readAll();
    auto parsed = parseJson(std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                            toStdString(QFileInfo(resourcePath).fileName()));
    if (!parsed) {
        if (error)
            *error = toQString(parsed.error().toString());
        return false;
    }
    if (document)
        *document = std::move(parsed.value());
    return true;
}

QString PresetLibrary::baseDir()
{
    return QDir(toQString(resourceDir())).filePath(QStringLiteral("presets"));
}

} // namespace dplab
