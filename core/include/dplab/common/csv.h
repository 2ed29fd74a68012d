// SPDX-License-Identifier: GPL-3.0-or-later
//
// CSV text as RFC 4180 defines it: fields separated by commas, records by line breaks, a field
// that contains a comma, a double quote or a line break enclosed in double quotes with inner
// quotes doubled. The result writers quote with csvField; the results reader parses with
// parseCsv, which is strict (an unterminated quote or text after a closing quote is an error
// naming file:line).
//
// Threading: pure functions.
#pragma once

#include "dplab/common/result.h"

#include <string>
#include <vector>

namespace dplab {

/** One field as RFC 4180 writes it: quoted (inner quotes doubled) when it contains a comma, a
 *  double quote, CR or LF; unchanged otherwise. Other control characters (NUL, ESC, …), which
 *  no CSV reader handles alike, are replaced by U+FFFD, so a written file always parses back. */
std::string csvField(const std::string &text);

/** A parsed CSV text: rows of fields, plus the 1-based line each row starts on. */
struct CsvTable {
    std::vector<std::vector<std::string>> rows;
    std::vector<int> lines;
};

/** Parses CSV text strictly (RFC 4180; LF or CRLF line ends; a final line break optional).
 *  `name` (the file) goes into errors as name:line. */
Result<CsvTable> parseCsv(const std::string &text, const std::string &name);

/** The pieces of `text` between `separator`s, without quoting (a list on the command line such
 *  as "0.1,1,10"): "a,,b" gives a, "" and b; a final separator adds no empty piece; "" gives
 *  none. */
std::vector<std::string> splitText(const std::string &text, char separator);

} // namespace dplab
