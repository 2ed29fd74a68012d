// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/tuning.h"

#include "dplab/common/csv.h"
#include "dplab/engine/jsonpath.h"
#include "dplab/engine/metrics.h"
#include "dplab/engine/pointrunner.h"
#include "dplab/engine/runidentity.h"
#include "dplab/engine/writers.h"
#include "dplab/privacy/rng.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

namespace dplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kDefaultCandidatesPerRun = 20;
constexpr int kMinCandidatesPerRun = 3;
constexpr double kGolden = 0.6180339887498949; // (√5 − 1) / 2

/** The value at `path` in `doc`, or null when a segment is missing ("[*]" addresses nothing:
 *  tuning sets one value at one place per run). */
const Json *findPath(const Json &doc, const std::string &path)
{
    const auto segments = splitJsonPath(path, "--param");
    if (!segments)
        return nullptr;
    const Json *node = &doc;
    for (const auto &seg : *segments) {
        if (isJsonPathIndex(seg)) {
            const std::size_t index = jsonPathIndex(seg);
            if (!node->is_array() || index >= node->size())
                return nullptr;
            node = &(*node)[index];
        } else {
            if (!node->is_object() || !node->contains(seg))
                return nullptr;
            node = &(*node)[seg];
        }
    }
    return node;
}

/** The number at `path`, looking through a constant schedule {"type": "constant", "a": x} (what
 *  resolving makes of a plain step size); null when there is no number there. */
const Json *numberAt(const Json &doc, const std::string &path)
{
    const Json *node = findPath(doc, path);
    if (node && node->is_object() && node->value("type", "") == "constant" && node->contains("a")
        && (*node)["a"].is_number())
        node = &(*node)["a"];
    return node && node->is_number() ? node : nullptr;
}

bool isRunRelative(const std::string &first)
{
    return first == "params" || first == "privacy" || first == "compressor" || first == "init" || first == "weights";
}

/** Which runs a parameter path tunes, and its full path for each. */
struct ParameterPlan {
    enum class Kind { PerRun, OneRun, Shared } kind = Kind::PerRun;
    std::vector<int> runs;
    std::vector<std::string> paths; ///< per experiment run ("" for runs not tuned)

    /** Tunes run `r` at `full` when the run has that parameter; false when it has not. */
    bool addIfPresent(const Experiment &e, int r, const std::string &full)
    {
        if (!findPath(e.resolved, full))
            return false;
        runs.push_back(r);
        paths[static_cast<std::size_t>(r)] = full;
        return true;
    }
};

Result<ParameterPlan> planParameter(const Experiment &e, const std::string &path)
{
    if (path.find(',') != std::string::npos) {
        // Alternatives, for runs whose algorithms name their step differently
        // ("params.alpha,params.stepsize.a"): each run takes the first it has.
        const std::vector<std::string> alternatives = splitText(path, ',');
        ParameterPlan plan;
        plan.paths.assign(e.runs.size(), "");
        for (const auto &alternative : alternatives) {
            const auto segments = splitJsonPath(alternative, "--param");
            if (!segments)
                return segments.error();
            if (!isRunRelative(segments->front()))
                return Error::invalid("--param", "\"" + alternative + "\": a list of alternatives holds paths relative "
                                                                      "to a run (params.…, privacy.…), e.g. params.alpha,params.stepsize");
        }
        for (std::size_t r = 0; r < e.runs.size(); ++r)
            for (const auto &alternative : alternatives)
                if (plan.addIfPresent(e, static_cast<int>(r), indexPath("runs", r) + "." + alternative))
                    break;
        return plan;
    }
    const auto parsed = splitJsonPath(path, "--param");
    if (!parsed)
        return parsed.error();
    const std::vector<std::string> &segments = *parsed;
    ParameterPlan plan;
    plan.paths.assign(e.runs.size(), "");
    const auto runCount = static_cast<int>(e.runs.size());
    if (segments.front() == "runs") {
        if (segments.size() < 3 || !isJsonPathIndex(segments[1]) || isJsonPathIndex(segments[2]))
            return Error::invalid("--param", "\"" + path + "\": runs needs an index and a key (runs[0].params.stepsize)");
        const std::string rest = path.substr(path.find(']') + 2);
        if (segments[1] == "[*]") {
            plan.kind = ParameterPlan::Kind::PerRun;
            for (int r = 0; r < runCount; ++r)
                plan.addIfPresent(e, r, indexPath("runs", r) + "." + rest);
        } else {
            const std::size_t index = jsonPathIndex(segments[1]);
            if (index >= e.runs.size())
                return Error::invalid("--param", "\"" + path + "\": the experiment has runs[0] to runs["
                                                     + std::to_string(runCount - 1) + "]");
            plan.kind = ParameterPlan::Kind::OneRun;
            plan.runs.push_back(static_cast<int>(index));
            plan.paths[index] = path;
        }
    } else if (isRunRelative(segments.front())) {
        // Relative: every run that has the parameter (a run of another algorithm may lack it and
        // is then left as it is, with the reason in the results).
        for (int r = 0; r < runCount; ++r)
            plan.addIfPresent(e, r, indexPath("runs", r) + "." + path);
    } else {
        plan.kind = ParameterPlan::Kind::Shared;
        for (int r = 0; r < runCount; ++r) {
            plan.runs.push_back(r);
            plan.paths[r] = path;
        }
    }
    return plan;
}

