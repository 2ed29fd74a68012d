// SPDX-License-Identifier: GPL-3.0-or-later
//
// Resource limits: what an experiment may ask of the machine. An experiment's specification
// (resolveExperiment) carries an estimate of the memory it will need — graph, dense weight
// matrices, problem data, recorded metrics, traces, per-thread algorithm state — and that
// estimate is compared against these limits before anything large is allocated.
//
// Defaults are sized for a desktop: memory = min(8 GiB, 3/4 of the physical memory); threads ≤
// kMaxThreads. The CLI overrides them with --max-memory SIZE (e.g. 16G, 512M); the GUI asks for a
// confirmation before running over the limit.
//
// Threading: plain data and pure functions.
#pragma once

#include "dplab/common/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dplab {

/** The most worker threads a run may ask for (`--threads`). */
inline constexpr int kMaxThreads = 256;
/** The most values a sweep may have (each value is a whole experiment). */
inline constexpr std::size_t kMaxSweepValues = 10000;

struct ResourceLimits {
    std::uint64_t maxMemoryBytes = 0; ///< 0 = defaultMemoryLimit()

    /** The process-wide default: what setDefaultMemoryLimit() set, else min(8 GiB, 3/4 of the
     *  physical memory). Data loaders check their allocations against it. */
    static std::uint64_t defaultMemoryLimit();
    /** Sets the process-wide default (the CLI's --max-memory); 0 restores the heuristic. */
    static void setDefaultMemoryLimit(std::uint64_t bytes);
    /** The machine's physical memory (8 GiB when the system does not say): the ceiling past
     *  which no confirmation can let a run start. */
    static std::uint64_t physicalMemory();
    std::uint64_t memoryLimit() const { return maxMemoryBytes ? maxMemoryBytes : defaultMemoryLimit(); }
};

/** One line of an estimate: what, the JSON path that decides it, and its size in bytes. */
struct ResourceItem {
    std::string what; ///< "dense weight matrices", "data matrix", "recorded metrics", ...
    std::string path; ///< e.g. "graph.nodes", "problem.data", "iterations"
    double bytes = 0; ///< double: a hostile size must not overflow while being estimated
};

struct ResourceEstimate {
    std::vector<ResourceItem> items;

    double totalBytes() const;
    /** Adds `bytes` to the item `what` (created at `path` when new). */
    void add(const std::string &what, const std::string &path, double bytes);
    /** The largest item. REQUIRES: !items.empty(). */
    const ResourceItem &largest() const;
    /** "1.2 GiB (dense weight matrices 800 MiB at graph.nodes, ...)". */
    std::string summary() const;
};

/** The estimate against the limits: an InvalidArgument naming the largest item's path and the
 *  estimated size, or ok. */
Status checkResources(const ResourceEstimate &estimate, const ResourceLimits &limits);

/** "8 GiB", "512 MiB", "1.5 KiB", "12 B". */
std::string formatBytes(double bytes);

/** Parses "8G", "512M", "2048K", "1.5GiB", "100000000" (bytes). Errors name `option`. */
Result<std::uint64_t> parseByteSize(const std::string &text, const std::string &option);

/** A thread count against kMaxThreads (0 = all hardware threads). Errors name `option`. */
Status checkThreadCount(long long threads, const std::string &option);

} // namespace dplab
