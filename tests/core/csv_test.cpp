// SPDX-License-Identifier: GPL-3.0-or-later
// RFC 4180 quoting (csvField) and the strict reader (parseCsv): hand-written cases and a
// round trip of random fields.
#include "dplab/common/csv.h"

#include <gtest/gtest.h>

#include <random>

namespace dplab {
namespace {

TEST(Csv, QuotesOnlyWhatNeedsIt)
{
    EXPECT_EQ(csvField("plain text 1.5e-3"), "plain text 1.5e-3");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvField("cr\rhere"), "\"cr\rhere\"");
    EXPECT_EQ(csvField(R"({"type":"ring","nodes":9})"), R"("{""type"":""ring"",""nodes"":9}")");
    EXPECT_EQ(csvField(""), "");
}

TEST(Csv, ReplacesControlCharactersThatNoReaderAgreesOn)
{
    EXPECT_EQ(csvField(std::string("a\0b", 3)), "a\xEF\xBF\xBD" "b");
    EXPECT_EQ(csvField("esc\x1b"), "esc\xEF\xBF\xBD");
    EXPECT_EQ(csvField("tab\tkept"), "tab\tkept");
}

TEST(Csv, ParsesRfc4180)
{
    auto t = parseCsv("a,b,c\n1,\"x,y\",\"q\"\"q\"\n\"multi\nline\",,end\r\nlast,row,\n", "t.csv");
    ASSERT_TRUE(t.ok()) << t.error().toString();
    ASSERT_EQ(t->rows.size(), 4u);
    EXPECT_EQ(t->rows[1], (std::vector<std::string>{"1", "x,y", "q\"q"}));
    EXPECT_EQ(t->rows[2], (std::vector<std::string>{"multi\nline", "", "end"}));
    EXPECT_EQ(t->rows[3], (std::vector<std::string>{"last", "row", ""}));
    EXPECT_EQ(t->lines, (std::vector<int>{1, 2, 3, 5}));
    // No final line break.
    auto u = parseCsv("a,b\n1,2", "u.csv");
    ASSERT_TRUE(u.ok());
    EXPECT_EQ(u->rows.size(), 2u);
}

TEST(Csv, RejectsMalformedTextNamingTheLine)
{
    auto open = parseCsv("a,b\n1,\"never closed\n", "bad.csv");
    ASSERT_FALSE(open.ok());
    EXPECT_EQ(open.error().where, "bad.csv:2");
    auto after = parseCsv("a,b\n\"x\"y,2\n", "bad.csv");
    ASSERT_FALSE(after.ok());
    EXPECT_EQ(after.error().where, "bad.csv:2");
    auto inner = parseCsv("a,b\nx\"y,2\n", "bad.csv");
    ASSERT_FALSE(inner.ok());
    auto bareCr = parseCsv("a,b\rc\n", "bad.csv");
    ASSERT_FALSE(bareCr.ok());
}

TEST(Csv, RandomFieldsRoundTrip)
{
    std::mt19937 rng(7);
    const std::string alphabet = "ab,\"\n\r x1.-";
    for (int trial = 0; trial < 500; ++trial) {
        std::vector<std::vector<std::string>> rows(1 + rng() % 4);
        const std::size_t width = 1 + rng() % 5;
        std::string text;
        for (auto &row : rows) {
            for (std::size_t c = 0; c < width; ++c) {
                std::string field;
                for (std::size_t k = rng() % 6; k > 0; --k)
                    field += alphabet[rng() % alphabet.size()];
                row.push_back(field);
                text += (c ? "," : "") + csvField(field);
            }
            text += "\n";
        }
        auto parsed = parseCsv(text, "r.csv");
        ASSERT_TRUE(parsed.ok()) << parsed.error().toString() << "\n" << text;
        EXPECT_EQ(parsed->rows, rows) << text;
    }
}

TEST(Csv, SplitTextKeepsInnerEmptyPiecesAndDropsAFinalOne)
{
    using Pieces = std::vector<std::string>;
    EXPECT_EQ(splitText("0.1,1,10", ','), (Pieces{"0.1", "1", "10"}));
    EXPECT_EQ(splitText("a,,b", ','), (Pieces{"a", "", "b"}));
    EXPECT_EQ(splitText("a,b,", ','), (Pieces{"a", "b"}));
    EXPECT_EQ(splitText(",a", ','), (Pieces{"", "a"}));
    EXPECT_EQ(splitText("", ','), Pieces{});
    EXPECT_EQ(splitText("0.1:100:7", ':'), (Pieces{"0.1", "100", "7"}));
    EXPECT_EQ(splitText("a,b", ':'), Pieces{"a,b"});
}

} // namespace
} // namespace dplab
