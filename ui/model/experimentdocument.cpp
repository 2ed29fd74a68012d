// SPDX-License-Identifier: GPL-3.0-or-later
#include "experimentdocument.h"

#include "graphdocument.h"
#include "setjsonvaluecommand.h"
#include "textconvert.h"

#include "dplab/common/files.h"
#include "dplab/engine/experiment.h"
#include "dplab/engine/runlabel.h"
#include "dplab/graph/generators.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QUndoStack>

namespace dplab {

namespace {

// Builds the graph of a "graph" object without the connectivity check, so a file whose graph
// is (say) disconnected can still be opened and repaired. Errors name the JSON path.
Result<Graph> buildGraphLeniently(const Json &g, Json &generator)
{
    if (!g.is_object())
        return Error::invalid("graph", "must be an object");
    generator = Json();
    Graph graph;
    if (g.contains("generator")) {
        auto generated = generateGraph(g.at("generator"), "graph.generator");
        if (!generated)
            return generated.error();
        graph = std::move(generated.value());
        generator = g.at("generator");
    } else {
        // A file that does not validate opens for repair only at a size the editor can show.
        if (!g.contains("nodes") || !g.at("nodes").is_number_integer() || g.at("nodes").get<long long>() < 0
            || g.at("nodes").get<long long>() > 5000)
            return Error::invalid("graph.nodes", "must be a whole number of nodes (at most 5000 to open a file that does not validate)");
        const int n = static_cast<int>(g.at("nodes").get<long long>());
        const bool directed = g.value("directed", false);
        graph = Graph(n, directed);
        const Json edges = g.value("edges", Json::array());
        if (!edges.is_array())
            return Error::invalid("graph.edges", "must be an array of [from, to] pairs");
        for (std::size_t k = 0; k < edges.size(); ++k) {
            const Json &e = edges[k];
            if (!e.is_array() || e.size() != 2 || !e[0].is_number_integer() || !e[1].is_number_integer())
                return Error::invalid(indexPath("graph.edges", k), "must be a pair [from, to] of node indices");
            graph.addEdge(e[0].get<int>(), e[1].get<int>()); // out-of-range, loops, duplicates: dropped
        }
    }
    if (g.contains("positions") && g.at("positions").is_array()
        && static_cast<int>(g.at("positions").size()) == graph.nodeCount()) {
        std::vector<NodePosition> positions;
        for (const Json &xy : g.at("positions")) {
            if (!xy.is_array() || xy.size() != 2 || !xy[0].is_number() || !xy[1].is_number())
                return Error::invalid("graph.positions", "must list [x, y] per node");
            positions.push_back({xy[0].get<double>(), xy[1].get<double>()});
        }
        graph.setPositions(std::move(positions));
    }
    return graph;
}

Json defaultWeightsFor(const AlgorithmDescriptor *algorithm, bool directed)
{
    if (!algorithm || algorithm->weights == WeightNeeds::Doubly || !directed)
        return Json{{"scheme", "metropolis"}};
    return Json{{"row", {{"scheme", "uniform"}}}, {"column", {{"scheme", "uniform"}}}};
}

// Parameter object for `specs`, keeping the values of `old` that the specs also have.
Json carryOver(const std::vector<ParamSpec> &specs, const Json &old)
{
    Json out = Json::object();
    for (const ParamSpec &spec : specs) {
        if (old.is_object() && old.contains(spec.key)) {
            Json probe{{spec.key, old.at(spec.key)}};
            if (resolveParams({spec}, probe, "").ok()) {
                out[spec.key] = old.at(spec.key);
                continue;
            }
        }
        if (!spec.defaultValue.is_null()) // an optional value unset is no key
            out[spec.key] = spec.defaultValue;
    }
    return out;
}

} // namespace

ExperimentDocument::ExperimentDocument(QObject *parent)
    : QObject(parent)
    , mUndoStack(new QUndoStack(this))
    , mGraph(new GraphDocument(mUndoStack, this))
    , mDocument(Json::object())
{
    connect(mUndoStack, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
    connect(mGraph, &GraphDocument::changed, this, &ExperimentDocument::changed);
}

ExperimentDocument::~ExperimentDocument() = default;

bool ExperimentDocument::loadFile(const QString &path, QString *error, QString *warning)
{
    auto doc = readJsonFile(toStdString(path));
    if (!doc) {
        if (error)
            *error = toQString(doc.error().toString());
        return false;
    }
    const QFileInfo info(path);
    return loadJson(*doc, info.absolutePath(), info.absoluteFilePath(), error, warning);
}

bool ExperimentDocument::loadJson(const Json &document, const QString &baseDir, const QString &fileName,
                                  QString *error, QString *warning)
{
    if (warning)
        warning->clear();
    Json content;
    Graph graph;
    Json generator;
    auto parsed = resolveExperiment(document, toStdString(baseDir)); // no data loaded to open a file
    if (parsed) {
        content = parsed->resolved;
        graph = parsed->graph;
        generator = parsed->graphJson.value("generator", Json());
    } else {
        if (!document.is_object() || !document.contains("graph")) {
            if (error)
                *error = toQString(parsed.error().toString());
            return false;
        }
        auto lenient = buildGraphLeniently(document.at("graph"), generator);
        if (!lenient) {
            if (error)
                *error = toQString(parsed.error().toString());
            return false;
        }
        graph = std::move(lenient.value());
        content = document;
        if (warning)
            *warning = toQString(parsed.error().toString());
    }
    Json graphPart = Json::object();
    if (content.contains("graph") && content.at("graph").is_object() && content.at("graph").contains("weights"))
        graphPart["weights"] = content.at("graph").at("weights");
    content["graph"] = graphPart;
    if (!content.contains("runs") || !content.at("runs").is_array())
        content["runs"] = Json::array();

    mUndoStack->clear();
    mDocument = std::move(content);
    mBaseDir = baseDir;
    if (mFileName != fileName) {
        mFileName = fileName;
        emit fileNameChanged(mFileName);
    }
    mGraph->load(std::move(graph), generator);
    mUndoStack->setClean();
    emit loaded();
    emit valueChanged(QString());
    emit changed();
    emit modifiedChanged(false);
    return true;
}

bool ExperimentDocument::save(const QString &path, QString *error)
{
    const std::string text = toJson().dump(2) + "\n";
    if (Status s = writeFileAtomic(toStdString(path), text); !s) {
        if (error)
            *error = toQString(s.error().toString());
        return false;
    }
    const QFileInfo info(path);
    const QString absolute = info.absoluteFilePath();
    mBaseDir = info.absolutePath();
    if (mFileName != absolute) {
        mFileName = absolute;
        emit fileNameChanged(mFileName);
    }
    mUndoStack->setClean();
    return true;
}

QString ExperimentDocument::displayName() const
{
    if (!mFileName.isEmpty())
        return QFileInfo(mFileName).fileName();
    const Json name = value("/name");
    return name.is_string() ? toQString(name.get<std::string>()) : tr("Untitled");
}

bool ExperimentDocument::isModified() const
{
    return !mUndoStack->isClean();
}

Json ExperimentDocument::toJson() const
{
    Json doc = mDocument;
    Json graph = mGraph->toJson();
    if (mDocument.contains("graph") && mDocument.at("graph").contains("weights"))
        graph["weights"] = mDocument.at("graph").at("weights");
    doc["graph"] = graph;
    return doc;
}

Result<Experiment> ExperimentDocument::validate(std::uint64_t memoryLimit) const
{
    ResolveOptions options;
    options.limits.maxMemoryBytes = memoryLimit;
    auto e = resolveExperiment(toJson(), toStdString(mBaseDir), options);
    if (!e)
        return e;
    if (auto s = buildExperiment(*e); !s)
        return s.error();
    return e;
}

Result<Experiment> ExperimentDocument::resolve() const
{
    return resolveExperiment(toJson(), toStdString(mBaseDir));
}

Json ExperimentDocument::value(const std::string &pointer) const
{
    try {
        const Json::json_pointer p(pointer);
        if (mDocument.contains(p))
            return mDocument.at(p);
    } catch (const Json::exception &) {
    }
    return Json();
}

void ExperimentDocument::setValue(const std::string &pointer, const Json &value, const QString &text)
{
    if (this->value(pointer) == value)
        return;
    mUndoStack->push(new SetJsonValueCommand(this, pointer, value, text));
}

void ExperimentDocument::applyValue(const std::string &pointer, const Json &value)
{
    try {
        const Json::json_pointer p(pointer);
        if (value.is_null()) {
            if (mDocument.contains(p)) {
                Json &parent = mDocument.at(p.parent_pointer());
                if (parent.is_object())
                    parent.erase(p.back());
                else if (parent.is_array())
                    parent.erase(static_cast<std::size_t>(std::stoul(p.back())));
            }
        } else {
            mDocument[p] = value;
        }
    } catch (const std::exception &) {
        Q_ASSERT_X(false, "ExperimentDocument::applyValue", "bad JSON pointer");
        return;
    }
    emit valueChanged(toQString(pointer));
    emit changed();
}

int ExperimentDocument::runCount() const
{
    const Json runs = value("/runs");
    return runs.is_array() ? static_cast<int>(runs.size()) : 0;
}

Json ExperimentDocument::run(int index) const
{
    return value("/runs/" + std::to_string(index));
}

QString ExperimentDocument::uniqueLabel(const QString &base) const
{
    auto taken = [&](const QString &label) {
        for (int i = 0; i < runCount(); ++i)
            if (toQString(run(i).value("label", std::string())) == label)
                return true;
        return false;
    };
    if (!taken(base))
        return base;
    for (int k = 2;; ++k) {
        const QString candidate = QStringLiteral("%1 %2").arg(base).arg(k);
        if (!taken(candidate))
            return candidate;
    }
}

int ExperimentDocument::addRun()
{
    const bool directed = mGraph->graph().isDirected();
    const AlgorithmDescriptor *chosen = nullptr;
    for (const auto &d : algorithmRegistry()) {
        if (d.graphKind == GraphKind::Either || (d.graphKind == GraphKind::Directed) == directed) {
            chosen = &d;
            break;
        }
    }
    if (!chosen && !algorithmRegistry().empty())
        chosen = &algorithmRegistry().front();
    if (!chosen)
        return -1;
    Json run{{"label", toStdString(uniqueLabel(toQString(defaultRunLabel(*chosen))))},
             {"algorithm", chosen->id},
             {"params", carryOver(chosen->params, Json())},
             {"privacy", carryOver(chosen->privacyParams, Json())},
             {"compressor", {{"type", "identity"}}},
             {"init", {{"type", "zeros"}}}};
    Json runs = value("/runs");
    if (!runs.is_array())
        runs = Json::array();
    runs.push_back(run);
    setValue("/runs", runs, tr("Add run"));
    return static_cast<int>(runs.size()) - 1;
}

int ExperimentDocument::duplicateRun(int index)
{
    Json runs = value("/runs");
    if (index < 0 || index >= static_cast<int>(runs.size()))
        return -1;
    Json copy = runs[index];
    copy["label"] = toStdString(uniqueLabel(toQString(copy.value("label", std::string("run"))) + tr(" copy")));
    copy.erase("color");
    runs.insert(runs.begin() + index + 1, copy);
    setValue("/runs", runs, tr("Duplicate run"));
    return index + 1;
}

void ExperimentDocument::removeRun(int index)
{
    Json runs = value("/runs");
    if (index < 0 || index >= static_cast<int>(runs.size()))
        return;
    runs.erase(runs.begin() + index);
    setValue("/runs", runs, tr("Remove run"));
}

bool ExperimentDocument::renameRun(int index, const QString &label, QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (index < 0 || index >= runCount())
        return fail(tr("no such run"));
    const QString trimmed = label.trimmed();
    if (trimmed.isEmpty())
        return fail(tr("a run label must not be empty"));
    if (const std::string problem = runLabelProblem(toStdString(trimmed)); !problem.empty())
        return fail(tr("a run label %1").arg(toQString(problem)));
    for (int i = 0; i < runCount(); ++i)
        if (i != index && toQString(run(i).value("label", std::string())) == trimmed)
            return fail(tr("another run is already called \"%1\"").arg(trimmed));
    setValue("/runs/" + std::to_string(index) + "/label", toStdString(trimmed), tr("Rename run"));
    return true;
}

void ExperimentDocument::setRunAlgorithm(int index, const std::string &algorithmId)
{
    const AlgorithmDescriptor *algorithm = findAlgorithm(algorithmId);
    if (!algorithm || index < 0 || index >= runCount())
        return;
    Json r = run(index);
    if (r.value("algorithm", std::string()) == algorithmId)
        return;
    // A default label (the old algorithm's name, or that name numbered "Push-Pull 2") follows
    // the algorithm; a label the user typed stays.
    if (const AlgorithmDescriptor *old = findAlgorithm(r.value("algorithm", std::string()))) {
        const QString label = toQString(r.value("label", std::string()));
        // Files written before default labels were short carry the full name.
        const QString oldNames[] = {toQString(defaultRunLabel(*old)), toQString(old->name)};
        static const QRegularExpression numbered(QStringLiteral("^(.*) \\d+$"));
        const auto match = numbered.match(label);
        bool isDefault = label.isEmpty();
        for (const QString &oldName : oldNames)
            isDefault = isDefault || label == oldName || (match.hasMatch() && match.captured(1) == oldName);
        if (isDefault)
            r["label"] = toStdString(uniqueLabel(toQString(defaultRunLabel(*algorithm))));
    }
    r["algorithm"] = algorithmId;
    r["params"] = carryOver(algorithm->params, r.value("params", Json()));
    r["privacy"] = carryOver(algorithm->privacyParams, r.value("privacy", Json()));
    if (!algorithm->acceptsCompressor)
        r["compressor"] = Json{{"type", "identity"}};
    setValue("/runs/" + std::to_string(index), r, tr("Change algorithm to %1").arg(toQString(algorithm->name)));
}

QColor ExperimentDocument::defaultRunColor(int index)
{
    static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                          "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
    const int count = static_cast<int>(sizeof(palette) / sizeof(palette[0]));
    return QColor(QLatin1String(palette[((index % count) + count) % count]));
}

QColor ExperimentDocument::runColor(int index) const
{
    const Json r = run(index);
    if (r.is_object() && r.contains("color") && r.at("color").is_string()) {
        const QColor c(toQString(r.at("color").get<std::string>()));
        if (c.isValid())
            return c;
    }
    return defaultRunColor(index);
}

Json ExperimentDocument::withGeneratorTargets(const Json &weights) const
{
    // Only a ring4-family scheme looks at the graph, so other schemes skip serialising it.
    if (!weights.is_object() || weights.value("scheme", std::string()) != "ring4-family")
        return weights;
    return inheritRing4Parameters(weights, mGraph->toJson());
}

Json ExperimentDocument::runWeights(int index) const
{
    const Json r = run(index);
    if (r.is_object() && r.contains("weights"))
        return withGeneratorTargets(r.at("weights"));
    const Json graphWeights = value("/graph/weights");
    if (!graphWeights.is_null())
        return withGeneratorTargets(graphWeights);
    const AlgorithmDescriptor *algorithm = r.is_object() ? findAlgorithm(r.value("algorithm", std::string())) : nullptr;
    return defaultWeightsFor(algorithm, mGraph->graph().isDirected());
}

} // namespace dplab
