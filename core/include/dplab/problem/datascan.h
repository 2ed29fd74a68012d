// SPDX-License-Identifier: GPL-3.0-or-later
//
// Data files without loading them: header scans (sizes only, constant memory) for resource
// estimates and `validate`, and a cache of loaded data sets keyed by the files' path, size and
// modification time, so an experiment built again (a sweep point, the GUI re-validating, a second
// run) reads each file once.
//
// A header scan reads: CSV — the first row (column count, header detection) and the number of
// data rows; LIBSVM — the number of samples and the largest feature index; IDX — the headers of
// both files, checked against each other and against the file sizes. Malformed cells are left to
// the loader (`validate --deep` loads).
//
// Threading: header scans are pure functions; DataCache is thread-safe (one mutex).
#pragma once

#include "dplab/common/params.h"
#include "dplab/problem/dataset.h"

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dplab {

/** The size of a data file's contents, known without loading it. */
struct DataHeader {
    std::string file;       ///< resolved path (the images file for IDX)
    std::string format;     ///< "csv", "libsvm", "idx", "synthetic", "bundled"
    long long samples = 0;  ///< data rows (an upper bound when not scanned exactly)
    long long features = 0; ///< feature columns (without the label)

    /** samples × features doubles. */
    double matrixBytes() const { return 8.0 * static_cast<double>(samples) * static_cast<double>(features); }
};

/** CSV: rows and columns (minus the label). Errors: file missing / unreadable / empty. */
Result<DataHeader> scanCsvHeader(const std::string &path, const CsvOptions &options = {});
/** LIBSVM: samples and max(dimension, largest index). An index above a given dimension is an
 *  error here too (file:line). */
Result<DataHeader> scanLibsvmHeader(const std::string &path, int dimension = 0);
/** IDX: both headers, the label count against the image count, the header-declared sizes against
 *  the files' sizes. `maxSamples` > 0 caps the samples. */
Result<DataHeader> scanIdxHeader(const std::string &images, const std::string &labels, long long maxSamples = 0);

/** The bytes an IDX file's header declares (header + data), or an error when the product of its
 *  dimensions overflows 2^62. */
Result<std::uint64_t> idxDeclaredBytes(const std::vector<std::uint32_t> &dims, int elementSize,
                                       const std::string &path);

/** Every data source of a resolved problem object (objects with a "source" key, e.g. "data" and
 *  "test_data"): its header, with errors naming the JSON path (problem.data.path: file not
 *  found). Synthetic sources give samples × dimension; bundled sets are skipped (they are small
 *  and shipped). */
struct ProblemDataHeader {
    std::string path; ///< JSON path of the data object, e.g. "problem.data"
    DataHeader header;
};
Result<std::vector<ProblemDataHeader>> scanProblemData(const Json &resolvedProblem, const std::string &path,
                                                       const std::string &baseDir);

/** Loaded data sets keyed by (loader, options, files' path + size + mtime). Entries whose files
 *  changed are reloaded; the least recently used entries are dropped beyond the capacity. */
class DataCache
{
public:
    explicit DataCache(std::uint64_t capacityBytes = 1ull << 30) : mCapacity(capacityBytes) {}

    /** The process-wide cache (what builds use unless given another). */
    static DataCache &shared();
    /** The cache loads on this thread go through: the innermost Scope's, else shared(). */
    static DataCache &current();

    /** Makes `cache` current on this thread while it lives. */
    class Scope
    {
    public:
        explicit Scope(DataCache &cache);
        ~Scope();
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;

    private:
        DataCache *mPrevious;
    };

    Result<Dataset> loadCsv(const std::string &path, const CsvOptions &options);
    Result<Dataset> loadLibsvm(const std::string &path, int dimension);
    Result<Dataset> loadIdx(const std::string &images, const std::string &labels, Eigen::Index maxSamples);

    /** Number of loads served from the cache / read from disk (for tests). */
    long long hits() const;
    long long misses() const;
    void clear();

private:
    struct Entry {
        std::string key;
        std::shared_ptr<const Dataset> data;
        std::uint64_t bytes = 0;
    };
    template <class Load>
    Result<Dataset> get(const std::string &key, Load load);

    mutable std::mutex mMutex;
    std::list<Entry> mEntries; ///< most recently used first
    std::uint64_t mBytes = 0;
    std::uint64_t mCapacity;
    long long mHits = 0;
    long long mMisses = 0;
};

/** The loaders through DataCache::current(). */
Result<Dataset> loadCsvCached(const std::string &path, const CsvOptions &options = {});
Result<Dataset> loadLibsvmCached(const std::string &path, int dimension = 0);
Result<Dataset> loadIdxCached(const std::string &images, const std::string &labels, Eigen::Index maxSamples = 0);

/** Loads `file`, the file a resolved data object `data` names (its "source" is "bundled", "csv"
 *  or "libsvm"): a missing file is an error at `keyPath`; libsvm reads data.features columns;
 *  csv reads data.header, data.label_column and, when the object has it, data.label_name; a
 *  bundled set is a CSV file with a header and takes data.name as its source. */
Result<Dataset> loadDataFileCached(const std::string &file, const Json &data, const std::string &keyPath);

} // namespace dplab