/** The keys of an object, for messages. */
std::string keysOf(const Json *node)
{
    if (!node || !node->is_object() || node->empty())
        return "";
    std::string keys;
    for (auto it = node->begin(); it != node->end(); ++it)
        keys += (keys.empty() ? "" : ", ") + it.key();
    return keys;
}

Status checkParameterAt(const Json &doc, const std::string &fullPath, const std::string &given)
{
    const Json *value = findPath(doc, fullPath);
    if (!value) {
        const auto dot = fullPath.rfind('.');
        const std::string parent = dot == std::string::npos ? "" : fullPath.substr(0, dot);
        const std::string known = keysOf(parent.empty() ? &doc : findPath(doc, parent));
        return Error::invalid("--param", "\"" + given + "\": " + fullPath + " is not in the resolved experiment"
                                             + (known.empty() ? std::string() : " (there: " + known + ")"));
    }
    if (!numberAt(doc, fullPath)) {
        std::string shown = value->dump();
        if (shown.size() > 60)
            shown = shown.substr(0, 57) + "...";
        std::string hint;
        if (value->is_object() && value->contains("a"))
            hint = "; tune one of its numbers, e.g. " + given + ".a";
        return Error::invalid("--param", "\"" + given + "\": " + fullPath + " is " + shown + ", not a number" + hint);
    }
    return {};
}

bool maximised(const std::string &metric)
{
    return metric == metric::TrainAccuracy || metric == metric::TestAccuracy;
}

double toScale(double x, bool log) { return log ? std::log(x) : x; }
double fromScale(double u, bool log) { return log ? std::exp(u) : u; }

/** The search state of one run (docs/tuning.md): grid, then golden section in a bracket. */
struct Search {
    int run = 0;
    int slots = 0;     ///< candidate evaluations left (cached ones count too)
    int gridSize = 0;
    bool inGrid = true;
    std::vector<double> gridScores; ///< per grid point
    double a = 0, b = 0, c = 0, d = 0; ///< scale coordinates of the golden bracket and points
    double fc = kNaN, fd = kNaN;
    bool haveC = false, haveD = false;
    bool done = false;
};

struct Request {
    int run = 0;
    double u = 0.0;       ///< scale coordinate
    double value = 0.0;   ///< parameter value
    char role = 'g';      ///< 'g' grid k (index), 'c', 'd'
    int gridIndex = 0;
};

} // namespace

Status checkTuneOptions(const Experiment &experiment, const TuneOptions &options)
{
    if (experiment.sweep)
        return Error::unsupported("sweep", "the experiment sweeps " + experiment.sweep->parameter
                                               + "; tune searches a parameter itself — remove the sweep");
    auto plan = planParameter(experiment, options.parameter);
    if (!plan)
        return plan.error();
    if (plan->runs.empty()) { // a relative path no run has
        std::string relative = options.parameter.substr(0, options.parameter.find(','));
        if (relative.rfind("runs[*].", 0) == 0)
            relative = relative.substr(8);
        return checkParameterAt(experiment.resolved, indexPath("runs", 0) + "." + relative, options.parameter);
    }
    for (int r : plan->runs)
        if (auto s = checkParameterAt(experiment.resolved, plan->paths[r], options.parameter); !s)
            return s;
    if (!std::isfinite(options.lo) || !std::isfinite(options.hi))
        return Error::invalid("--range", "LO and HI must be finite numbers");
    if (!(options.lo < options.hi))
        return Error::invalid("--range", "is empty or inverted: LO must be < HI, got " + formatSignificant(options.lo, 6)
                                             + ":" + formatSignificant(options.hi, 6));
    if (options.logScale && !(options.lo > 0))
        return Error::invalid("--range", "--log needs LO > 0, got " + formatSignificant(options.lo, 6));
    const auto &names = allMetricNames();
    if (std::find(names.begin(), names.end(), options.metric) == names.end()) {
        std::string known;
        for (const auto &n : names)
            known += (known.empty() ? "" : ", ") + n;
        return Error::invalid("--metric", "unknown metric \"" + options.metric + "\" (known: " + known + ")");
    }
    if (options.epsilon && !(std::isfinite(*options.epsilon) && *options.epsilon > 0))
        return Error::invalid("--epsilon", "must be a finite number > 0");
    if (options.compare && plan->kind == ParameterPlan::Kind::OneRun)
        return Error::invalid("--compare", "tunes every run: give the parameter relative to each run (e.g. "
                                           "params.stepsize), not one run's " + options.parameter);
    const long long tuned = static_cast<long long>(plan->runs.size());
    if (options.budget < 0)
        return Error::invalid("--budget", "must be ≥ 0");
    if (options.budget > 0 && options.budget / (tuned * experiment.repetitions) < kMinCandidatesPerRun)
        return Error::invalid("--budget", std::to_string(options.budget) + " jobs allow fewer than "
                                              + std::to_string(kMinCandidatesPerRun) + " candidates per run ("
                                              + std::to_string(tuned) + " run(s) × " + std::to_string(experiment.repetitions)
                                              + " repetition(s) each); give at least "
                                              + std::to_string(kMinCandidatesPerRun * tuned * experiment.repetitions));
    return {};
}

