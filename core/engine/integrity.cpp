// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/integrity.h"

#include "dplab/common/enumnames.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace dplab {

namespace fs = std::filesystem;

namespace {

bool isCsv(const std::string &name)
{
    return name.size() >= 4 && name.compare(name.size() - 4, 4, ".csv") == 0;
}

/** SHA-256, bytes and lines of a stream of chunks. */
class Recorder
{
public:
    Recorder() : mContext(EVP_MD_CTX_new(), &EVP_MD_CTX_free)
    {
        if (!mContext || EVP_DigestInit_ex(mContext.get(), EVP_sha256(), nullptr) != 1)
            mFailed = true;
    }
    void add(std::string_view chunk)
    {
        if (chunk.empty())
            return;
        if (!mFailed && EVP_DigestUpdate(mContext.get(), chunk.data(), chunk.size()) != 1)
            mFailed = true;
        mBytes += chunk.size();
        mNewlines += static_cast<std::uint64_t>(std::count(chunk.begin(), chunk.end(), '\n'));
        mLast = chunk.back();
    }
    /** The record; an empty digest when libcrypto failed (never in practice: SHA-256 is always
     *  available in the default provider). */
    FileRecord finish(const std::string &name)
    {
        FileRecord r;
        r.bytes = mBytes;
        std::uint64_t lines = mNewlines + (mBytes > 0 && mLast != '\n' ? 1 : 0);
        r.rows = isCsv(name) ? (lines > 0 ? lines - 1 : 0) : lines;
        unsigned char digest[EVP_MAX_MD_SIZE];
        unsigned int length = 0;
        if (mFailed || EVP_DigestFinal_ex(mContext.get(), digest, &length) != 1)
            return r;
        static const char *const hex = "0123456789abcdef";
        r.sha256.reserve(2 * length);
        for (unsigned int k = 0; k < length; ++k) {
            r.sha256.push_back(hex[digest[k] >> 4]);
            r.sha256.push_back(hex[digest[k] & 15]);
        }
        return r;
    }

private:
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> mContext;
    bool mFailed = false;
    std::uint64_t mBytes = 0;
    std::uint64_t mNewlines = 0;
    char mLast = '\n';
};

std::string count(std::uint64_t n)
{
    return std::to_string(n);
}

} // namespace

std::string sha256Hex(std::string_view data)
{
    Recorder r;
    r.add(data);
    return r.finish("").sha256;
}

std::uint64_t countRows(const std::string &name, std::string_view content)
{
    Recorder r;
    r.add(content);
    return r.finish(name).rows;
}

FileRecord fileRecord(const std::string &name, std::string_view content)
{
    Recorder r;
    r.add(content);
    return r.finish(name);
}

const char *damageName(Damage damage)
{
    return nameIn<Damage>({{Damage::None, "intact"}, {Damage::Missing, "missing"},
                           {Damage::Truncated, "truncated"}, {Damage::ExtraRows, "extra rows"},
                           {Damage::Altered, "altered"}},
                          damage, "?");
}

std::string FileCheck::describe() const
{
    const std::string what = isCsv(name) ? " rows" : " lines";
    switch (damage) {
    case Damage::None:
        return "intact (" + count(found.rows) + what + ", " + count(found.bytes) + " bytes, SHA-256 as recorded)";
    case Damage::Missing:
        return "missing: manifest.json records it (" + count(recorded.rows) + what + ", " + count(recorded.bytes) + " bytes)";
    case Damage::Truncated:
        return "truncated: " + count(found.rows) + " of the " + count(recorded.rows) + what + " manifest.json records ("
               + count(found.bytes) + " of " + count(recorded.bytes) + " bytes)";
    case Damage::ExtraRows:
        return "extra rows: " + count(found.rows) + what + " where manifest.json records " + count(recorded.rows) + " ("
               + count(found.bytes) + " bytes, recorded " + count(recorded.bytes) + ")";
    case Damage::Altered:
        return "altered: the " + count(found.rows) + what + " manifest.json records are there but their SHA-256 differs ("
               + count(found.bytes) + " bytes, recorded " + count(recorded.bytes) + ")";
    }
    return "?";
}

namespace {

Damage classify(const FileRecord &recorded, const FileRecord &found)
{
    if (found == recorded)
        return Damage::None;
    if (found.rows < recorded.rows || (found.rows == recorded.rows && found.bytes < recorded.bytes))
        return Damage::Truncated;
    if (found.rows > recorded.rows)
        return Damage::ExtraRows;
    return Damage::Altered;
}

} // namespace

FileCheck checkContent(const std::string &name, const FileRecord &record, std::string_view content)
{
    FileCheck check;
    check.name = name;
    check.recorded = record;
    check.found = fileRecord(name, content);
    check.damage = classify(record, check.found);
    return check;
}

Result<std::vector<FileCheck>> checkFolderFiles(const std::string &dir, const std::map<std::string, FileRecord> &records)
{
    std::vector<FileCheck> checks;
    for (const auto &[name, record] : records) {
        FileCheck check;
        check.name = name;
        check.recorded = record;
        const fs::path path = fs::path(dir) / name;
        std::error_code ec;
        if (!fs::exists(path, ec)) {
            check.damage = Damage::Missing;
            checks.push_back(std::move(check));
            continue;
        }
        if (!fs::is_regular_file(path, ec))
            return Error::invalid(path.string(), "is not a regular file (manifest.json records a file of that name)");
        std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
        if (!file)
            return Error::io(path.string(), std::string("cannot be read: ") + std::strerror(errno));
        Recorder recorder;
        std::string buffer(1 << 16, '\0');
        for (;;) {
            const std::size_t got = std::fread(buffer.data(), 1, buffer.size(), file.get());
            recorder.add(std::string_view(buffer.data(), got));
            if (got < buffer.size()) {
                if (std::ferror(file.get()))
                    return Error::io(path.string(), "read error");
                break;
            }
        }
        check.found = recorder.finish(name);
        check.damage = classify(record, check.found);
        checks.push_back(std::move(check));
    }
    return checks;
}

} // namespace dplab
