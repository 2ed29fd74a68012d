// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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

Result<std::string> readFile(const std::string &path)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return Error::notFound(path, "no such file");
    if (std::filesystem::is_directory(path, ec))
        return Error::io(path, "is a folder, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error::io(path, "cannot open for reading");
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

Result<Json> parseJson(const std::string &text, const std::string &name)
{
    try {
        return Json::parse(text);
    } catch (const Json::parse_error &e) {
        // Translate the byte offset into line:column.
        std::size_t line = 1, column = 1;
        const std::size_t end = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
        for (std::size_t i = 0; i < end; ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        std::string message = e.what();
        // nlohmann prefixes "[json.exception.parse_error.101] parse error at line L, column C: "
        const auto colon = message.find(": ");
        if (colon != std::string::npos)
            message = message.substr(colon + 2);
        return Error::parse(name + ":" + std::to_string(line) + ":" + std::to_string(column),
                            "invalid JSON: " + message);
    }
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