namespace {

/** One tuning (tune()): its steps over the state they share. */
class Tuner
{
public:
    Tuner(const Experiment &experiment, const TuneOptions &options, RunnerOptions runner, RunObserver *observer,
          RunControl *control, const std::function<void(const TuneProgress &)> &progress)
        : experiment(experiment)
        , options(options)
        , runner(std::move(runner))
        , observer(observer)
        , control(control)
        , progress(progress)
        , plan(*planParameter(experiment, options.parameter))
    {
        resolveOptions.resolveSweepPoints = false;
        resolveOptions.threads = this->runner.threads;
    }

    Result<TuneResult> run()
    {
        out.parameter = options.parameter;
        out.metric = options.metric;
        out.epsilon = options.epsilon;
        out.maximise = maximised(options.metric);
        out.repetitions = experiment.repetitions;
        integer = std::all_of(plan.runs.begin(), plan.runs.end(), [&](int r) {
            return numberAt(experiment.resolved, plan.paths[r])->is_number_integer();
        });
        out.integer = integer;
        if (auto s = selectRuns(); !s)
            return s.error();
        if (auto s = planBudget(); !s)
            return s.error();
        if (auto s = checkRangeEnds(); !s)
            return s.error();
        if (auto s = search(); !s)
            return s.error();
        pickBest();
        if (auto s = writeTuned(); !s)
            return s.error();
        if (options.compare)
            compareBest();
        return out;
    }

private:
    /** The runs tuned and the base document: with a target ε, every calibrating run tuned has it. */
    Status selectRuns()
    {
        base = experiment.resolved;
        out.runs.resize(experiment.runs.size());
        for (std::size_t r = 0; r < experiment.runs.size(); ++r) {
            TunedRun &tr = out.runs[r];
            tr.run = static_cast<int>(r);
            tr.label = experiment.runs[r].label;
            tr.algorithm = experiment.runs[r].algorithm->id;
            if (std::find(plan.runs.begin(), plan.runs.end(), static_cast<int>(r)) == plan.runs.end()) {
                tr.reason = plan.kind == ParameterPlan::Kind::OneRun
                                ? "not selected by --param " + options.parameter
                                : "not tuned: " + tr.algorithm + " has no " + options.parameter;
                continue;
            }
            if (options.epsilon) {
                if (!calibratesEpsilon(*experiment.runs[r].algorithm)) {
                    tr.reason = "not comparable: " + tr.algorithm + " has no target-ε calibration (no privacy.epsilon), "
                                "so it cannot run at ε = " + formatSignificant(*options.epsilon, 6);
                    continue;
                }
                base["runs"][r]["privacy"]["epsilon"] = *options.epsilon;
            }
            tr.tuned = true;
            tunedRuns.push_back(static_cast<int>(r));
        }
        if (tunedRuns.empty())
            return Error::invalid(options.epsilon ? "--epsilon" : "--param",
                                  options.epsilon ? "no run tuned by --param calibrates its noise to a target ε"
                                                  : "selects no run");
        return {};
    }

