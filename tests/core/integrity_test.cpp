// SPDX-License-Identifier: GPL-3.0-or-later
// Integrity records (integrity.h): SHA-256 known answers, row counts, the damage classes, and the
// manifest's "digest_algorithm"/"files" read back (and refused when malformed).
#include "dplab/engine/integrity.h"
#include "dplab/engine/results.h"

#include <gtest/gtest.h>

namespace dplab {
namespace {

TEST(Integrity, Sha256KnownAnswers)
{
    // FIPS 180-2, appendix B.1 and B.2, and the empty message.
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    // One million 'a' (B.3): longer than one read buffer of the folder check.
    EXPECT_EQ(sha256Hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Integrity, RowsAreDataRowsOfACsvAndLinesOfOtherFiles)
{
    EXPECT_EQ(countRows("m.csv", "a,b\n1,2\n3,4\n"), 2u);
    EXPECT_EQ(countRows("m.csv", "a,b\n1,2\n3,4"), 2u); // a last line without newline counts
    EXPECT_EQ(countRows("m.csv", "a,b\n"), 0u);
    EXPECT_EQ(countRows("m.csv", ""), 0u);
    EXPECT_EQ(countRows("s.json", "{\n  \"a\": 1\n}\n"), 3u);
}

TEST(Integrity, DamageClasses)
{
    const std::string text = "run,repetition,x\na,0,1.5\na,1,2.5\na,2,3.5\n";
    const FileRecord record = fileRecord("metrics.csv", text);
    EXPECT_EQ(record.rows, 3u);
    EXPECT_EQ(record.bytes, text.size());
    EXPECT_EQ(checkContent("metrics.csv", record, text).damage, Damage::None);
    // Cut between two rows, and in the middle of one.
    EXPECT_EQ(checkContent("metrics.csv", record, text.substr(0, text.rfind("a,2"))).damage, Damage::Truncated);
    EXPECT_EQ(checkContent("metrics.csv", record, text.substr(0, text.size() - 3)).damage, Damage::Truncated);
    // Only the final newline lost: as many rows, fewer bytes.
    EXPECT_EQ(checkContent("metrics.csv", record, text.substr(0, text.size() - 1)).damage, Damage::Truncated);
    EXPECT_EQ(checkContent("metrics.csv", record, text + "a,3,4.5\n").damage, Damage::ExtraRows);
    std::string edited = text;
    edited[edited.find("2.5")] = '7';
    const FileCheck altered = checkContent("metrics.csv", record, edited);
    EXPECT_EQ(altered.damage, Damage::Altered);
    EXPECT_EQ(altered.describe().rfind("altered: the 3 rows manifest.json records are there", 0), 0u) << altered.describe();
    edited = text;
    edited.replace(edited.find("2.5"), 3, "2.55");
    EXPECT_EQ(checkContent("metrics.csv", record, edited).damage, Damage::Altered);
    EXPECT_EQ(checkContent("metrics.csv", record, text.substr(0, text.rfind("a,2"))).describe(),
              "truncated: 2 of the 3 rows manifest.json records (33 of 41 bytes)");
    EXPECT_STREQ(damageName(Damage::ExtraRows), "extra rows");
}

TEST(Integrity, ManifestFilesRoundTripAndMalformedOnesAreRefused)
{
    ResultsManifest m;
    m.dplabVersion = "0.1.0";
    m.experimentName = "e";
    m.experimentHash = "fnv1a64:0000000000000000";
    m.layout = {{1, 2}};
    m.jobs = {0, 1};
    recordFiles(m, {{"metrics.csv", "run\nx\n"}, {"summary.json", "{}\n"}});
    const Json j = manifestToJson(m);
    EXPECT_EQ(j.at("digest_algorithm"), "sha256");
    EXPECT_EQ(j.at("files").at("metrics.csv").at("rows"), 1);
    auto back = manifestFromJson(j, "manifest.json");
    ASSERT_TRUE(back.ok()) << back.error().toString();
    EXPECT_TRUE(back->hasDigests());
    EXPECT_EQ(back->files, m.files);

    Json other = j;
    other["digest_algorithm"] = "md5";
    EXPECT_FALSE(manifestFromJson(other, "manifest.json").ok());
    other = j;
    other["files"]["metrics.csv"]["sha256"] = "abc";
    auto shortDigest = manifestFromJson(other, "manifest.json");
    ASSERT_FALSE(shortDigest.ok());
    EXPECT_NE(shortDigest.error().where.find("files.metrics.csv.sha256"), std::string::npos);
    other = j;
    other["files"]["../x.csv"] = j["files"]["metrics.csv"];
    EXPECT_FALSE(manifestFromJson(other, "manifest.json").ok());
    // Without digests: read, and flagged.
    other = j;
    other.erase("files");
    other.erase("digest_algorithm");
    auto old = manifestFromJson(other, "manifest.json");
    ASSERT_TRUE(old.ok());
    EXPECT_FALSE(old->hasDigests());
}

} // namespace
} // namespace dplab
