// SPDX-License-Identifier: GPL-3.0-or-later
//
// Integrity of a results folder: what manifest.json records of every file it lists (size in
// bytes, row count and a SHA-256 digest) and the check of a folder's files against it.
//
// The digest is SHA-256 computed by OpenSSL's libcrypto (EVP interface), the implementation
// Debian keeps patched for every TLS connection of the system; DPLab carries no hash code of its
// own (see docs/reliability.md). `rows` is what a person counts: the data rows of a CSV file
// (lines after the header), the lines of any other file.
//
// A file that does not match is classified, so a message can say what happened to it:
//   missing    — the manifest records it, the folder does not have it;
//   truncated  — fewer rows than recorded, or as many rows but fewer bytes (a cut copy);
//   extra rows — more rows than recorded (rows appended or pasted in);
//   altered    — as many rows, other bytes (numbers or labels edited).
//
// Threading: pure functions of their arguments and the files they read.
#pragma once

#include "dplab/common/result.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dplab {

/** The digest algorithm a manifest names ("digest_algorithm"). */
inline constexpr const char *kDigestAlgorithm = "sha256";

/** What a manifest records of one file. */
struct FileRecord {
    std::uint64_t bytes = 0;
    std::uint64_t rows = 0;
    std::string sha256; ///< 64 lower-case hex digits
    bool operator==(const FileRecord &) const = default;
};

/** SHA-256 of `data` as 64 lower-case hex digits (OpenSSL libcrypto). */
std::string sha256Hex(std::string_view data);

/** Rows of a file's content: a CSV's data rows (lines after the header), any other file's lines;
 *  a last line without a newline counts. */
std::uint64_t countRows(const std::string &name, std::string_view content);

/** The record of a file named `name` holding `content`. */
FileRecord fileRecord(const std::string &name, std::string_view content);

enum class Damage { None, Missing, Truncated, ExtraRows, Altered };
/** "missing", "truncated", "extra rows", "altered" ("intact" for None). */
const char *damageName(Damage damage);

/** How one recorded file compares with the folder's copy. */
struct FileCheck {
    std::string name;
    Damage damage = Damage::None;
    FileRecord recorded;
    FileRecord found; ///< zero for a missing file
    /** One sentence: the damage class and the counts that show it, e.g. "truncated: 7249 of the
     *  10011 rows manifest.json records (30720 of 41233 bytes)". */
    std::string describe() const;
};

/** Compares `record` with the content of a file (the classes above). */
FileCheck checkContent(const std::string &name, const FileRecord &record, std::string_view content);

/** Checks every file of `records` in `dir`, in name order. Errors: a file that exists but
 *  cannot be read (I/O). */
Result<std::vector<FileCheck>> checkFolderFiles(const std::string &dir, const std::map<std::string, FileRecord> &records);

} // namespace dplab