    /** The budget, its candidates per run, the grid and every search's start. */
    Status planBudget()
    {
        const long long perRunJobs = static_cast<long long>(experiment.repetitions);
        budget = options.budget > 0 ? options.budget
                                    : kDefaultCandidatesPerRun * perRunJobs * static_cast<long long>(plan.runs.size());
        out.budget = budget;
        // Split over the runs tuned (runs found not comparable leave their share unused: the budget
        // is what the options promise, not stretched for the others).
        const int slots = static_cast<int>(std::min<long long>(
            1000, budget / (perRunJobs * static_cast<long long>(plan.runs.size()))));
        uLo = toScale(options.lo, options.logScale);
        uHi = toScale(options.hi, options.logScale);
        const int gridSize = std::min(slots, std::clamp((2 * slots + 4) / 5, kMinCandidatesPerRun, 9));
        if (integer && std::ceil(options.lo) > std::floor(options.hi))
            return Error::invalid("--range", options.parameter + " is an integer and " + formatSignificant(options.lo, 6)
                                                 + ":" + formatSignificant(options.hi, 6) + " holds none");
        for (int r : tunedRuns) {
            Search s;
            s.run = r;
            s.slots = slots;
            s.gridSize = gridSize;
            searches.push_back(s);
        }
        return {};
    }

    double valueAt(double u) const
    {
        // The ends exactly (exp(log(x)) need not give x back).
        const bool log = options.logScale;
        double v = u <= uLo ? options.lo : u >= uHi ? options.hi : std::clamp(fromScale(u, log), options.lo, options.hi);
        return integer ? std::clamp(std::round(v), std::ceil(options.lo), std::floor(options.hi)) : v;
    }

    double score(const TuneCandidate &c) const
    {
        if (c.status != RunStatus::Ok || c.stats.count == 0 || !std::isfinite(c.stats.mean))
            return kInf;
        return out.maximise ? -c.stats.mean : c.stats.mean;
    }

    Json parameterValue(double value) const
    {
        return integer ? Json(static_cast<long long>(value)) : Json(value);
    }

    Result<Json> candidateDocument(int run, double value) const
    {
        Json doc = base;
        if (auto s = setJsonPath(doc, plan.paths[run], parameterValue(value)); !s)
            return Error::invalid("--param", s.error().message);
        return doc;
    }

    /** An error of candidate `value`, said against --range. */
    Error atCandidate(Error err, double value) const
    {
        err.message = (err.where.empty() ? std::string() : err.where + ": ") + err.message + " (at "
                      + options.parameter + " = " + formatSignificant(value, 10) + ")";
        err.where = "--range";
        return err;
    }

    /** The built experiment of run `run` at `value`. */
    Result<Experiment> pointFor(int run, double value) const
    {
        auto doc = candidateDocument(run, value);
        if (!doc)
            return doc.error();
        auto point = resolveExperiment(*doc, experiment.baseDir, resolveOptions);
        if (!point)
            return atCandidate(point.error(), value);
        // The problem is shared when the candidate changes nothing it is built from.
        const bool sameProblem = doc->value("graph", Json()) == experiment.resolved.value("graph", Json())
                                 && doc->value("problem", Json()) == experiment.resolved.value("problem", Json())
                                 && point->seed == experiment.seed;
        if (sameProblem) {
            point->problem = experiment.problem;
            point->problemSpec.dimension = experiment.problem->dimension();
        }
        if (auto s = buildExperiment(*point); !s)
            return atCandidate(s.error(), value);
        return point;
    }

    /** Both ends of the range must be valid values of every run tuned (one clear message now,
     *  not a failure in the middle of the search). */
    Status checkRangeEnds() const
    {
        for (int r : tunedRuns)
            for (double v : {valueAt(uLo), valueAt(uHi)})
                if (auto p = pointFor(r, v); !p)
                    return p.error();
        return {};
    }

    /** This round's requests: every search's next points. */
    std::vector<Request> nextRequests()
    {
        std::vector<Request> requests;
        for (Search &s : searches) {
            if (s.done)
                continue;
            if (s.inGrid) {
                for (int k = 0; k < s.gridSize; ++k) {
                    const double u = s.gridSize == 1 ? uLo : uLo + (uHi - uLo) * k / (s.gridSize - 1);
                    requests.push_back({s.run, u, valueAt(k == s.gridSize - 1 ? uHi : u), 'g', k});
                }
                s.slots -= s.gridSize;
                continue;
            }
            if (!s.haveC && s.slots > 0) {
                requests.push_back({s.run, s.c, valueAt(s.c), 'c', 0});
                --s.slots;
            }
            if (!s.haveD && s.slots > 0) {
                requests.push_back({s.run, s.d, valueAt(s.d), 'd', 0});
                --s.slots;
            }
        }
        return requests;
    }

