// SPDX-License-Identifier: GPL-3.0-or-later
#include "parametertitle.h"

#include "dplab/algo/algorithm.h"
#include "dplab/compress/compressor.h"
#include "dplab/graph/generators.h"
#include "dplab/graph/weights.h"
#include "dplab/problem/problem.h"

#include <QRegularExpression>
#include <QStringList>

#include <vector>

namespace dplab {

namespace {

const ParamSpec *findIn(const std::vector<ParamSpec> &specs, const std::string &key)
{
    for (const ParamSpec &spec : specs)
        if (spec.key == key)
            return &spec;
    return nullptr;
}

const ParamSpec *findIn(const std::vector<Descriptor> &descriptors, const std::string &key)
{
    for (const Descriptor &d : descriptors)
        if (const ParamSpec *spec = findIn(d.params, key))
            return spec;
    return nullptr;
}

// Subscripts written with "_" in labels ("W_o") as Unicode where a subscript letter exists.
QString subscripts(QString text)
{
    static const QString from = QStringLiteral("aeoxhklmnpst0123456789ij");
    static const QString to = QStringLiteral("ₐₑₒₓₕₖₗₘₙₚₛₜ₀₁₂₃₄₅₆₇₈₉ᵢⱼ");
    static const QRegularExpression script(QStringLiteral("_\\{?([a-z0-9]+)\\}?"));
    QRegularExpressionMatch match;
    qsizetype from0 = 0;
    while ((match = script.match(text, from0)).hasMatch()) {
        QString converted;
        bool ok = true;
        for (QChar c : match.captured(1)) {
            const qsizetype k = from.indexOf(c);
            if (k < 0) {
                ok = false;
                break;
            }
            converted += to[k];
        }
        if (!ok) {
            from0 = match.capturedEnd();
            continue;
        }
        text.replace(match.capturedStart(), match.capturedLength(), converted);
        from0 = match.capturedStart() + converted.size();
    }
    return text;
}

} // namespace

QString sweepParameterTitle(const QString &path)
{
    // "runs[*].privacy.q" → {"runs", "privacy", "q"}; "graph.generator.rho_wo" → {...}.
    QString plain = path;
    plain.remove(QRegularExpression(QStringLiteral("\\[[^\\]]*\\]")));
    const QStringList parts = plain.split(QLatin1Char('.'), Qt::SkipEmptyParts);
    if (parts.isEmpty())
        return path;
    const std::string key = parts.last().toStdString();
    const ParamSpec *spec = nullptr;
    const QString area = parts.size() >= 2 ? parts[parts.size() - 2] : QString();
    if (parts.first() == QLatin1String("runs")) {
        for (const AlgorithmDescriptor &a : algorithmRegistry()) {
            if (area == QLatin1String("params"))
                spec = findIn(a.params, key);
            else if (area == QLatin1String("privacy"))
                spec = findIn(a.privacyParams, key);
            if (spec)
                break;
        }
        if (!spec && area == QLatin1String("compressor"))
            spec = findIn(compressorDescriptors(), key);
    } else if (parts.first() == QLatin1String("graph")) {
        if (parts.size() == 2 && parts[1] == QLatin1String("generator"))
            return QStringLiteral("Topology (graph generator)");
        spec = area == QLatin1String("weights") ? findIn(weightSchemeDescriptors(), key)
                                                : findIn(generatorDescriptors(), key);
        if (!spec)
            spec = findIn(weightSchemeDescriptors(), key);
    } else if (parts.first() == QLatin1String("problem")) {
        const std::string nested = parts.size() >= 3 ? (parts[parts.size() - 2] + QLatin1Char('.') + parts.last()).toStdString() : key;
        spec = findIn(problemDescriptors(), nested);
        if (!spec)
            spec = findIn(problemDescriptors(), key);
    }
    if (!spec || spec->label.empty())
        return path;
    QString title = subscripts(QString::fromStdString(spec->label));
    if (!spec->unit.empty())
        title += QStringLiteral(" [%1]").arg(QString::fromStdString(spec->unit));
    if (!title.contains(QString::fromStdString(key)))
        title += QStringLiteral(" · ") + QString::fromStdString(key);
    return title;
}

} // namespace dplab
