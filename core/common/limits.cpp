// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/limits.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>

#include <unistd.h>

namespace dplab {

namespace {
std::atomic<std::uint64_t> gDefaultMemoryLimit{0};
} // namespace

void ResourceLimits::setDefaultMemoryLimit(std::uint64_t bytes)
{
    gDefaultMemoryLimit = bytes;
}

std::uint64_t ResourceLimits::physicalMemory()
{
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageSize <= 0)
        return 8ull << 30;
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);
}

std::uint64_t ResourceLimits::defaultMemoryLimit()
{
    if (const std::uint64_t set = gDefaultMemoryLimit; set > 0)
        return set;
    constexpr std::uint64_t desktop = 8ull << 30;
    return std::min(desktop, physicalMemory() / 4 * 3);
}

double ResourceEstimate::totalBytes() const
{
    double total = 0;
    for (const auto &item : items)
        total += item.bytes;
    return total;
}

void ResourceEstimate::add(const std::string &what, const std::string &path, double bytes)
{
    for (auto &item : items)
        if (item.what == what) {
            item.bytes += bytes;
            return;
        }
    items.push_back({what, path, bytes});
}

const ResourceItem &ResourceEstimate::largest() const
{
    return *std::max_element(items.begin(), items.end(),
                             [](const ResourceItem &a, const ResourceItem &b) { return a.bytes < b.bytes; });
}

std::string ResourceEstimate::summary() const
{
    std::vector<ResourceItem> sorted = items;
    std::sort(sorted.begin(), sorted.end(), [](const ResourceItem &a, const ResourceItem &b) { return a.bytes > b.bytes; });
    std::string parts;
    for (const auto &item : sorted) {
        if (item.bytes < 1)
            continue;
        parts += (parts.empty() ? "" : ", ") + item.what + " " + formatBytes(item.bytes)
                 + (item.path.empty() ? "" : " (" + item.path + ")");
    }
    return formatBytes(totalBytes()) + (parts.empty() ? "" : ": " + parts);
}

Status checkResources(const ResourceEstimate &estimate, const ResourceLimits &limits)
{
    const double total = estimate.totalBytes();
    const auto limit = limits.memoryLimit();
    if (!(total <= static_cast<double>(limit))) { // also catches NaN
        const ResourceItem &big = estimate.largest();
        return Error::invalid(big.path, "the experiment needs an estimated " + formatBytes(total)
                                            + " of memory, more than the limit of " + formatBytes(static_cast<double>(limit))
                                            + " (largest: " + big.what + ", " + formatBytes(big.bytes)
                                            + "); reduce it or raise the limit with --max-memory");
    }
    return {};
}

std::string formatBytes(double bytes)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (!std::isfinite(bytes))
        return "an unbounded amount";
    int unit = 0;
    while (bytes >= 1024.0 && unit < 6) {
        bytes /= 1024.0;
        ++unit;
    }
    if (bytes >= 1e4) // beyond EiB
        return "more than 9999 EiB";
    char buf[32];
    if (unit == 0 || bytes >= 100)
        std::snprintf(buf, sizeof buf, "%.0f %s", bytes, units[unit]);
    else
        std::snprintf(buf, sizeof buf, "%.3g %s", bytes, units[unit]);
    return buf;
}

Result<std::uint64_t> parseByteSize(const std::string &text, const std::string &option)
{
    const Error bad = Error::invalid(option, "must be a size such as 8G, 512M or 100000000 (bytes), got \"" + text + "\"");
    std::size_t pos = 0;
    while (pos < text.size() && (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.'))
        ++pos;
    if (pos == 0)
        return bad;
    double value = 0;
    try {
        std::size_t used = 0;
        value = std::stod(text.substr(0, pos), &used);
        if (used != pos)
            return bad;
    } catch (...) {
        return bad;
    }
    std::string unit = text.substr(pos);
    for (auto &c : unit)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    double scale = 1;
    if (unit.empty() || unit == "B")
        scale = 1;
    else if (unit == "K" || unit == "KB" || unit == "KIB")
        scale = 1024.0;
    else if (unit == "M" || unit == "MB" || unit == "MIB")
        scale = 1024.0 * 1024;
    else if (unit == "G" || unit == "GB" || unit == "GIB")
        scale = 1024.0 * 1024 * 1024;
    else if (unit == "T" || unit == "TB" || unit == "TIB")
        scale = 1024.0 * 1024 * 1024 * 1024;
    else
        return bad;
    const double bytes = value * scale;
    if (!std::isfinite(bytes) || bytes < 1 || bytes > 1.8e19)
        return Error::invalid(option, "must be between 1 byte and 16 EiB, got \"" + text + "\"");
    return static_cast<std::uint64_t>(bytes);
}

Status checkThreadCount(long long threads, const std::string &option)
{
    if (threads < 0 || threads > kMaxThreads)
        return Error::invalid(option, "must be between 1 and " + std::to_string(kMaxThreads) + " (0 = all cores), got "
                                          + std::to_string(threads));
    return {};
}

} // namespace dplab