    /** Grid, then golden section, round by round until every search is done or the run is
     *  cancelled. */
    Status search()
    {
        int round = 0;
        for (;;) {
            const std::vector<Request> requests = nextRequests();
            if (requests.empty())
                break;
            if (control && control->isCancelled()) {
                out.cancelled = true;
                break;
            }
            std::vector<std::string> identities(requests.size());
            std::vector<TuneCandidate> roundCandidates;
            bool cancelled = false;
            if (auto s = evaluate(requests, identities, roundCandidates, cancelled); !s)
                return s.error();
            if (cancelled) {
                out.cancelled = true;
                break;
            }
            advance(requests, identities);
            ++round;
            if (progress)
                progress({round, out.jobs, budget, std::move(roundCandidates)});
        }
        return {};
    }

    /** Runs the candidates of `requests` not evaluated before (one job per distinct run
     *  identity); candidates already evaluated are taken from the cache. */
    Status evaluate(const std::vector<Request> &requests, std::vector<std::string> &identities,
                    std::vector<TuneCandidate> &roundCandidates, bool &cancelled)
    {
        std::vector<std::unique_ptr<Experiment>> points;
        std::vector<PointJobs> jobs;
        std::vector<int> jobOf(requests.size(), -1);
        std::map<std::string, int> inRound;
        for (std::size_t q = 0; q < requests.size(); ++q) {
            auto point = pointFor(requests[q].run, requests[q].value);
            if (!point)
                return point.error();
            identities[q] = runIdentity(*point, requests[q].run, -1);
            if (evaluated.count(identities[q]))
                continue;
            if (auto it = inRound.find(identities[q]); it != inRound.end()) {
                jobOf[q] = it->second;
                continue;
            }
            points.push_back(std::make_unique<Experiment>(std::move(*point)));
            jobOf[q] = static_cast<int>(jobs.size());
            inRound[identities[q]] = jobOf[q];
            jobs.push_back({points.back().get(), Json(requests[q].value), {requests[q].run}});
        }
        if (jobs.empty())
            return {};
        auto result = runPoints(jobs, runner, observer, control);
        if (!result)
            return result.error();
        for (std::size_t p = 0; p < jobs.size(); ++p) // jobs a cancellation stopped before they began do not count
            for (const auto &rep : result->points[p].runs[jobs[p].runs.front()].repetitions)
                out.jobs += rep.status != RunStatus::Cancelled || !rep.values.empty() ? 1 : 0;
        cancelled = result->cancelled || (control && control->isCancelled());
        for (std::size_t p = 0; p < jobs.size(); ++p) {
            const int r = jobs[p].runs.front();
            const RunResult &rr = result->points[p].runs[r];
            if (rr.status() == RunStatus::Cancelled)
                continue; // incomplete: not a result
            auto c = candidateOf(rr, r, jobs[p].value.get<double>());
            if (!c)
                return c.error();
            for (std::size_t q = 0; q < requests.size(); ++q)
                if (jobOf[q] == static_cast<int>(p)) {
                    c->identity = identities[q];
                    break;
                }
            evaluated[c->identity] = *c;
            out.runs[r].candidates.push_back(*c);
            roundCandidates.push_back(*c);
        }
        return {};
    }

    /** The candidate a run's result makes: the metric's final values and their statistics. */
    Result<TuneCandidate> candidateOf(const RunResult &rr, int r, double value) const
    {
        const auto m = std::find(rr.metricNames.begin(), rr.metricNames.end(), options.metric);
        if (m == rr.metricNames.end()) {
            std::string recorded;
            for (const auto &n : rr.metricNames)
                recorded += (recorded.empty() ? "" : ", ") + n;
            return Error::invalid("--metric", indexPath("runs", r) + " (" + rr.label + ") does not record "
                                                  + options.metric + " (it records " + recorded + ")");
        }
        const auto column = static_cast<std::size_t>(m - rr.metricNames.begin());
        TuneCandidate c;
        c.run = r;
        c.value = value;
        c.status = rr.status();
        for (const auto &rep : rr.repetitions)
            c.finals.push_back(rep.values.empty() ? kNaN : rep.values.back()[column]);
        c.stats = summarize(c.finals);
        return c;
    }

