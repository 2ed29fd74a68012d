// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/csv.h"

#include <sstream>

namespace dplab {

std::string csvField(const std::string &text)
{
    bool quote = false;
    std::string clean;
    clean.reserve(text.size());
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == ',' || c == '"' || c == '\n' || c == '\r') {
            quote = true;
            clean += c;
        } else if ((u < 0x20 && c != '\t') || u == 0x7f) {
            clean += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
        } else {
            clean += c;
        }
    }
    if (!quote)
        return clean;
    std::string out = "\"";
    for (char c : clean) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

Result<CsvTable> parseCsv(const std::string &text, const std::string &name)
{
    CsvTable table;
    std::vector<std::string> row;
    std::string field;
    int line = 1;
    int rowLine = 1;
    std::size_t i = 0;
    const std::size_t n = text.size();
    auto endRow = [&] {
        row.push_back(std::move(field));
        field.clear();
        table.rows.push_back(std::move(row));
        table.lines.push_back(rowLine);
        row.clear();
    };
    while (i < n) {
        // At the start of a field.
        if (text[i] == '"') {
            const int quoteLine = line;
            ++i;
            for (;;) {
                if (i >= n)
                    return Error::parse(name + ":" + std::to_string(quoteLine), "unterminated quoted field");
                if (text[i] == '"') {
                    if (i + 1 < n && text[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                if (text[i] == '\n')
                    ++line;
                field += text[i++];
            }
            if (i < n && text[i] != ',' && text[i] != '\n' && !(text[i] == '\r' && i + 1 < n && text[i + 1] == '\n'))
                return Error::parse(name + ":" + std::to_string(line), "text after a closing quote");
        } else {
            while (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
                if (text[i] == '"')
                    return Error::parse(name + ":" + std::to_string(line), "quote inside an unquoted field");
                field += text[i++];
            }
            if (i < n && text[i] == '\r' && !(i + 1 < n && text[i + 1] == '\n'))
                return Error::parse(name + ":" + std::to_string(line), "carriage return outside quotes");
        }
        if (i >= n) {
            endRow();
            break;
        }
        if (text[i] == ',') {
            row.push_back(std::move(field));
            field.clear();
            ++i;
            if (i >= n) { // a trailing comma at the end of the text: one more empty field
                endRow();
                break;
            }
            continue;
        }
        // Line end (LF or CRLF).
        i += text[i] == '\r' ? 2 : 1;
        endRow();
        ++line;
        rowLine = line;
    }
    return table;
}

std::vector<std::string> splitText(const std::string &text, char separator)
{
    std::vector<std::string> pieces;
    std::stringstream in(text);
    std::string piece;
    while (std::getline(in, piece, separator))
        pieces.push_back(piece);
    return pieces;
}

} // namespace dplab
