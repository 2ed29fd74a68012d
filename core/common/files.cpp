// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_set>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace dplab {

Status writeFileAtomic(const std::string &path, const std::string &content)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
        return Error::io(path, std::string("cannot write: ") + std::strerror(errno));
    const char *data = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            ::unlink(tmpl.c_str());
            return Error::io(path, std::string("cannot write: ") + std::strerror(err));
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    // mkstemp creates 0600: keep an existing file's permissions, else the usual 0644.
    struct stat existing;
    const mode_t mode = ::stat(path.c_str(), &existing) == 0 ? (existing.st_mode & 0777) : 0644;
    bool ok = ::fchmod(fd, mode) == 0 && ::fsync(fd) == 0;
    int err = errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        ::unlink(tmpl.c_str());
        return Error::io(path, std::string("cannot write: ") + std::strerror(err));
    }
    if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmpl.c_str());
        return Error::io(path, std::string("cannot replace file: ") + std::strerror(err));
    }
    return {};
}

Result<std::uint64_t> checkRegularFile(const std::string &path, std::uint64_t maxBytes)
{
    struct stat info;
    if (::stat(path.c_str(), &info) != 0) {
        const int err = errno;
        if (err == ENOENT || err == ENOTDIR)
            return Error::notFound(path, "no such file");
        return Error::io(path, std::string("cannot read: ") + std::strerror(err));
    }
    if (S_ISDIR(info.st_mode))
        return Error::io(path, "is a folder, not a file");
    if (!S_ISREG(info.st_mode))
        return Error::io(path, S_ISFIFO(info.st_mode)   ? "is a pipe (FIFO), not a regular file"
                               : S_ISSOCK(info.st_mode) ? "is a socket, not a regular file"
                                                        : "is a device, not a regular file");
    if (::access(path.c_str(), R_OK) != 0)
        return Error::io(path, std::string("cannot read: ") + std::strerror(errno));
    const auto size = static_cast<std::uint64_t>(info.st_size);
    if (size > maxBytes)
        return Error::invalid(path, "is " + std::to_string(size >> 20) + " MiB; at most "
                                        + std::to_string(maxBytes >> 20) + " MiB are read");
    return size;
}

Result<std::string> readFile(const std::string &path, std::uint64_t maxBytes)
{
    auto size = checkRegularFile(path, maxBytes);
    if (!size)
        return size.error();
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error::io(path, std::string("cannot open for reading: ") + std::strerror(errno));
    std::string text;
    text.resize(static_cast<std::size_t>(*size));
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad())
        return Error::io(path, "read error");
    text.resize(static_cast<std::size_t>(in.gcount()));
    // A file that grew while being read is cut at the size checked above; read the rest only up
    // to the limit.
    char extra[4096];
    while (in.read(extra, sizeof extra) || in.gcount() > 0) {
        if (text.size() + static_cast<std::size_t>(in.gcount()) > maxBytes)
            return Error::invalid(path, "grew beyond " + std::to_string(maxBytes >> 20) + " MiB while being read");
        text.append(extra, static_cast<std::size_t>(in.gcount()));
    }
    return text;
}