    /** Advances every search with this round's scores: the grid's best point brackets the golden
     *  section; each golden step keeps the better side. */
    void advance(const std::vector<Request> &requests, const std::vector<std::string> &identities)
    {
        for (Search &s : searches) {
            if (s.done)
                continue;
            for (std::size_t q = 0; q < requests.size(); ++q) {
                if (requests[q].run != s.run)
                    continue;
                const double f = score(evaluated.at(identities[q]));
                if (requests[q].role == 'g') {
                    s.gridScores.push_back(f);
                } else if (requests[q].role == 'c') {
                    s.fc = f;
                    s.haveC = true;
                } else {
                    s.fd = f;
                    s.haveD = true;
                }
            }
            if (s.inGrid) {
                s.inGrid = false;
                const int k = static_cast<int>(std::min_element(s.gridScores.begin(), s.gridScores.end())
                                               - s.gridScores.begin());
                const double step = s.gridSize > 1 ? (uHi - uLo) / (s.gridSize - 1) : 0.0;
                s.a = std::max(uLo, uLo + step * (k - 1));
                s.b = std::min(uHi, uLo + step * (k + 1));
                s.c = s.b - kGolden * (s.b - s.a);
                s.d = s.a + kGolden * (s.b - s.a);
            } else if (s.haveC && s.haveD) {
                if (s.fc <= s.fd) { // the minimum is in [a, d]
                    s.b = s.d;
                    s.d = s.c;
                    s.fd = s.fc;
                    s.c = s.b - kGolden * (s.b - s.a);
                    s.haveC = false;
                } else { // in [c, b]
                    s.a = s.c;
                    s.c = s.d;
                    s.fc = s.fd;
                    s.d = s.a + kGolden * (s.b - s.a);
                    s.haveD = false;
                }
            }
            out.runs[s.run].bracketLow = valueAt(s.a);
            out.runs[s.run].bracketHigh = valueAt(s.b);
            if (s.slots <= 0)
                s.done = true;
        }
    }

    /** The best candidate of every run: lowest score, ties to the smaller value (deterministic);
     *  a note for a best value at an end of the range (the minimum may lie beyond it). */
    void pickBest()
    {
        for (TunedRun &tr : out.runs) {
            std::stable_sort(tr.candidates.begin(), tr.candidates.end(),
                             [](const TuneCandidate &x, const TuneCandidate &y) { return x.value < y.value; });
            double bestScore = kInf;
            for (std::size_t k = 0; k < tr.candidates.size(); ++k)
                if (score(tr.candidates[k]) < bestScore) {
                    bestScore = score(tr.candidates[k]);
                    tr.best = static_cast<int>(k);
                }
        }
        for (const TunedRun &tr : out.runs)
            if (const TuneCandidate *best = tr.bestCandidate(); best && tr.candidates.size() > 1
                                                                && (best->value == valueAt(uLo) || best->value == valueAt(uHi)))
                out.notes.push_back(indexPath("runs", tr.run) + " (" + tr.label + ") is best at the "
                                    + (best->value == valueAt(uLo) ? "lower" : "upper") + " end of the range ("
                                    + formatSignificant(best->value, 6) + "); its best value may lie beyond it: widen --range");
    }

    /** tuned.json: the base document with every tuned run at its best value (a shared parameter
     *  at the first run's), data files by absolute path. */
    Status writeTuned()
    {
        out.tuned = base;
        bool sharedSet = false;
        for (int r : tunedRuns) {
            const TuneCandidate *best = out.runs[r].bestCandidate();
            if (!best)
                continue;
            if (plan.kind == ParameterPlan::Kind::Shared) {
                if (sharedSet) {
                    noteSharedBest(r, *best);
                    continue;
                }
                sharedSet = true;
            }
            if (auto s = setJsonPath(out.tuned, plan.paths[r], parameterValue(best->value)); !s)
                return s.error();
        }
        out.tuned.erase("sweep");
        absoluteDataPaths();
        return {};
    }

    /** A shared parameter whose best value differs between runs: tuned.json has the first one's. */
    void noteSharedBest(int r, const TuneCandidate &best)
    {
        const TuneCandidate *first = nullptr;
        for (int q : tunedRuns)
            if ((first = out.runs[q].bestCandidate()))
                break;
        if (first && first->value != best.value)
            out.notes.push_back(options.parameter + " is shared by every run: tuned.json has "
                                + indexPath("runs", first->run) + " (" + out.runs[first->run].label
                                + ")'s best value " + formatSignificant(first->value, 10) + "; "
                                + indexPath("runs", r) + " (" + out.runs[r].label + ") is best at "
                                + formatSignificant(best.value, 10) + " (best.json)");
    }

    /** tuned.json is written elsewhere than the experiment: its data files by absolute path. */
    void absoluteDataPaths()
    {
        if (!out.tuned.contains("problem") || !out.tuned["problem"].is_object() || experiment.baseDir.empty())
            return;
        for (auto it = out.tuned["problem"].begin(); it != out.tuned["problem"].end(); ++it) {
            Json &data = it.value();
            if (!data.is_object() || !data.contains("source"))
                continue;
            for (const char *key : {"path", "images", "labels"})
                if (data.contains(key) && data[key].is_string()) {
                    std::filesystem::path file(data[key].get<std::string>());
                    if (file.is_relative())
                        data[key] = std::filesystem::absolute(std::filesystem::path(experiment.baseDir) / file)
                                        .lexically_normal()
                                        .string();
                }
        }
    }

