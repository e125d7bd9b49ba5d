/// @brief The parameter table (MethodParameters.h): every spelling unique, every default allowed, each
/// row reading and writing its own field, and validateParameters refusing what a row refuses.
#include "lucent/core/seg/MethodParameters.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

namespace lucent {
namespace {

TEST(MethodParameters, EverySpellingIsUniqueAndEveryDefaultAllowed) {
    std::set<std::string> flags, keys;
    for (const Parameter& p : parameterTable()) {
        EXPECT_TRUE(flags.insert(std::string(p.flag)).second) << p.flag;
        // A key may repeat across methods only where it means the same thing; today none does.
        EXPECT_TRUE(keys.insert(std::string(methodName(p.method)) + "." + std::string(p.key)).second) << p.key;
        EXPECT_EQ(p.flag.substr(0, 2), "--");
        EXPECT_FALSE(p.help.empty()) << p.key;
        EXPECT_EQ(parameterByFlag(p.flag), &p);
        if (p.kind != ParameterKind::OptionalNumber) EXPECT_TRUE(p.allows(p.limit.byDefault)) << p.key;
        // The row's default is the request's: a default-made request reads it back.
        const SegmentationRequest fresh;
        const auto v = p.get(fresh);
        if (p.kind == ParameterKind::OptionalNumber) EXPECT_FALSE(v) << p.key;
        else EXPECT_EQ(*v, p.limit.byDefault) << p.key;
    }
    EXPECT_TRUE(parametersOf(Method::GrowCut).empty());
    EXPECT_EQ(parameterByFlag("--seed"), nullptr);
}

TEST(MethodParameters, EachRowWritesItsOwnFieldOnly) {
    for (const Parameter& p : parameterTable()) {
        SegmentationRequest r;
        const double value = p.kind == ParameterKind::Flag ? 1.0 : p.choices.empty() ? p.limit.byDefault + 1 : 26;
        p.set(r, value);
        EXPECT_EQ(*p.get(r), value) << p.key;
        const SegmentationRequest fresh;
        for (const Parameter& other : parameterTable())
            if (&other != &p) EXPECT_EQ(other.get(r), other.get(fresh)) << p.key << " changed " << other.key;
    }
}

TEST(MethodParameters, MessagesSayWhatIsAllowed) {
    const Parameter& clusters = *parameterByFlag("--clusters");
    EXPECT_EQ(clusters.rangeText(), "within 2..255");
    EXPECT_FALSE(clusters.allows(2.5));
    EXPECT_EQ(clusters.requirement(), "a whole number, within 2..255");
    EXPECT_EQ(parameterByFlag("--connectivity")->rangeText(), "6 or 26");
    EXPECT_EQ(parameterByFlag("--fuzziness")->rangeText(), "greater than 1");
    EXPECT_EQ(parameterByFlag("--step-max")->rangeText(), "at least 1");
    SegmentationRequest r;
    r.fuzzyCMeans.clusters = 1;
    try {
        validateParameters(Method::FuzzyCMeans, r);
        FAIL() << "1 cluster was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "clusters must be a whole number, within 2..255");
    }
    r = {};
    r.fuzzyConnectedness.objectSigma = 0.0;
    EXPECT_THROW(validateParameters(Method::FuzzyConnectedness, r), std::invalid_argument);
    r.fuzzyConnectedness.objectSigma.reset();
    EXPECT_NO_THROW(validateParameters(Method::FuzzyConnectedness, r));
}

}  // namespace
}  // namespace lucent
