// SPDX-License-Identifier: GPL-3.0-or-later
//
// PresetLibrary: the experiment files compiled into the program (resources/presets/*.json under
// the resource prefix :/presets/), grouped for the Presets menu: "Paper 000" … from files named
// paperNNN-*.json (or paper-NNN-*.json), "Teaching" from teaching-*.json and a paper's teaching
// demonstrations paperNNN-teaching-*.json, "Other" for the rest.
//
// Threading: reads Qt resources; call from any one thread at a time.
#pragma once

#include "dplab/common/params.h"

#include <QString>
#include <QVector>

namespace dplab {

struct PresetInfo {
    QString resourcePath; ///< ":/presets/teaching-push-pull-quadratic.json"
    QString fileName;     ///< "teaching-push-pull-quadratic.json"
    QString group;        ///< "Paper 000", "Teaching", "Other"
    QString title;        ///< the experiment's "name", else the file name
    QString description;  ///< the experiment's "description"
};

class PresetLibrary
{
public:
    /** Every compiled-in preset (or every preset in `dir`), sorted by group (papers first,
     *  then teaching) and file name. A preset is a *.json experiment file ("format":
     *  "dplab-experiment"); the files a results folder holds (manifest.json, summary.json, the
     *  resolved experiment.json) are not presets. */
    static QVector<PresetInfo> presets(const QString &dir = QStringLiteral(":/presets"));
    /** Whether `fileName` with document `doc` is a preset (the rule above). */
    static bool isPreset(const QString &fileName, const Json &doc);
    /** The group names in menu order. */
    static QStringList groups(const QVector<PresetInfo> &presets);
    /** Reads and parses one preset; false with `error` on failure. */
    static bool read(const QString &resourcePath, Json *document, QString *error);
    /** The preset the program opens by default. */
    static QString defaultPreset() { return QStringLiteral(":/presets/teaching-push-pull-quadratic.json"); }
    /** The folder bundled presets resolve relative data paths against (resources/presets). */
    static QString baseDir();
};

} // namespace dplab
