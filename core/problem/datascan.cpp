// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/datascan.h"

#include "dplab/common/files.h"
#include "dplab/common/limits.h"
#include "problem/linereader.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include <sys/stat.h>

namespace dplab {

namespace {

/** The scanners cut lines at this length (the rest is skipped): they only count. */
constexpr std::size_t kMaxScanLine = 1 << 20;

bool isNumber(std::string_view s)
{
    s = trimView(s);
    if (!s.empty() && (s.front() == '"' || s.front() == '\'') && s.size() >= 2)
        s = trimView(s.substr(1, s.size() - 2));
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

/** The cells of a CSV line (quotes respected), untrimmed. */
std::vector<std::string_view> cellsOf(std::string_view line, char separator)
{
    std::vector<std::string_view> cells;
    bool quoted = false;
    std::size_t start = 0;
    for (std::size_t k = 0; k < line.size(); ++k) {
        if (line[k] == '"')
            quoted = !quoted;
        else if (line[k] == separator && !quoted) {
            cells.push_back(line.substr(start, k - start));
            start = k + 1;
        }
    }
    cells.push_back(line.substr(start));
    return cells;
}

std::string lineAt(const std::string &path, int line)
{
    return path + ":" + std::to_string(line);
}

Status openable(const std::string &path)
{
    auto size = checkRegularFile(path);
    if (!size)
        return size.error();
    return {};
}

/** Uncompressed size of a gzip file from its trailer (mod 2^32), or nullopt for a plain file. */
std::optional<std::uint64_t> gzipTrailerSize(const std::string &path, std::uint64_t fileBytes)
{
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return std::nullopt;
    unsigned char magic[2] = {0, 0};
    std::optional<std::uint64_t> out;
    if (std::fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b && fileBytes >= 18
        && std::fseek(f, -4, SEEK_END) == 0) {
        unsigned char t[4];
        if (std::fread(t, 1, 4, f) == 4)
            out = std::uint64_t(t[0]) | (std::uint64_t(t[1]) << 8) | (std::uint64_t(t[2]) << 16) | (std::uint64_t(t[3]) << 24);
    }
    std::fclose(f);
    return out;
}

int idxElementBytes(int type)
{
    switch (type) {
    case 0x08:
    case 0x09:
        return 1;
    case 0x0B:
        return 2;
    case 0x0C:
    case 0x0D:
        return 4;
    case 0x0E:
        return 8;
    default:
        return 0;
    }
}

struct IdxHead {
    int type = 0;
    std::vector<std::uint32_t> dims;
    std::uint64_t fileBytes = 0;
};

Result<IdxHead> readIdxHead(const std::string &path)
{
    auto size = checkRegularFile(path);
    if (!size)
        return size.error();
    IdxHead head;
    head.fileBytes = *size;
    gzFile file = gzopen(path.c_str(), "rb");
    if (!file)
        return Error::io(path, "cannot open file");
    unsigned char magic[4];
    Status status;
    if (gzread(file, magic, 4) != 4) {
        status = Error::parse(path, "too short for an IDX header");
    } else if (magic[0] != 0 || magic[1] != 0 || idxElementBytes(magic[2]) == 0 || magic[3] == 0) {
        status = Error::parse(path, "not an IDX file (bad magic number)");
    } else {
        head.type = magic[2];
        for (int k = 0; k < magic[3] && status; ++k) {
            unsigned char b[4];
            if (gzread(file, b, 4) != 4)
                status = Error::parse(path, "truncated IDX header");
            else
                head.dims.push_back((std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) | (std::uint32_t(b[2]) << 8)
                                    | std::uint32_t(b[3]));
        }
    }
    gzclose(file);
    if (!status)
        return status.error();
    return head;
}

/** The declared size against the file: a plain file must hold it; a gzip file cannot expand
 *  more than deflate's ratio (~1032:1) and its trailer records the size modulo 2^32. */
Status checkIdxSize(const IdxHead &head, const std::string &path)
{
    auto declared = idxDeclaredBytes(head.dims, idxElementBytes(head.type), path);
    if (!declared)
        return declared.error();
    const auto trailer = gzipTrailerSize(path, head.fileBytes);
    if (!trailer) {
        if (*declared > head.fileBytes)
            return Error::parse(path, "truncated: the header declares " + std::to_string(*declared) + " bytes, the file has "
                                          + std::to_string(head.fileBytes));
        return {};
    }
    if (static_cast<double>(*declared) > 1032.0 * static_cast<double>(head.fileBytes) + 1024.0)
        return Error::parse(path, "the header declares " + formatBytes(static_cast<double>(*declared))
                                      + ", more than a " + formatBytes(static_cast<double>(head.fileBytes))
                                      + " gzip file can hold");
    if (*declared < (1ull << 32) && *trailer < *declared)
        return Error::parse(path, "truncated: the header declares " + std::to_string(*declared)
                                      + " bytes, the compressed file holds " + std::to_string(*trailer));
    return {};
}

} // namespace

Result<std::uint64_t> idxDeclaredBytes(const std::vector<std::uint32_t> &dims, int elementSize, const std::string &path)
{
    // The bound applies to the product of the non-zero dimensions: a zero count (no images)
    // must not let the image dimensions behind it multiply to anything (fuzz finding: 0 images
    // of 4210752250 × 4210752250 overflowed the feature count downstream).
    constexpr std::uint64_t cap = 1ull << 62;
    std::uint64_t magnitude = 1;
    bool empty = false;
    for (std::uint32_t d : dims) {
        if (d == 0) {
            empty = true;
            continue;
        }
        if (magnitude > cap / d)
            return Error::parse(path, "the IDX header's dimensions multiply to more than 2^62 values");
        magnitude *= d;
    }
    const std::uint64_t values = empty ? 0 : magnitude;
    if (values > cap / 8)
        return Error::parse(path, "the IDX header's dimensions multiply to more than 2^59 values");
    return 4 + 4 * static_cast<std::uint64_t>(dims.size()) + values * static_cast<std::uint64_t>(elementSize);
}

namespace {

/** A reader of `path` for a header scan (lines cut at kMaxScanLine), or why it cannot be read. */
Result<std::unique_ptr<LineReader>> openForScan(const std::string &path)
{
    if (auto s = openable(path); !s)
        return s.error();
    auto reader = std::make_unique<LineReader>(path, kMaxScanLine, LineReader::LongLines::Cut);
    if (!reader->isOpen())
        return Error::io(path, "cannot open file");
    return reader;
}

} // namespace

Result<DataHeader> scanCsvHeader(const std::string &path, const CsvOptions &options)
{
    auto opened = openForScan(path);
    if (!opened)
        return opened.error();
    LineReader &reader = **opened;
    DataHeader header{.file = path, .format = "csv"};
    std::string line;
    long long rows = 0;
    long long columns = 0;
    bool first = true;
    while (reader.next(line)) {
        const auto text = trimView(line);
        if (text.empty() || text.front() == '#')
            continue;
        if (first) {
            first = false;
            const auto cells = cellsOf(text, options.separator);
            columns = static_cast<long long>(cells.size());
            bool numeric = true;
            for (auto cell : cells)
                numeric = numeric && isNumber(cell);
            if (options.header == CsvOptions::Header::Yes || (options.header == CsvOptions::Header::Auto && !numeric))
                continue;
        }
        ++rows;
    }
    if (reader.failed())
        return Error::io(path, "read error (corrupt or truncated compressed file?)");
    if (rows == 0)
        return Error::parse(lineAt(path, std::max(1, reader.lineNumber())),
                            reader.lineNumber() == 0 ? "empty file" : "no data rows");
    if (columns < 2)
        return Error::parse(path, "needs at least two columns (features and a label)");
    header.samples = rows;
    header.features = columns - 1;
    return header;
}

Result<DataHeader> scanLibsvmHeader(const std::string &path, int dimension)
{
    auto opened = openForScan(path);
    if (!opened)
        return opened.error();
    LineReader &reader = **opened;
    DataHeader header{.file = path, .format = "libsvm"};
    std::string line;
    long long rows = 0;
    long long maxIndex = 0;
    while (reader.next(line)) {
        const std::string_view text = libsvmContent(line);
        if (text.empty())
            continue;
        ++rows;
        std::size_t pos = 0;
        while (pos < text.size()) {
            const auto token = nextToken(text, pos);
            const auto colon = token.find(':');
            if (colon == std::string_view::npos || colon == 0)
                continue;
            long long index = 0;
            const auto [end, ec] = std::from_chars(token.data(), token.data() + colon, index);
            if (ec == std::errc::result_out_of_range)
                return Error::parse(lineAt(path, reader.lineNumber()), "feature index " + std::string(token.substr(0, colon))
                                                                           + " is too large");
            if (ec != std::errc() || end != token.data() + colon)
                continue;
            if (dimension > 0 && index > dimension)
                return Error::parse(lineAt(path, reader.lineNumber()), "feature index " + std::to_string(index)
                                                                           + " exceeds the dimension "
                                                                           + std::to_string(dimension));
            maxIndex = std::max(maxIndex, index);
        }
    }
    if (reader.failed())
        return Error::io(path, "read error (corrupt or truncated compressed file?)");
    if (rows == 0)
        return Error::parse(lineAt(path, std::max(1, reader.lineNumber())),
                            reader.lineNumber() == 0 ? "empty file" : "no samples");
    header.samples = rows;
    header.features = dimension > 0 ? dimension : maxIndex;
    return header;
}

Result<DataHeader> scanIdxHeader(const std::string &images, const std::string &labels, long long maxSamples)
{
    auto imageHead = readIdxHead(images);
    if (!imageHead)
        return imageHead.error();
    auto labelHead = readIdxHead(labels);
    if (!labelHead)
        return labelHead.error();
    if (labelHead->dims.size() != 1)
        return Error::parse(labels, "labels must have one dimension, found " + std::to_string(labelHead->dims.size()));
    if (labelHead->dims[0] != imageHead->dims[0])
        return Error::invalid(labels, "has " + std::to_string(labelHead->dims[0]) + " labels for "
                                          + std::to_string(imageHead->dims[0]) + " images in " + images);
    if (auto s = checkIdxSize(*imageHead, images); !s)
        return s.error();
    if (auto s = checkIdxSize(*labelHead, labels); !s)
        return s.error();
    DataHeader header;
    header.file = images;
    header.format = "idx";
    header.samples = imageHead->dims[0];
    if (maxSamples > 0)
        header.samples = std::min(header.samples, maxSamples);
    long long features = 1;
    for (std::size_t k = 1; k < imageHead->dims.size(); ++k)
        features *= imageHead->dims[k]; // ≤ 2^62: checkIdxSize bounds the non-zero dimensions
    header.features = features;
    return header;
}

namespace {

std::string fileStamp(const std::string &path);

/** Header scans of unchanged files are remembered (a sweep resolves every point, the GUI
 *  resolves as you edit): key = scan kind + options + the file's path, size and mtime. */
template <class Scan>
Result<DataHeader> cachedScan(const std::string &kind, const std::string &file, Scan scan)
{
    static std::mutex mutex;
    static std::map<std::string, DataHeader> cache;
    const std::string stamp = fileStamp(file);
    const std::string key = kind + "|" + stamp;
    if (!stamp.empty()) {
        std::lock_guard lock(mutex);
        if (auto it = cache.find(key); it != cache.end())
            return it->second;
    }
    auto header = scan();
    if (header && !stamp.empty()) {
        std::lock_guard lock(mutex);
        if (cache.size() > 256)
            cache.clear();
        cache.emplace(key, *header);
    }
    return header;
}

} // namespace

Result<std::vector<ProblemDataHeader>> scanProblemData(const Json &resolved, const std::string &path,
                                                       const std::string &baseDir)
{
    namespace fs = std::filesystem;
    std::vector<ProblemDataHeader> out;
    if (!resolved.is_object())
        return out;
    auto resolveFile = [&](const Json &data, const char *key) {
        fs::path p(data.value(key, std::string()));
        if (p.is_relative() && !baseDir.empty())
            p = fs::path(baseDir) / p;
        return p.lexically_normal().string();
    };
    for (auto it = resolved.begin(); it != resolved.end(); ++it) {
        const Json &data = it.value();
        if (!data.is_object() || !data.contains("source") || !data.at("source").is_string())
            continue;
        const std::string dataPath = joinPath(path, it.key());
        const std::string source = data.at("source").get<std::string>();
        const long long maxSamples = data.value("max_samples", 0LL);
        Result<DataHeader> header = Error::internal(dataPath, "no header");
        if (source == "synthetic") {
            DataHeader h;
            h.format = "synthetic";
            h.samples = data.value("samples", 0LL);
            h.features = data.value("dimension", 0LL);
            header = h;
        } else if (source == "csv" || source == "libsvm") {
            const std::string file = resolveFile(data, "path");
            if (auto size = checkRegularFile(file); !size) {
                Error e = size.error();
                return Error{e.code, joinPath(dataPath, "path"), file + ": " + e.message};
            }
            if (source == "csv") {
                CsvOptions options;
                const std::string h = data.value("header", std::string("auto"));
                options.header = h == "yes" ? CsvOptions::Header::Yes : h == "no" ? CsvOptions::Header::No : CsvOptions::Header::Auto;
                header = cachedScan("csv" + h, file, [&] { return scanCsvHeader(file, options); });
            } else {
                const int features = static_cast<int>(data.value("features", 0LL));
                header = cachedScan("libsvm" + std::to_string(features), file,
                                    [&] { return scanLibsvmHeader(file, features); });
            }
        } else if (source == "idx") {
            const std::string images = resolveFile(data, "images");
            const std::string labels = resolveFile(data, "labels");
            for (const auto &[key, file] : {std::pair<const char *, std::string>{"images", images}, {"labels", labels}})
                if (auto size = checkRegularFile(file); !size) {
                    Error e = size.error();
                    return Error{e.code, joinPath(dataPath, key), file + ": " + e.message};
                }
            header = scanIdxHeader(images, labels, maxSamples);
        } else {
            continue; // bundled (shipped, small) or none
        }
        if (!header)
            return header.error();
        if (maxSamples > 0)
            header->samples = std::min(header->samples, maxSamples);
        out.push_back({dataPath, *header});
    }
    return out;
}

// --- DataCache -------------------------------------------------------------------------------

namespace {

thread_local DataCache *tCurrent = nullptr;

/** "path|size|mtime" of a file, or "" when it cannot be stat'ed (then nothing is cached). */
std::string fileStamp(const std::string &path)
{
    struct stat info;
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
        return {};
    return path + "|" + std::to_string(info.st_size) + "|" + std::to_string(info.st_mtim.tv_sec) + "."
           + std::to_string(info.st_mtim.tv_nsec);
}

} // namespace

DataCache &DataCache::shared()
{
    static DataCache cache;
    return cache;
}

DataCache &DataCache::current()
{
    return tCurrent ? *tCurrent : shared();
}

DataCache::Scope::Scope(DataCache &cache) : mPrevious(tCurrent)
{
    tCurrent = &cache;
}

DataCache::Scope::~Scope()
{
    tCurrent = mPrevious;
}

template <class Load>
Result<Dataset> DataCache::get(const std::string &key, Load load)
{
    if (!key.empty()) {
        std::lock_guard lock(mMutex);
        for (auto it = mEntries.begin(); it != mEntries.end(); ++it)
            if (it->key == key) {
                mEntries.splice(mEntries.begin(), mEntries, it);
                ++mHits;
                return Dataset(*it->data);
            }
    }
    Result<Dataset> loaded = load(); // outside the lock: loading may take long
    if (!loaded || key.empty())
        return loaded;
    auto shared = std::make_shared<const Dataset>(*loaded);
    const auto bytes = static_cast<std::uint64_t>(8.0 * static_cast<double>(shared->X.size() + shared->y.size()));
    std::lock_guard lock(mMutex);
    ++mMisses;
    if (bytes > mCapacity)
        return loaded;
    for (const auto &entry : mEntries)
        if (entry.key == key) // another thread loaded it meanwhile
            return loaded;
    mEntries.push_front({key, std::move(shared), bytes});
    mBytes += bytes;
    while (mBytes > mCapacity && !mEntries.empty()) {
        mBytes -= mEntries.back().bytes;
        mEntries.pop_back();
    }
    return loaded;
}

Result<Dataset> DataCache::loadCsv(const std::string &path, const CsvOptions &options)
{
    const std::string stamp = fileStamp(path);
    const std::string key = stamp.empty() ? std::string()
                                          : "csv|" + stamp + "|" + std::to_string(static_cast<int>(options.header)) + "|"
                                                + std::to_string(options.labelColumn) + "|" + options.labelName + "|"
                                                + options.separator;
    return get(key, [&] { return dplab::loadCsv(path, options); });
}

Result<Dataset> DataCache::loadLibsvm(const std::string &path, int dimension)
{
    const std::string stamp = fileStamp(path);
    const std::string key = stamp.empty() ? std::string() : "libsvm|" + stamp + "|" + std::to_string(dimension);
    return get(key, [&] { return dplab::loadLibsvm(path, dimension); });
}

Result<Dataset> DataCache::loadIdx(const std::string &images, const std::string &labels, Eigen::Index maxSamples)
{
    const std::string a = fileStamp(images), b = fileStamp(labels);
    const std::string key = a.empty() || b.empty() ? std::string()
                                                   : "idx|" + a + "|" + b + "|" + std::to_string(maxSamples);
    return get(key, [&] { return dplab::loadIdx(images, labels, maxSamples); });
}

long long DataCache::hits() const
{
    std::lock_guard lock(mMutex);
    return mHits;
}

long long DataCache::misses() const
{
    std::lock_guard lock(mMutex);
    return mMisses;
}

void DataCache::clear()
{
    std::lock_guard lock(mMutex);
    mEntries.clear();
    mBytes = 0;
}

Result<Dataset> loadCsvCached(const std::string &path, const CsvOptions &options)
{
    return DataCache::current().loadCsv(path, options);
}

Result<Dataset> loadLibsvmCached(const std::string &path, int dimension)
{
    return DataCache::current().loadLibsvm(path, dimension);
}

Result<Dataset> loadIdxCached(const std::string &images, const std::string &labels, Eigen::Index maxSamples)
{
    return DataCache::current().loadIdx(images, labels, maxSamples);
}

Result<Dataset> loadDataFileCached(const std::string &file, const Json &data, const std::string &keyPath)
{
    const std::string source = paramText(data, "source");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        return Error::notFound(keyPath, "file not found: " + file
                                            + (source == "bundled" ? " (is DPLAB_RESOURCES right?)" : ""));
    if (source == "libsvm")
        return loadLibsvmCached(file, static_cast<int>(paramInt(data, "features")));
    CsvOptions options;
    if (source == "csv") {
        const std::string header = paramText(data, "header");
        options.header = header == "yes"  ? CsvOptions::Header::Yes
                         : header == "no" ? CsvOptions::Header::No
                                          : CsvOptions::Header::Auto;
        options.labelColumn = static_cast<int>(paramInt(data, "label_column"));
        if (data.contains("label_name"))
            options.labelName = paramText(data, "label_name");
    } else {
        options.header = CsvOptions::Header::Yes;
    }
    auto loaded = loadCsvCached(file, options);
    if (loaded && source == "bundled")
        loaded->source = paramText(data, "name");
    return loaded;
}

} // namespace dplab