    /** --compare: every pair of tuned runs at their best values, over the common seeds. */
    void compareBest()
    {
        for (std::size_t i = 0; i < tunedRuns.size(); ++i)
            for (std::size_t j = i + 1; j < tunedRuns.size(); ++j) {
                const TuneCandidate *x = out.runs[tunedRuns[i]].bestCandidate();
                const TuneCandidate *y = out.runs[tunedRuns[j]].bestCandidate();
                if (!x || !y)
                    continue;
                PairComparison pc;
                pc.a = tunedRuns[i];
                pc.b = tunedRuns[j];
                std::vector<double> diff;
                for (std::size_t k = 0; k < std::min(x->finals.size(), y->finals.size()); ++k)
                    if (std::isfinite(x->finals[k]) && std::isfinite(y->finals[k]))
                        diff.push_back(x->finals[k] - y->finals[k]);
                pc.repetitions = static_cast<int>(diff.size());
                pc.meanDifference = summarize(diff).mean;
                const std::uint64_t seed =
                    Rng::stream(experiment.seed, static_cast<std::uint64_t>(pc.a), static_cast<std::uint64_t>(pc.b), -1,
                                RngPurpose::Other)
                        .next();
                pc.bootstrap = bootstrapMeanInterval(diff, seed);
                pc.wilcoxon = wilcoxonSignedRank(diff);
                pc.significant = pc.wilcoxon.count > 0 && pc.wilcoxon.p < 0.05;
                out.comparisons.push_back(pc);
            }
        if (experiment.repetitions < 6)
            out.notes.push_back("with " + std::to_string(experiment.repetitions)
                                + " repetition(s) the signed-rank test cannot reach p < 0.05 (it needs at least 6 "
                                  "non-zero paired differences); use --repetitions 6 or more");
    }

    const Experiment &experiment;
    const TuneOptions &options;
    const RunnerOptions runner;
    RunObserver *observer;
    RunControl *control;
    const std::function<void(const TuneProgress &)> &progress;
    const ParameterPlan plan;
    ResolveOptions resolveOptions;
    TuneResult out;
    Json base;                  ///< the resolved experiment, at the target ε when there is one
    std::vector<int> tunedRuns; ///< the runs tuned, in order
    bool integer = false;       ///< the parameter is an integer in every run tuned
    long long budget = 0;
    double uLo = 0, uHi = 0;    ///< the range on the search's scale
    std::vector<Search> searches;
    std::map<std::string, TuneCandidate> evaluated; ///< candidates so far, by run identity (a cache across rounds)
};

} // namespace

Result<TuneResult> tune(const Experiment &experiment, const TuneOptions &options, RunnerOptions runner,
                        RunObserver *observer, RunControl *control,
                        const std::function<void(const TuneProgress &)> &progress)
{
    if (auto s = checkTuneOptions(experiment, options); !s)
        return s.error();
    if (!experiment.isBuilt())
        return Error::internal("tune", "the experiment is not built");
    return Tuner(experiment, options, std::move(runner), observer, control, progress).run();
}

std::string tuningCsv(const TuneResult &result)
{
    std::string csv = "run,value," + result.metric + "_mean," + result.metric + "_std,repetitions\n";
    for (const TunedRun &tr : result.runs)
        for (const TuneCandidate &c : tr.candidates)
            csv += csvField(tr.label) + "," + formatValue(c.value) + "," + formatValue(c.stats.mean) + ","
                   + formatValue(c.stats.std) + "," + std::to_string(c.stats.count) + "\n";
    return csv;
}

namespace {

Json numberOrNull(double v)
{
    return std::isfinite(v) ? Json(v) : Json();
}

} // namespace

