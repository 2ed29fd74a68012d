// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/dataset.h"

#include "dplab/common/files.h"
#include "dplab/common/limits.h"
#include "dplab/problem/datascan.h"
#include "problem/linereader.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>
#include <numeric>

namespace dplab {

namespace {

/** The loaders stop at a line this long (a file without line breaks must not fill the memory). */
constexpr std::size_t kMaxLine = 256u << 20;

/** A stop at a too long line or a read error, as an Error (ok when the file ended normally). */
Status readerStatus(const LineReader &reader, const std::string &path)
{
    if (reader.tooLong())
        return Error::parse(path + ":" + std::to_string(reader.lineNumber()),
                            "line longer than " + std::to_string(kMaxLine >> 20) + " MiB");
    if (reader.failed())
        return Error::io(path, "read error (corrupt or truncated compressed file?)");
    return {};
}

/** Checks that a dense samples × features matrix of doubles fits the memory limit. */
Status checkDenseSize(double samples, double features, const std::string &path)
{
    const double bytes = 8.0 * samples * features;
    const auto limit = ResourceLimits::defaultMemoryLimit();
    if (!(bytes <= static_cast<double>(limit)))
        return Error::invalid(path, "a dense " + std::to_string(static_cast<long long>(samples)) + " × "
                                        + std::to_string(static_cast<long long>(features)) + " data matrix needs "
                                        + formatBytes(bytes) + ", more than the memory limit of "
                                        + formatBytes(static_cast<double>(limit)) + " (--max-memory)");
    return {};
}

std::string at(const std::string &path, int line)
{
    return path + ":" + std::to_string(line);
}

bool isBlank(const std::string &s)
{
    return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
}

/** Parses the whole of `s` as a finite double ("+1.5", "-2e3", ".5"); false otherwise. */
bool parseNumber(std::string_view s, double &value)
{
    s = trimView(s);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    if (s.empty())
        return false;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && end == s.data() + s.size() && std::isfinite(value);
}

/** Splits a CSV line at `separator`; a cell in double quotes may contain separators, and ""
 *  inside quotes is a quote. Cells are trimmed. */
std::vector<std::string> splitCsv(const std::string &line, char separator)
{
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (std::size_t k = 0; k < line.size(); ++k) {
        const char c = line[k];
        if (quoted) {
            if (c == '"' && k + 1 < line.size() && line[k + 1] == '"') {
                cell += '"';
                ++k;
            } else if (c == '"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == separator) {
            cells.emplace_back(trimView(cell));
            cell.clear();
        } else {
            cell += c;
        }
    }
    cells.emplace_back(trimView(cell));
    return cells;
}

std::string quote(std::string_view s)
{
    constexpr std::size_t limit = 40;
    std::string text(s.substr(0, limit));
    if (s.size() > limit)
        text += "...";
    return "\"" + text + "\"";
}

} // namespace

// --- CSV -----------------------------------------------------------------------------------

Result<Dataset> loadCsv(const std::string &path, const CsvOptions &options)
{
    if (auto file = checkRegularFile(path); !file)
        return file.error();
    LineReader reader(path, kMaxLine, LineReader::LongLines::Stop);
    if (!reader.isOpen())
        return Error::notFound(path, "cannot open file");

    std::string line;
    std::vector<std::vector<double>> rows;
    std::vector<std::string> header;
    std::size_t columns = 0;
    int firstDataLine = 0;
    int headerLine = 0;
    bool first = true;
    while (reader.next(line)) {
        if (isBlank(line) || trimView(line).front() == '#')
            continue;
        const int number = reader.lineNumber();
        const auto cells = splitCsv(line, options.separator);
        if (first) {
            first = false;
            columns = cells.size();
            bool numeric = true;
            for (const auto &cell : cells) {
                double v;
                numeric = numeric && parseNumber(cell, v);
            }
            const bool isHeader = options.header == CsvOptions::Header::Yes
                                  || (options.header == CsvOptions::Header::Auto && !numeric);
            if (isHeader) {
                header = cells;
                headerLine = number;
                continue;
            }
        }
        if (cells.size() != columns)
            return Error::parse(at(path, number),
                                "row has " + std::to_string(cells.size()) + " columns, expected "
                                    + std::to_string(columns) + " as in the first row");
        std::vector<double> values(columns);
        for (std::size_t c = 0; c < columns; ++c) {
            if (cells[c].empty())
                return Error::parse(at(path, number),
                                    "empty cell in column " + std::to_string(c + 1));
            if (!parseNumber(cells[c], values[c]))
                return Error::parse(at(path, number), "column " + std::to_string(c + 1) + ": "
                                                          + quote(cells[c])
                                                          + " is not a finite number");
        }
        if (rows.empty())
            firstDataLine = number;
        rows.push_back(std::move(values));
        // The rows read so far and the matrix they become must fit the memory limit.
        if (rows.size() % 4096 == 0)
            if (auto s = checkDenseSize(2.0 * static_cast<double>(rows.size()), static_cast<double>(columns) + 3.0, path); !s)
                return s.error();
    }
    if (auto s = readerStatus(reader, path); !s)
        return s.error();
    if (rows.empty())
        return Error::parse(at(path, std::max(1, reader.lineNumber())),
                            reader.lineNumber() == 0 ? "empty file" : "no data rows");
    if (columns < 2)
        return Error::parse(at(path, firstDataLine),
                            "needs at least two columns (features and a label)");

    // Which column is the label.
    long long label = options.labelColumn;
    if (!options.labelName.empty()) {
        if (header.empty())
            return Error::invalid(at(path, firstDataLine),
                                  "no header row, so no column named " + quote(options.labelName));
        const auto it = std::find(header.begin(), header.end(), options.labelName);
        if (it == header.end())
            return Error::invalid(at(path, headerLine),
                                  "no column named " + quote(options.labelName) + " in the header");
        label = it - header.begin();
    } else {
        const long long count = static_cast<long long>(columns);
        if (label < -count || label >= count)
            return Error::invalid(at(path, firstDataLine),
                                  "label column " + std::to_string(options.labelColumn)
                                      + " is out of range for " + std::to_string(columns)
                                      + " columns");
        if (label < 0)
            label += count;
    }

    Dataset data;
    data.source = path;
    data.X.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(columns - 1));
    data.y.resize(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r) {
        Eigen::Index c = 0;
        for (std::size_t k = 0; k < columns; ++k) {
            if (static_cast<long long>(k) == label)
                data.y(static_cast<Eigen::Index>(r)) = rows[r][k];
            else
                data.X(static_cast<Eigen::Index>(r), c++) = rows[r][k];
        }
    }
    return data;
}

// --- LIBSVM --------------------------------------------------------------------------------

Result<Dataset> loadLibsvm(const std::string &path, int dimension)
{
    if (auto file = checkRegularFile(path); !file)
        return file.error();
    LineReader reader(path, kMaxLine, LineReader::LongLines::Stop);
    if (!reader.isOpen())
        return Error::notFound(path, "cannot open file");

    struct Entry {
        Eigen::Index row;
        Eigen::Index column;
        double value;
    };
    std::vector<Entry> entries;
    std::vector<double> labels;
    long long maxIndex = 0;
    std::string line;
    while (reader.next(line)) {
        const std::string_view text = libsvmContent(line);
        if (text.empty())
            continue;
        const int number = reader.lineNumber();
        const auto row = static_cast<Eigen::Index>(labels.size());

        std::size_t pos = 0;
        const auto labelToken = nextToken(text, pos);
        double label;
        if (!parseNumber(labelToken, label))
            return Error::parse(at(path, number),
                                "label " + quote(labelToken) + " is not a finite number");
        labels.push_back(label);
        long long previous = 0;
        for (auto token = nextToken(text, pos); !token.empty(); token = nextToken(text, pos)) {
            const auto colon = token.find(':');
            if (colon == std::string_view::npos)
                return Error::parse(at(path, number),
                                    "expected index:value, got " + quote(token));
            const auto indexText = token.substr(0, colon);
            const auto valueText = token.substr(colon + 1);
            if (indexText == "qid")
                continue;
            long long index = 0;
            const auto [end, ec] =
                std::from_chars(indexText.data(), indexText.data() + indexText.size(), index);
            const bool whole = ec == std::errc() && end == indexText.data() + indexText.size();
            if (indexText.empty() || !whole)
                return Error::parse(at(path, number),
                                    "feature index " + quote(indexText) + " is not a whole number");
            if (index < 1)
                return Error::parse(at(path, number),
                                    "feature index " + std::to_string(index)
                                        + " must be ≥ 1 (indices are 1-based)");
            if (index <= previous)
                return Error::parse(at(path, number),
                                    "feature indices must be ascending (" + std::to_string(index)
                                        + " after " + std::to_string(previous) + ")");
            if (dimension > 0 && index > dimension)
                return Error::parse(at(path, number),
                                    "feature index " + std::to_string(index)
                                        + " exceeds the dimension " + std::to_string(dimension));
            double value;
            if (!parseNumber(valueText, value))
                return Error::parse(at(path, number), "value " + quote(valueText) + " of feature "
                                                          + std::to_string(index)
                                                          + " is not a finite number");
            previous = index;
            maxIndex = std::max(maxIndex, index);
            entries.push_back({row, static_cast<Eigen::Index>(index - 1), value});
            if (entries.size() % 65536 == 0)
                if (auto s = checkDenseSize(static_cast<double>(entries.size()), 3.0, path); !s)
                    return s.error();
        }
    }
    if (auto s = readerStatus(reader, path); !s)
        return s.error();
    if (labels.empty())
        return Error::parse(at(path, std::max(1, reader.lineNumber())),
                            reader.lineNumber() == 0 ? "empty file" : "no samples");

    Dataset data;
    data.source = path;
    const Eigen::Index features = dimension > 0 ? dimension : static_cast<Eigen::Index>(maxIndex);
    if (auto s = checkDenseSize(static_cast<double>(labels.size()), static_cast<double>(features), path); !s)
        return s.error();
    data.X.setZero(static_cast<Eigen::Index>(labels.size()), features);
    data.y = Eigen::Map<const Eigen::VectorXd>(labels.data(),
                                               static_cast<Eigen::Index>(labels.size()));
    for (const auto &e : entries)
        data.X(e.row, e.column) = e.value;
    return data;
}

// --- IDX -----------------------------------------------------------------------------------

namespace {

struct IdxFile {
    gzFile file = nullptr;
    int type = 0;
    std::vector<std::uint32_t> dims;
    ~IdxFile()
    {
        if (file)
            gzclose(file);
    }
    bool failed() const
    {
        int code = Z_OK;
        gzerror(file, &code);
        return code != Z_OK && code != Z_STREAM_END;
    }
};

int idxElementSize(int type)
{
    switch (type) {
    case 0x08: // unsigned byte
    case 0x09: // signed byte
        return 1;
    case 0x0B: // short
        return 2;
    case 0x0C: // int
    case 0x0D: // float
        return 4;
    case 0x0E: // double
        return 8;
    default:
        return 0;
    }
}

// Converts one big-endian element.
double idxElement(const unsigned char *p, int type)
{
    std::uint64_t bits = 0;
    const int size = idxElementSize(type);
    for (int k = 0; k < size; ++k)
        bits = (bits << 8) | p[k];
    switch (type) {
    case 0x08:
        return static_cast<double>(p[0]);
    case 0x09:
        return static_cast<double>(static_cast<std::int8_t>(p[0]));
    case 0x0B:
        return static_cast<double>(static_cast<std::int16_t>(bits));
    case 0x0C:
        return static_cast<double>(static_cast<std::int32_t>(bits));
    case 0x0D: {
        const auto b32 = static_cast<std::uint32_t>(bits);
        float f;
        std::memcpy(&f, &b32, sizeof f);
        return static_cast<double>(f);
    }
    case 0x0E: {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;
    }
    default:
        return 0.0;
    }
}

Status openIdx(const std::string &path, IdxFile &idx)
{
    idx.file = gzopen(path.c_str(), "rb");
    if (!idx.file)
        return Error::notFound(path, "cannot open file");
    gzbuffer(idx.file, 1 << 17);
    unsigned char magic[4];
    if (gzread(idx.file, magic, 4) != 4)
        return Error::parse(path, "too short for an IDX header");
    if (magic[0] != 0 || magic[1] != 0 || idxElementSize(magic[2]) == 0 || magic[3] == 0)
        return Error::parse(path, "not an IDX file (bad magic number)");
    idx.type = magic[2];
    for (int k = 0; k < magic[3]; ++k) {
        unsigned char b[4];
        if (gzread(idx.file, b, 4) != 4)
            return Error::parse(path, "truncated IDX header");
        idx.dims.push_back((std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16)
                           | (std::uint32_t(b[2]) << 8) | std::uint32_t(b[3]));
    }
    return {};
}

} // namespace

Result<std::vector<std::uint32_t>> idxShape(const std::string &path)
{
    IdxFile idx;
    if (auto status = openIdx(path, idx); !status)
        return status.error();
    return idx.dims;
}

Result<Dataset> loadIdx(const std::string &imagesPath, const std::string &labelsPath,
                        Eigen::Index maxSamples)
{
    // The headers against each other, the file sizes and the memory limit before any reading.
    auto header = scanIdxHeader(imagesPath, labelsPath, maxSamples);
    if (!header)
        return header.error();
    if (auto s = checkDenseSize(static_cast<double>(header->samples), static_cast<double>(header->features), imagesPath); !s)
        return s.error();
    IdxFile images;
    IdxFile labels;
    if (auto status = openIdx(imagesPath, images); !status)
        return status.error();
    if (auto status = openIdx(labelsPath, labels); !status)
        return status.error();
    if (labels.dims.size() != 1)
        return Error::parse(labelsPath, "labels must have one dimension, found "
                                            + std::to_string(labels.dims.size()));
    const auto count = static_cast<Eigen::Index>(images.dims[0]);
    if (static_cast<Eigen::Index>(labels.dims[0]) != count)
        return Error::invalid(labelsPath, "has " + std::to_string(labels.dims[0])
                                              + " labels for " + std::to_string(count)
                                              + " images in " + imagesPath);
    // The same header scanIdxHeader read and bounded (the product of its image dimensions).
    const auto features = static_cast<Eigen::Index>(header->features);
    const Eigen::Index samples = maxSamples > 0 ? std::min(maxSamples, count) : count;

    Dataset data;
    data.source = imagesPath;
    data.X.resize(samples, features);
    data.y.resize(samples);

    // Read blocks of images (row-major on disk) and copy them into the column-major matrix.
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using Bytes = Eigen::Matrix<unsigned char, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const int imageSize = idxElementSize(images.type);
    if (features == 0)
        return Error::parse(imagesPath, "images need at least one value each (dimensions N × ... with no 0)");
    if (static_cast<double>(features) * imageSize > static_cast<double>(1 << 30))
        return Error::invalid(imagesPath, "images of more than 1 GiB each are not supported");
    if (samples == 0)
        return data;
    // Blocks of at most 64 MiB on disk and never more rows than are read: the two buffers must
    // not outgrow the matrix the memory limit admitted (fuzz finding: 0 images of 14 × 339712
    // doubles allocated two 1 GiB buffers).
    const Eigen::Index block = std::clamp<Eigen::Index>((Eigen::Index(1) << 26) / (features * imageSize), 1,
                                                        std::min<Eigen::Index>(512, samples));
    std::vector<unsigned char> raw(static_cast<std::size_t>(block * features * imageSize));
    RowMajor rows(images.type == 0x08 ? 0 : block, features);
    for (Eigen::Index start = 0; start < samples; start += block) {
        const Eigen::Index n = std::min(block, samples - start);
        const auto bytes = static_cast<unsigned>(n * features * imageSize);
        if (gzread(images.file, raw.data(), bytes) != static_cast<int>(bytes))
            return Error::parse(imagesPath, std::string(images.failed() ? "corrupt compressed data; " : "") + "truncated: expected " + std::to_string(count) + " × "
                                                + std::to_string(features) + " values");
        if (images.type == 0x08) { // unsigned bytes: the common case (MNIST), cast directly
            data.X.middleRows(start, n) =
                Eigen::Map<const Bytes>(raw.data(), n, features).cast<double>();
            continue;
        }
        for (Eigen::Index r = 0; r < n; ++r)
            for (Eigen::Index c = 0; c < features; ++c)
                rows(r, c) = idxElement(
                    &raw[static_cast<std::size_t>((r * features + c) * imageSize)], images.type);
        data.X.middleRows(start, n) = rows.topRows(n);
    }

    const int labelSize = idxElementSize(labels.type);
    std::vector<unsigned char> rawLabels(static_cast<std::size_t>(samples * labelSize));
    if (samples > 0
        && gzread(labels.file, rawLabels.data(), static_cast<unsigned>(rawLabels.size()))
               != static_cast<int>(rawLabels.size()))
        return Error::parse(labelsPath, "truncated: expected " + std::to_string(count) + " labels");
    for (Eigen::Index k = 0; k < samples; ++k)
        data.y(k) = idxElement(&rawLabels[static_cast<std::size_t>(k * labelSize)], labels.type);
    return data;
}

// --- Splits ----------------------------------------------------------------------------------

Dataset selectRows(const Dataset &data, const std::vector<Eigen::Index> &rows)
{
    Dataset out;
    out.source = data.source;
    out.X.resize(static_cast<Eigen::Index>(rows.size()), data.X.cols());
    out.y.resize(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t k = 0; k < rows.size(); ++k) {
        out.X.row(static_cast<Eigen::Index>(k)) = data.X.row(rows[k]);
        out.y(static_cast<Eigen::Index>(k)) = data.y(rows[k]);
    }
    return out;
}

std::vector<Eigen::Index> randomPermutation(Eigen::Index n, Rng &rng)
{
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    for (Eigen::Index k = n - 1; k > 0; --k) {
        const auto j = static_cast<Eigen::Index>(rng.below(static_cast<std::uint64_t>(k + 1)));
        std::swap(order[static_cast<std::size_t>(k)], order[static_cast<std::size_t>(j)]);
    }
    return order;
}

namespace {

std::vector<std::vector<Eigen::Index>> cut(const std::vector<Eigen::Index> &order, int agents)
{
    assert(agents >= 1 && "cut: need at least one agent");
    const auto n = static_cast<Eigen::Index>(order.size());
    const Eigen::Index base = n / agents;
    const Eigen::Index extra = n % agents;
    std::vector<std::vector<Eigen::Index>> parts(static_cast<std::size_t>(agents));
    Eigen::Index start = 0;
    for (int i = 0; i < agents; ++i) {
        const Eigen::Index size = base + (i < extra ? 1 : 0);
        parts[static_cast<std::size_t>(i)].assign(order.begin() + start,
                                                  order.begin() + start + size);
        start += size;
    }
    return parts;
}

} // namespace

std::vector<std::vector<Eigen::Index>> partitionIid(Eigen::Index samples, int agents, Rng &rng)
{
    return cut(randomPermutation(samples, rng), agents);
}

std::vector<std::vector<Eigen::Index>> partitionByLabel(const Eigen::VectorXd &labels,
                                                        int agents, Rng &rng)
{
    auto order = randomPermutation(labels.size(), rng);
    std::stable_sort(order.begin(), order.end(),
                     [&](Eigen::Index a, Eigen::Index b) { return labels(a) < labels(b); });
    return cut(order, agents);
}

std::vector<Dataset> splitIid(const Dataset &data, int agents, Rng &rng)
{
    std::vector<Dataset> out;
    for (const auto &part : partitionIid(data.samples(), agents, rng))
        out.push_back(selectRows(data, part));
    return out;
}

std::vector<Dataset> splitByLabel(const Dataset &data, int agents, Rng &rng)
{
    std::vector<Dataset> out;
    for (const auto &part : partitionByLabel(data.y, agents, rng))
        out.push_back(selectRows(data, part));
    return out;
}

TrainTest trainTestSplit(const Dataset &data, double testFraction, Rng &rng)
{
    assert(testFraction >= 0.0 && testFraction < 1.0 && "trainTestSplit: fraction in [0, 1)");
    const auto order = randomPermutation(data.samples(), rng);
    const auto testCount = std::min<Eigen::Index>(
        data.samples(), std::llround(testFraction * static_cast<double>(data.samples())));
    const auto split = order.end() - testCount;
    TrainTest out;
    out.train = selectRows(data, std::vector<Eigen::Index>(order.begin(), split));
    out.test = selectRows(data, std::vector<Eigen::Index>(split, order.end()));
    return out;
}

// --- Transformations -------------------------------------------------------------------------

Standardization standardize(Dataset &data)
{
    Standardization map;
    const auto m = static_cast<double>(std::max<Eigen::Index>(1, data.samples()));
    map.mean = data.X.colwise().sum() / m;
    map.scale.resize(data.features());
    for (Eigen::Index j = 0; j < data.features(); ++j) {
        const double variance = (data.X.col(j).array() - map.mean(j)).square().sum() / m;
        const double sd = std::sqrt(variance);
        // Constant columns (up to rounding) map to 0.
        map.scale(j) = sd > 1e-12 * std::max(1.0, std::abs(map.mean(j))) ? sd : 1.0;
    }
    applyStandardization(map, data);
    return map;
}

void applyStandardization(const Standardization &map, Dataset &data)
{
    assert(map.mean.size() == data.features() && "applyStandardization: feature count differs");
    data.X = (data.X.rowwise() - map.mean).array().rowwise() / map.scale.array();
}

void appendBias(Dataset &data)
{
    data.X.conservativeResize(Eigen::NoChange, data.X.cols() + 1);
    data.X.col(data.X.cols() - 1).setOnes();
}

// --- Synthetic -----------------------------------------------------------------------------

Dataset syntheticLinear(Eigen::Index samples, Eigen::Index dimension, double noiseStd, Rng &rng)
{
    Dataset data;
    data.source = "synthetic-linear";
    Eigen::VectorXd w(dimension);
    rng.fillGaussian(w, 1.0);
    data.X.resize(samples, dimension);
    data.y.resize(samples);
    for (Eigen::Index k = 0; k < samples; ++k) {
        for (Eigen::Index j = 0; j < dimension; ++j)
            data.X(k, j) = rng.gaussian();
        data.y(k) = data.X.row(k).dot(w) + noiseStd * rng.gaussian();
    }
    return data;
}

Dataset syntheticLogistic(Eigen::Index samples, Eigen::Index dimension, Rng &rng)
{
    Dataset data;
    data.source = "synthetic-logistic";
    Eigen::VectorXd w(dimension);
    rng.fillGaussian(w, 1.0);
    if (w.norm() > 0.0)
        w *= 3.0 / w.norm();
    data.X.resize(samples, dimension);
    data.y.resize(samples);
    for (Eigen::Index k = 0; k < samples; ++k) {
        for (Eigen::Index j = 0; j < dimension; ++j)
            data.X(k, j) = rng.gaussian();
        const double p = 1.0 / (1.0 + std::exp(-data.X.row(k).dot(w)));
        data.y(k) = rng.uniform01() < p ? 1.0 : -1.0;
    }
    return data;
}

} // namespace dplab
