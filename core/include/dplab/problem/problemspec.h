// SPDX-License-Identifier: GPL-3.0-or-later
//
// A problem before it is built (docs/architecture.md §4, specification vs built experiment): the resolved
// object, whether it is online, its dimension when the object decides it (-1 when the data decide
// it, e.g. multiclass: classes × features), the headers of its data files and an estimate of the
// memory the built problem takes. Resolving loads no data; building goes through
// DataCache::current().
//
// Threading: pure functions (the data cache is thread-safe).
#pragma once

#include "dplab/problem/datascan.h"
#include "dplab/problem/problem.h"

#include <memory>
#include <string>
#include <vector>

namespace dplab {

struct ProblemSpec {
    Json resolved;
    std::string id;
    bool online = false;
    int dimension = -1;
    std::vector<ProblemDataHeader> data;
    double bytes = 0;      ///< estimated memory of the built problem (data, matrices, streams)
    std::string bytesPath; ///< JSON path that decides `bytes` most
};

/** Resolves (validates, fills defaults) and scans the data headers; loads nothing. Errors name
 *  the JSON path (a missing data file: problem.data.path). */
Result<ProblemSpec> resolveProblem(const Json &spec, int agents, const std::string &path,
                                   const std::string &baseDir);

/** Builds a resolved problem; data files go through DataCache::current(). */
Result<std::shared_ptr<const Problem>> buildProblem(const ProblemSpec &spec, int agents,
                                                    const std::string &path,
                                                    const std::string &baseDir, std::uint64_t seed);

} // namespace dplab