namespace {

/** "line:column" of a byte offset. */
std::string lineColumn(const std::string &text, std::size_t offset)
{
    std::size_t line = 1, column = 1;
    const std::size_t end = std::min(offset, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

/** Builds the DOM like nlohmann's own parser, but tracks the JSON path and the depth, refusing
 *  nesting deeper than kMaxJsonDepth (so no later recursive copy or dump() can overflow the
 *  stack) and naming the path of a number that overflows a double. */
class PathTrackingSax
{
public:
    using number_integer_t = Json::number_integer_t;
    using number_unsigned_t = Json::number_unsigned_t;
    using number_float_t = Json::number_float_t;
    using string_t = Json::string_t;
    using binary_t = Json::binary_t;

    explicit PathTrackingSax(Json &result) : mDom(result, true) {}

    bool null() { return value() && mDom.null(); }
    bool boolean(bool v) { return value() && mDom.boolean(v); }
    bool number_integer(number_integer_t v) { return value() && mDom.number_integer(v); }
    bool number_unsigned(number_unsigned_t v) { return value() && mDom.number_unsigned(v); }
    bool number_float(number_float_t v, const string_t &s) { return value() && mDom.number_float(v, s); }
    bool string(string_t &v) { return value() && mDom.string(v); }
    bool binary(binary_t &v) { return value() && mDom.binary(v); }
    bool start_object(std::size_t n)
    {
        if (!value() || !push(false))
            return false;
        return mDom.start_object(n);
    }
    bool key(string_t &k)
    {
        Frame &frame = mFrames.back();
        frame.key = k;
        // One meaning per file: a key given twice in one object would silently keep one of
        // the two values, so the second occurrence is an error naming its path.
        if (!frame.keys.insert(k).second) {
            mDuplicate = true;
            mErrorPath = path();
            return false;
        }
        return mDom.key(k);
    }
    bool end_object()
    {
        mFrames.pop_back();
        return mDom.end_object();
    }
    bool start_array(std::size_t n)
    {
        if (!value() || !push(true))
            return false;
        return mDom.start_array(n);
    }
    bool end_array()
    {
        mFrames.pop_back();
        return mDom.end_array();
    }
    bool parse_error(std::size_t position, const std::string &, const nlohmann::detail::exception &ex)
    {
        mErrorPosition = position;
        mErrorId = ex.id;
        if (ex.id == 406) // a number that overflows: the value being read
            value();
        mErrorMessage = ex.what();
        mErrorPath = path();
        return false;
    }

    bool tooDeep() const { return mTooDeep; }
    bool duplicate() const { return mDuplicate; }
    int errorId() const { return mErrorId; }
    std::size_t errorPosition() const { return mErrorPosition; }
    const std::string &errorMessage() const { return mErrorMessage; }
    const std::string &errorPath() const { return mErrorPath; }

    /** The path of the value being read: "runs[1].params.stepsize". */
    std::string path() const
    {
        std::string out;
        for (const Frame &f : mFrames) {
            if (f.array) {
                if (f.index >= 0)
                    out += "[" + std::to_string(f.index) + "]";
            } else if (!f.key.empty()) {
                out += (out.empty() ? "" : ".") + f.key;
            }
        }
        if (out.size() > 120) // hostile depth: the start of the path is what locates it
            out = out.substr(0, 120) + "...";
        return out.empty() ? "(top level)" : out;
    }

private:
    struct Frame {
        bool array = false;
        long long index = -1;
        std::string key;
        std::unordered_set<std::string> keys; ///< an object's keys read so far
    };

    // Called before every value: advances the index of an enclosing array.
    bool value()
    {
        if (!mFrames.empty() && mFrames.back().array)
            ++mFrames.back().index;
        return true;
    }
    bool push(bool array)
    {
        if (static_cast<int>(mFrames.size()) >= kMaxJsonDepth) {
            mTooDeep = true;
            mErrorPath = path();
            return false;
        }
        mFrames.push_back({array, -1, {}, {}});
        return true;
    }

    nlohmann::detail::json_sax_dom_parser<Json> mDom;
    std::vector<Frame> mFrames;
    bool mTooDeep = false;
    bool mDuplicate = false;
    int mErrorId = 0;
    std::size_t mErrorPosition = 0;
    std::string mErrorMessage;
    std::string mErrorPath;
};

} // namespace

Result<Json> parseJson(const std::string &text, const std::string &name)
{
    Json result;
    PathTrackingSax sax(result);
    bool ok = false;
    try {
        ok = Json::sax_parse(text, &sax);
    } catch (const std::exception &e) {
        return Error::parse(name, std::string("invalid JSON: ") + e.what());
    }
    if (ok)
        return result;
    if (sax.tooDeep())
        return Error::parse(name + ": " + sax.errorPath(),
                            "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    if (sax.duplicate())
        return Error::parse(name + ": " + sax.errorPath(),
                            "duplicate key: the same object gives it twice, and a file must have one "
                            "meaning; delete one of the two");
    // nlohmann's positions count the character read last; point at it (1-based column).
    const std::size_t offset = sax.errorPosition() == 0 ? 0 : sax.errorPosition() - 1;
    std::string message = sax.errorMessage();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line L, column C: "
    const auto colon = message.find(": ");
    if (colon != std::string::npos)
        message = message.substr(colon + 2);
    else if (const auto bracket = message.find("] "); bracket != std::string::npos)
        message = message.substr(bracket + 2);
    if (sax.errorId() == 406) // number overflow
        return Error::parse(name + ":" + lineColumn(text, offset) + ": " + sax.errorPath(),
                            "number outside the range of a double (±1.8e308): " + message);
    return Error::parse(name + ":" + lineColumn(text, offset), "invalid JSON: " + message);
}

Result<Json> readJsonFile(const std::string &path)
{
    auto text = readFile(path);
    if (!text)
        return text.error();
    return parseJson(*text, path);
}

std::string parentDir(const std::string &path)
{
    const std::filesystem::path p(path);
    return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

} // namespace dplab
