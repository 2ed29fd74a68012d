// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/enumnames.h"
#include "dplab/common/formatnumber.h"
#include "dplab/common/params.h"

#include <gtest/gtest.h>

#include <sstream>

namespace dplab {
namespace {

std::vector<ParamSpec> specs()
{
    auto step = realParam("stepsize", "Step", 0.1, 0.0, 10.0, "step", {.minExclusive = true});
    step.perAgent = true;
    return {step, intParam("k", "k", 2, 1, 100, "k"),
            choiceParam("mode", "Mode", "a", {"a", "b"}, "mode")};
}

TEST(FormatNumber, MatchesTheStreamAtTheGivenPrecision)
{
    for (double v : {0.05, 1e-6, 12.5, -3.0, 1.0 / 3.0, 123456789.0, 0.0}) {
        for (int digits : {4, 6, 10}) {
            std::ostringstream out;
            out.precision(digits);
            out << v;
            EXPECT_EQ(formatNumber(v, digits), out.str()) << v << " at " << digits;
        }
    }
    EXPECT_EQ(formatNumber(0.05), "0.05");
    EXPECT_EQ(formatNumber(1e-6), "1e-06");
    EXPECT_EQ(formatNumber(1.0 / 3.0, 4), "0.3333");
    EXPECT_EQ(formatNumber(0.1, 40).size(), 42u); // long expansions are not cut
}

TEST(Params, DefaultsAreFilled)
{
    auto r = resolveParams(specs(), Json::object(), "runs[0].params");
    ASSERT_TRUE(r.ok());
    EXPECT_DOUBLE_EQ((*r)["stepsize"].get<double>(), 0.1);
    EXPECT_EQ((*r)["k"].get<int>(), 2);
}

TEST(Params, ErrorsNameThePath)
{
    auto unknown = resolveParams(specs(), Json{{"stpesize", 1}}, "runs[1].params");
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error().where, "runs[1].params.stpesize");
    auto negative = resolveParams(specs(), Json{{"stepsize", -1}}, "runs[1].params");
    ASSERT_FALSE(negative.ok());
    EXPECT_EQ(negative.error().where, "runs[1].params.stepsize");
    auto zero = resolveParams(specs(), Json{{"stepsize", 0}}, "p");
    EXPECT_FALSE(zero.ok());
    auto wrongType = resolveParams(specs(), Json{{"k", "two"}}, "p");
    EXPECT_FALSE(wrongType.ok());
    auto fractional = resolveParams(specs(), Json{{"k", 2.5}}, "p");
    EXPECT_FALSE(fractional.ok());
    auto choice = resolveParams(specs(), Json{{"mode", "c"}}, "p");
    EXPECT_FALSE(choice.ok());
}

TEST(Params, PerAgentListsHaveOneValuePerAgent)
{
    auto ok = resolveParams(specs(), Json{{"stepsize", {0.1, 0.2, 0.3}}}, "p", 3);
    ASSERT_TRUE(ok.ok());
    auto v = paramPerAgent(*ok, "stepsize", 3);
    EXPECT_DOUBLE_EQ(v[2], 0.3);
    auto bad = resolveParams(specs(), Json{{"stepsize", {0.1, 0.2}}}, "p", 3);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().where, "p.stepsize");
    auto badItem = resolveParams(specs(), Json{{"stepsize", {0.1, -0.2, 0.1}}}, "p", 3);
    ASSERT_FALSE(badItem.ok());
    EXPECT_EQ(badItem.error().where, "p.stepsize[1]");
}

TEST(EnumNames, ATableNamesEveryValueItHolds)
{
    enum class Colour { Red, Green, Blue };
    const auto name = [](Colour c) {
        return std::string(nameIn<Colour>({{Colour::Red, "red"}, {Colour::Green, "green"}}, c, "?"));
    };
    EXPECT_EQ(name(Colour::Red), "red");
    EXPECT_EQ(name(Colour::Green), "green");
    EXPECT_EQ(name(Colour::Blue), "?"); // not in the table: the fallback
    EXPECT_STREQ(graphKindName(GraphKind::Undirected), "undirected");
    EXPECT_STREQ(graphKindName(GraphKind::Directed), "directed");
    EXPECT_STREQ(graphKindName(GraphKind::Either), "either");
}

} // namespace
} // namespace dplab
