// SPDX-License-Identifier: GPL-3.0-or-later
//
// File helpers: atomic writes (temp file + rename, so a failed write never destroys an existing
// file) and JSON reading with file:line:column errors.
//
// Reading is defensive: only regular files are read (a folder, FIFO, socket or device such as
// /dev/zero is refused before it is opened), files above a size limit are refused before they are
// read, and JSON nesting deeper than kMaxJsonDepth, a number outside the range of a double or a key
// given twice in one object is a ParseError naming the file and JSON path (line, column if known).
//
// Threading: pure functions; concurrent writes to the same path are the caller's problem.
#pragma once

#include "dplab/common/params.h"
#include "dplab/common/result.h"

#include <cstdint>
#include <string>

namespace dplab {

/** Deepest JSON nesting accepted (objects and arrays). DPLab's own files nest at most ~8 deep. */
inline constexpr int kMaxJsonDepth = 128;
/** Largest text file read whole (experiment and preset files). */
inline constexpr std::uint64_t kMaxTextFileBytes = 256ull << 20;

/** Writes `content` to `path` atomically: a temporary file in the same folder, flushed, then
 *  renamed over `path`. On failure the temporary is removed and `path` is untouched. */
Status writeFileAtomic(const std::string &path, const std::string &content);

/** Checks that `path` names a readable regular file (not a folder, FIFO, socket or device) of
 *  at most `maxBytes` bytes; returns its size. Errors: NotFound / IoError / InvalidArgument
 *  (too large) with where = path. Nothing is opened, so a FIFO never blocks. */
Result<std::uint64_t> checkRegularFile(const std::string &path, std::uint64_t maxBytes = UINT64_MAX);

/** Reads a whole regular file of at most `maxBytes`. Errors: as checkRegularFile, IoError. */
Result<std::string> readFile(const std::string &path, std::uint64_t maxBytes = kMaxTextFileBytes);

/** Parses JSON text; a syntax error gives where = "<name>:<line>:<column>", nesting deeper than
 *  kMaxJsonDepth or a number beyond ±1.8e308 gives where = "<name>:<line>:<column>: <JSON path>".
 *  A key given twice in one object gives where = "<name>: <JSON path of the second>". Never throws. */
Result<Json> parseJson(const std::string &text, const std::string &name);

/** readFile + parseJson. */
Result<Json> readJsonFile(const std::string &path);

/** The folder part of a path ("." when none). */
std::string parentDir(const std::string &path);

} // namespace dplab