Json bestJson(const TuneResult &result)
{
    Json runs = Json::object();
    for (const TunedRun &tr : result.runs) {
        Json j = {{"run", tr.run}, {"algorithm", tr.algorithm}};
        const TuneCandidate *best = tr.bestCandidate();
        if (!tr.tuned) {
            j["comparable"] = false;
            j["reason"] = tr.reason;
        } else if (!best) {
            j["comparable"] = true;
            j["reason"] = "every candidate diverged or gave no finite " + result.metric;
            j["candidates"] = tr.candidates.size();
        } else {
            j["comparable"] = true;
            j["value"] = best->value;
            j["mean"] = numberOrNull(best->stats.mean);
            j["std"] = numberOrNull(best->stats.std);
            j["repetitions"] = best->stats.count;
            j["ci_low"] = numberOrNull(best->stats.ciLow);
            j["ci_high"] = numberOrNull(best->stats.ciHigh);
            j["bracket"] = {tr.bracketLow, tr.bracketHigh};
            j["candidates"] = tr.candidates.size();
            j["identity"] = best->identity;
        }
        runs[tr.label] = j;
    }
    Json out = {{"parameter", result.parameter},
                {"metric", result.metric},
                {"goal", result.maximise ? "maximise" : "minimise"},
                {"budget_jobs", result.budget},
                {"jobs", result.jobs},
                {"runs", runs}};
    if (result.epsilon)
        out["epsilon"] = *result.epsilon;
    if (result.cancelled)
        out["cancelled"] = true;
    if (!result.comparisons.empty() || !result.notes.empty()) {
        Json pairs = Json::array();
        for (const PairComparison &pc : result.comparisons)
            pairs.push_back({{"run_a", result.runs[pc.a].label},
                             {"run_b", result.runs[pc.b].label},
                             {"mean_difference", numberOrNull(pc.meanDifference)},
                             {"bootstrap_low", numberOrNull(pc.bootstrap.low)},
                             {"bootstrap_high", numberOrNull(pc.bootstrap.high)},
                             {"wilcoxon_p", pc.wilcoxon.p},
                             {"wilcoxon_exact", pc.wilcoxon.exact},
                             {"n", pc.repetitions},
                             {"significant", pc.significant}});
        if (!result.comparisons.empty())
            out["comparisons"] = pairs;
        if (!result.notes.empty())
            out["notes"] = result.notes;
    }
    return out;
}

namespace {

/** The better run of a pair, "" when the difference is not significant. */
std::string betterOf(const TuneResult &result, const PairComparison &pc)
{
    if (!pc.significant)
        return "";
    const bool aLower = pc.meanDifference < 0;
    return result.runs[(aLower != result.maximise) ? pc.a : pc.b].label;
}

} // namespace

std::string comparisonCsv(const TuneResult &result)
{
    std::string csv = "run_a,run_b,mean_difference,bootstrap_low,bootstrap_high,wilcoxon_p,n,significant,better\n";
    for (const PairComparison &pc : result.comparisons)
        csv += csvField(result.runs[pc.a].label) + "," + csvField(result.runs[pc.b].label) + ","
               + formatValue(pc.meanDifference) + "," + formatValue(pc.bootstrap.low) + ","
               + formatValue(pc.bootstrap.high) + "," + formatValue(pc.wilcoxon.p) + "," + std::to_string(pc.repetitions)
               + "," + (pc.significant ? "yes" : "no") + "," + csvField(betterOf(result, pc)) + "\n";
    return csv;
}

std::string comparisonTable(const TuneResult &result)
{
    std::ostringstream t;
    t << "run\tbest " << result.parameter << "\t" << result.metric << " mean ± 95 % CI (n)\n";
    for (const TunedRun &tr : result.runs) {
        const TuneCandidate *best = tr.bestCandidate();
        if (!tr.tuned) {
            t << tr.label << "\t—\t" << tr.reason << "\n";
            continue;
        }
        if (!best) {
            t << tr.label << "\t—\tevery candidate diverged\n";
            continue;
        }
        const double half = best->stats.ciHigh - best->stats.mean;
        t << tr.label << "\t" << formatSignificant(best->value, 6) << "\t" << formatSignificant(best->stats.mean, 6)
          << " ± " << (std::isfinite(half) ? formatSignificant(half, 3) : std::string("?")) << " (" << best->stats.count
          << ")\n";
    }
    if (!result.comparisons.empty()) {
        t << "\npair\tmean difference [95 % bootstrap]\tsigned-rank p\tsignificant\n";
        for (const PairComparison &pc : result.comparisons) {
            const std::string better = betterOf(result, pc);
            t << result.runs[pc.a].label << " − " << result.runs[pc.b].label << "\t"
              << formatSignificant(pc.meanDifference, 4) << " [" << formatSignificant(pc.bootstrap.low, 4) << ", "
              << formatSignificant(pc.bootstrap.high, 4) << "]\t" << formatSignificant(pc.wilcoxon.p, 3) << "\t"
              << (pc.significant ? "yes: " + better + " is better" : std::string("no")) << "\n";
        }
    }
    for (const auto &note : result.notes)
        t << "note: " << note << "\n";
    return t.str();
}

} // namespace dplab
