/// @brief The parameter table (MethodParameters.h): every spelling unique, every default allowed, each
/// row reading and writing its own field, and validateParameters refusing what a row refuses.
#include "lucent/core/seg/MethodParameters.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace lucent {
namespace {

/// A row's value in a request whatever its kind: a number, a range's two bounds, or nothing.
std::optional<std::vector<double>> read(const Parameter& p, const SegmentationRequest& r) {
    if (p.kind == ParameterKind::OptionalRange) {
        const auto range = p.getRange(r);
        return range ? std::optional(std::vector<double>{range->lower, range->upper}) : std::nullopt;
    }
    const auto v = p.get(r);
    return v ? std::optional(std::vector<double>{*v}) : std::nullopt;
}

TEST(MethodParameters, EverySpellingIsUniqueAndEveryDefaultAllowed) {
    std::set<std::string> flags, keys;
    for (const Parameter& p : parameterTable()) {
        EXPECT_TRUE(flags.insert(std::string(p.flag)).second) << p.flag;
        // A key may repeat across methods only where it means the same thing; today none does.
        EXPECT_TRUE(keys.insert(std::string(methodName(p.method)) + "." + std::string(p.key)).second) << p.key;
        EXPECT_EQ(p.flag.substr(0, 2), "--");
        EXPECT_FALSE(p.help.empty()) << p.key;
        EXPECT_EQ(parameterByFlag(p.flag), &p);
        const bool optional = p.kind == ParameterKind::OptionalNumber || p.kind == ParameterKind::OptionalRange;
        if (!optional) EXPECT_TRUE(p.allows(p.limit.byDefault)) << p.key;
        // Each kind has its accessors, and only those.
        const bool range = p.kind == ParameterKind::OptionalRange;
        EXPECT_EQ(p.get == nullptr, range) << p.key;
        EXPECT_EQ(p.set == nullptr, range) << p.key;
        EXPECT_EQ(p.getRange != nullptr, range) << p.key;
        EXPECT_EQ(p.setRange != nullptr, range) << p.key;
        // The row's default is the request's: a default-made request reads it back.
        const SegmentationRequest fresh;
        const auto v = read(p, fresh);
        if (optional) EXPECT_FALSE(v) << p.key;
        else EXPECT_EQ(*v, std::vector<double>{p.limit.byDefault}) << p.key;
    }
    EXPECT_TRUE(parametersOf(Method::GrowCut).empty());
    EXPECT_EQ(parameterByFlag("--seed"), nullptr);
}

TEST(MethodParameters, EachRowWritesItsOwnFieldOnly) {
    for (const Parameter& p : parameterTable()) {
        SegmentationRequest r;
        if (p.kind == ParameterKind::OptionalRange) {
            p.setRange(r, ValueRange{-20, 100.5});
            EXPECT_EQ(read(p, r), (std::vector<double>{-20, 100.5})) << p.key;
        } else {
            const double value = p.kind == ParameterKind::Flag ? 1.0 : p.choices.empty() ? p.limit.byDefault + 1 : 26;
            p.set(r, value);
            EXPECT_EQ(*p.get(r), value) << p.key;
        }
        const SegmentationRequest fresh;
        for (const Parameter& other : parameterTable())
            if (&other != &p) EXPECT_EQ(read(other, r), read(other, fresh)) << p.key << " changed " << other.key;
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

TEST(MethodParameters, ARangeIsTwoNumbersTheLowerBelowTheUpper) {
    const Parameter& clip = *parameterByFlag("--clip");
    EXPECT_EQ(clip.kind, ParameterKind::OptionalRange);
    EXPECT_EQ(clip.rangeText(), "LO < HI");
    EXPECT_EQ(clip.requirement(), "two numbers LO,HI, LO below HI");
    EXPECT_EQ(clip.defaultText(), "none");
    EXPECT_TRUE(clip.allowsRange({0, 80}));
    EXPECT_TRUE(clip.allowsRange({-1024.5, -1024.25}));
    EXPECT_FALSE(clip.allowsRange({80, 0}));
    EXPECT_FALSE(clip.allowsRange({5, 5}));
    EXPECT_FALSE(clip.allowsRange({std::nan(""), 5}));
    EXPECT_FALSE(clip.allowsRange({0, INFINITY}));
    SegmentationRequest r;
    EXPECT_NO_THROW(validateParameters(Method::Snake3d, r)) << "no clip: nothing to check";
    r.snake3d.clip = ValueRange{80, 0};
    try {
        validateParameters(Method::Snake3d, r);
        FAIL() << "80,0 was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "clip must be two numbers LO,HI, LO below HI, got 80,0");
    }
    // The command line's text, both ways: what the viewer shows reads back as the same doubles.
    EXPECT_EQ(parseRange("0,80"), (ValueRange{0, 80}));
    EXPECT_EQ(parseRange("-20,+100.5"), (ValueRange{-20, 100.5}));
    EXPECT_EQ(parseRange("1e1,2e1"), (ValueRange{10, 20}));
    for (const char* bad : {"", "0", "0,", ",80", "a,b", "0,80,100", "nan,1", "0,inf", " 0,80", "0 ,80", "0;80"})
        EXPECT_FALSE(parseRange(bad)) << "'" << bad << "'";
    EXPECT_EQ(rangeText({-20, 100.5}), "-20,100.5");
    EXPECT_EQ(rangeText({0, 80}), "0,80");
    const ValueRange odd{0.1 + 0.2, 1.0 / 3};
    EXPECT_EQ(parseRange(rangeText(odd)), odd);
}

}  // namespace
}  // namespace lucent
