// SPDX-License-Identifier: GPL-3.0-or-later
#include "helppanel.h"

#include "experimentdocument.h"
#include "graphdocument.h"
#include "mathtext.h"
#include "textconvert.h"

#include <QScrollBar>

#include "dplab/algo/algorithm.h"
#include "dplab/compress/compressor.h"
#include "dplab/graph/weights.h"
#include "dplab/problem/problem.h"

namespace dplab {

namespace {

QString paramsTable(const std::vector<ParamSpec> &specs)
{
    if (specs.empty())
        return QString();
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='3' width='100%'>");
    for (const ParamSpec &spec : specs) {
        QString head = QStringLiteral("<b>%1</b>").arg(mathToHtml(toQString(spec.label.empty() ? spec.key : spec.label)));
        if (!spec.unit.empty())
            head += QStringLiteral(" [%1]").arg(toQString(spec.unit).toHtmlEscaped());
        head += QStringLiteral(" <code>%1</code>").arg(toQString(spec.key).toHtmlEscaped());
        QString body;
        if (!spec.help.empty())
            body += mathToHtml(toQString(spec.help));
        QStringList facts;
        if (spec.type == ParamType::Real || spec.type == ParamType::Integer)
            facts << HelpPanel::tr("range %1%2, %3%4")
                         .arg(spec.minExclusive ? QStringLiteral("(") : QStringLiteral("["), boundText(spec.min),
                              boundText(spec.max), QStringLiteral("]"));
        if (spec.type == ParamType::Real && spec.defaultValue.is_null())
            facts << HelpPanel::tr("optional: absent = not set");
        else if (!spec.defaultValue.is_null())
            facts << HelpPanel::tr("default %1")
                         .arg(spec.defaultValue.is_number() ? numberText(spec.defaultValue.get<double>())
                                                            : toQString(spec.defaultValue.dump()).toHtmlEscaped());
        if (spec.perAgent)
            facts << HelpPanel::tr("may be given per agent");
        if (!facts.isEmpty())
            body += QStringLiteral("<br/><small>%1</small>").arg(facts.join(QStringLiteral(" · ")));
        if (!spec.condition.empty())
            body += QStringLiteral("<br/><i>%1</i> %2").arg(HelpPanel::tr("Theorem condition:"),
                                                             mathToHtml(toQString(spec.condition)));
        html += QStringLiteral("<tr><td>%1<br/>%2</td></tr>").arg(head, body);
    }
    return html + QStringLiteral("</table>");
}

const Descriptor *findDescriptor(const std::vector<Descriptor> &list, const std::string &id)
{
    for (const Descriptor &d : list)
        if (d.id == id)
            return &d;
    return nullptr;
}

QString describe(const Descriptor &d)
{
    QString html = QStringLiteral("<b>%1</b>").arg(toQString(d.name).toHtmlEscaped());
    if (!d.reference.empty())
        html += QStringLiteral(" — <i>%1</i>").arg(toQString(d.reference).toHtmlEscaped());
    if (!d.explanation.empty())
        html += QStringLiteral("<br/>%1").arg(mathToHtml(toQString(d.explanation)));
    return html;
}

} // namespace

HelpPanel::HelpPanel(ExperimentDocument *document, QWidget *parent)
    : QTextBrowser(parent)
    , mDocument(document)
{
    setOpenExternalLinks(false);
    setWordWrapMode(QTextOption::WordWrap); // between words only, never inside one
    setObjectName(QStringLiteral("HelpPanel"));
    connect(document, &ExperimentDocument::valueChanged, this, &HelpPanel::refresh);
    connect(document, &ExperimentDocument::loaded, this, [this] {
        refresh();
        verticalScrollBar()->setValue(0); // a new experiment is read from the top
    });
    connect(document->graphDocument(), &GraphDocument::changed, this, &HelpPanel::refresh);
    refresh();
}

void HelpPanel::setRun(int run)
{
    const bool other = run != mRun;
    mRun = run;
    refresh();
    if (other)
        verticalScrollBar()->setValue(0); // another run is read from the top
}

void HelpPanel::refresh()
{
    QString html;
    const bool have = mRun >= 0 && mRun < mDocument->runCount();
    const Json run = have ? mDocument->run(mRun) : Json();
    const AlgorithmDescriptor *algorithm = have ? findAlgorithm(run.value("algorithm", std::string())) : nullptr;
    if (algorithm) {
        html += QStringLiteral("<h3>%1</h3>").arg(toQString(algorithm->name).toHtmlEscaped());
        if (!algorithm->reference.empty())
            html += QStringLiteral("<p><i>%1</i></p>").arg(toQString(algorithm->reference).toHtmlEscaped());
        html += QStringLiteral("<p>%1</p>").arg(mathToHtml(toQString(algorithm->explanation)));
        if (!algorithm->params.empty())
            html += QStringLiteral("<h4>%1</h4>").arg(tr("Parameters")) + paramsTable(algorithm->params);
        if (!algorithm->privacyParams.empty())
            html += QStringLiteral("<h4>%1</h4>").arg(tr("Privacy")) + paramsTable(algorithm->privacyParams);
        const Json compressor = run.value("compressor", Json::object());
        if (algorithm->acceptsCompressor && compressor.is_object())
            if (const Descriptor *d = findDescriptor(compressorDescriptors(), compressor.value("type", std::string("identity"))))
                html += QStringLiteral("<h4>%1</h4><p>%2</p>").arg(tr("Compressor"), describe(*d));
    } else {
        html += QStringLiteral("<h3>%1</h3><p>%2</p>")
                    .arg(tr("No run selected"), tr("Select a run in the Experiment panel to read what it does."));
    }
    // The weights the run mixes with and the problem.
    const Json weights = have ? mDocument->runWeights(mRun) : mDocument->value("/graph/weights");
    QStringList schemes;
    if (weights.is_object()) {
        // Say which matrix each scheme sets: "Uniform (row or column by role)" twice said neither.
        const std::pair<const char *, QString> parts[] = {
            {"row", tr("R (row-stochastic: pulls the decisions)")},
            {"column", tr("C (column-stochastic: pushes the trackers)")}};
        for (const auto &[part, role] : parts)
            if (weights.contains(part) && weights.at(part).is_object())
                if (const Descriptor *d = findDescriptor(weightSchemeDescriptors(),
                                                         weights.at(part).value("scheme", std::string())))
                    schemes << QStringLiteral("<i>%1:</i> ").arg(role) + describe(*d);
        if (weights.contains("scheme"))
            if (const Descriptor *d = findDescriptor(weightSchemeDescriptors(), weights.value("scheme", std::string())))
                schemes << QStringLiteral("<i>%1:</i> ").arg(tr("W (doubly stochastic)")) + describe(*d);
    }
    if (!schemes.isEmpty())
        html += QStringLiteral("<h4>%1</h4><p>%2</p>").arg(tr("Weights"), schemes.join(QStringLiteral("</p><p>")));
    const Json problem = mDocument->value("/problem");
    if (problem.is_object())
        if (const Descriptor *d = findDescriptor(problemDescriptors(), problem.value("type", std::string())))
            html += QStringLiteral("<h4>%1</h4><p>%2</p>").arg(tr("Problem"), describe(*d));
    html += QStringLiteral("<h4>%1</h4><p>%2</p>")
                .arg(tr("Reading ε"),
                     tr("The ε plot shows the privacy loss an accountant certifies after t iterations "
                        "(the largest over agents, or each agent's). δ is the probability with which the "
                        "guarantee may fail (0 for pure ε-DP). Smaller ε is more private. A bound in the "
                        "thousands or millions is mathematically valid but says nothing useful: the "
                        "noise is too small for the number of messages, or the accountant's bound grows "
                        "geometrically with the iterations."));
    if (html != mHtml) {
        mHtml = html;
        // An edit of the run being read keeps the place (another run or experiment starts at
        // the top: setRun, loaded).
        const int scroll = verticalScrollBar()->value();
        setHtml(html);
        verticalScrollBar()->setValue(scroll);
    }
}

} // namespace dplab
