// SPDX-License-Identifier: GPL-3.0-or-later
//
// File helpers: atomic writes (temp file + rename, so a failed write never destroys an existing
// file) and JSON reading with file:line:column errors.
//
// Threading: pure functions; concurrent writes to the same path are the caller's problem.
#pragma once

#include "dplab/common/params.h"
#include "dplab/common/result.h"

#include <string>

namespace dplab {

/** Writes `content` to `path` atomically: a temporary file in the same folder, flushed, then
 *  renamed over `path`. On failure the temporary is removed and `path` is untouched. */
Status writeFileAtomic(const std::string &path, const std::string &content);

/** Reads a whole file. Errors: NotFound / IoError with where = path. */
Result<std::string> readFile(const std::string &path);

/** Parses JSON text; a syntax error gives where = "<name>:<line>:<column>". */
Result<Json> parseJson(const std::string &text, const std::string &name);

/** readFile + parseJson. */
Result<Json> readJsonFile(const std::string &path);

/** The folder part of a path ("." when none). */
std::string parentDir(const std::string &path);

} // namespace dplab
