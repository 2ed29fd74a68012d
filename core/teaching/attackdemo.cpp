// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/teaching/attackdemo.h"

namespace dplab {

Result<Json> attackComparisonDocument(const Experiment &experiment, int agent, std::vector<std::string> *skipped)
{
    if (experiment.sweep)
        return Error::unsupported("sweep", "the attack demo runs one experiment; remove the sweep over "
                                               + experiment.sweep->parameter);
    const int n = experiment.graph.nodeCount();
    if (agent < 0 || agent >= n)
        return Error::invalid("eavesdropper.agent", "must be an agent index in [0, " + std::to_string(n - 1) + "]");
    Json doc = experiment.resolved;
    doc.erase("presentation"); // its paths may name runs that are renumbered here
    doc["eavesdropper"] = Json{{"agent", agent}};
    Json runs = Json::array();
    for (std::size_t r = 0; r < experiment.runs.size(); ++r) {
        const RunSpec &spec = experiment.runs[r];
        if (spec.algorithm->attack.kind == AttackSurface::Kind::None) {
            if (skipped)
                skipped->push_back(spec.label + " (" + spec.algorithm->id + ")");
            continue;
        }
        Json on = doc["runs"][r];
        Json off = on;
        on["label"] = spec.label + " (noise on)";
        off["label"] = spec.label + " (noise off)";
        if (off.contains("privacy")) {
            // Every noise scale (not its decay exponent) set to 0, and no target ε (a target
            // would scale the zero noise back up, or refuse it).
            for (auto it = off["privacy"].begin(); it != off["privacy"].end(); ++it) {
                const bool scale = it.key().rfind("noise", 0) == 0 && it.key().find("decay") == std::string::npos;
                if (scale)
                    it.value() = 0.0;
            }
            off["privacy"].erase("epsilon");
        }
        runs.push_back(on);
        runs.push_back(off);
    }
    if (runs.empty())
        return Error::unsupported("runs", "no run's algorithm has a modelled attack (supported: " + attackableAlgorithms() + ")");
    doc["runs"] = runs;
    doc["repetitions"] = 1;
    return doc;
}

} // namespace dplab
