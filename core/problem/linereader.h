// SPDX-License-Identifier: GPL-3.0-or-later
//
// The one line reader of the data loaders and scanners: a plain or gzip-compressed text file,
// line by line, without the line ending and without a leading UTF-8 byte-order mark. A line
// longer than the reader's limit either stops the reading (the loaders: tooLong() tells) or is
// cut at the limit, the rest skipped (the header scanners, which only count). A corrupt or
// truncated gzip stream ends the reading without a partial line; failed() tells. Private to
// core/problem.
//
// Threading: one reader per thread.
#pragma once

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace dplab {

class LineReader
{
public:
    /** What a line longer than the limit does. */
    enum class LongLines { Stop, Cut };

    LineReader(const std::string &path, std::size_t maxLine, LongLines longLines)
        : mFile(gzopen(path.c_str(), "rb")), mMaxLine(maxLine), mLongLines(longLines),
          mBuffer(std::make_unique<std::array<char, 1 << 16>>())
    {
        if (mFile)
            gzbuffer(mFile, 1 << 17);
    }
    ~LineReader()
    {
        if (mFile)
            gzclose(mFile);
    }
    LineReader(const LineReader &) = delete;
    LineReader &operator=(const LineReader &) = delete;

    bool isOpen() const { return mFile != nullptr; }
    std::size_t maxLine() const { return mMaxLine; }
    /** True when next() stopped at a line longer than maxLine() (LongLines::Stop). */
    bool tooLong() const { return mTooLong; }
    /** 1-based number of the line last returned by next(). */
    int lineNumber() const { return mLine; }
    /** True when reading stopped on a read error rather than the end of the file. */
    bool failed() const
    {
        int code = Z_OK;
        gzerror(mFile, &code);
        return code != Z_OK && code != Z_STREAM_END;
    }

    /** The next line into `line`; false at the end, a read error or a too long line (Stop). */
    bool next(std::string &line)
    {
        line.clear();
        auto &buffer = *mBuffer;
        bool any = false;
        while (gzgets(mFile, buffer.data(), static_cast<int>(buffer.size()))) {
            any = true;
            const std::size_t length = std::strlen(buffer.data());
            if (mLongLines == LongLines::Stop)
                line.append(buffer.data(), length);
            else if (line.size() < mMaxLine)
                line.append(buffer.data(), std::min(length, mMaxLine - line.size()));
            if (length > 0 && buffer[length - 1] == '\n')
                break;
            if (mLongLines == LongLines::Stop && line.size() > mMaxLine) {
                mTooLong = true;
                ++mLine;
                return false;
            }
        }
        if (!any || failed()) // a corrupt or truncated gzip stream: no partial line
            return false;
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
            line.pop_back();
        // A UTF-8 byte-order mark (spreadsheet programs write one) is not part of the first cell.
        if (mLine == 0 && line.starts_with("\xEF\xBB\xBF"))
            line.erase(0, 3);
        ++mLine;
        return true;
    }

private:
    gzFile mFile;
    std::size_t mMaxLine;
    LongLines mLongLines;
    std::unique_ptr<std::array<char, 1 << 16>> mBuffer;
    int mLine = 0;
    bool mTooLong = false;
};

// --- Line content shared by the loaders and the scanners ---------------------------------------

/** `s` without leading and trailing white space. */
inline std::string_view trimView(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

/** What a LIBSVM line holds: the text before a '#' comment, without surrounding white space. */
inline std::string_view libsvmContent(std::string_view line)
{
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
        line = line.substr(0, hash);
    return trimView(line);
}

/** The white-space-separated token of `text` at or after `pos`, which moves past it; "" at the
 *  end of the text. */
inline std::string_view nextToken(std::string_view text, std::size_t &pos)
{
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
        ++pos;
    const std::size_t start = pos;
    while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos])))
        ++pos;
    return text.substr(start, pos - start);
}

} // namespace dplab
