/// @brief The method and backend tables: one row each, keys that round-trip, unknown keys refused,
/// and the spellings users and files rely on (CLI keys, session keys, titles).
#include "lucent/core/seg/Backend.h"
#include "lucent/core/seg/Methods.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace lucent;

namespace {
constexpr Method kAllMethods[] = {Method::RegionGrowing, Method::FuzzyConnectedness, Method::FuzzyCMeans,
                                  Method::Snake, Method::Snake3d, Method::GrowCut};
constexpr Backend kAllBackends[] = {Backend::Auto, Backend::Cpu, Backend::Cuda};
}  // namespace

TEST(MethodTable, EveryMethodHasExactlyOneRow) {
    for (Method m : kAllMethods) {
        int rows = 0;
        for (const MethodInfo& row : methodTable()) rows += row.method == m;
        EXPECT_EQ(rows, 1) << int(m);
        EXPECT_EQ(methodInfo(m).method, m);
    }
    EXPECT_EQ(methodTable().size(), std::size(kAllMethods));
}

TEST(MethodTable, KeysAndTitlesRoundTripAndAreDistinct) {
    std::set<std::string_view> keys, titles;
    for (const MethodInfo& row : methodTable()) {
        EXPECT_EQ(methodFromKey(row.key), row.method) << row.key;
        EXPECT_EQ(std::string_view(methodName(row.method)), row.key);
        keys.insert(row.key);
        titles.insert(row.title);
        // The sentence form is the title but for its first letter ("Accept fuzzy C-means").
        ASSERT_FALSE(row.title.empty());
        EXPECT_EQ(row.lowerTitle.substr(1), row.title.substr(1)) << row.title;
        EXPECT_EQ(row.lowerTitle[0], std::tolower(row.title[0])) << row.title;
    }
    EXPECT_EQ(keys.size(), methodTable().size());
    EXPECT_EQ(titles.size(), methodTable().size());
}

TEST(MethodTable, SpellingsThatCommandLinesSessionFilesAndTheHudUse) {
    const std::pair<Method, std::string_view> keys[] = {{Method::RegionGrowing, "srg"},
                                                        {Method::FuzzyConnectedness, "fc"},
                                                        {Method::FuzzyCMeans, "fcm"},
                                                        {Method::Snake, "snake"},
                                                        {Method::Snake3d, "snake3d"}, {Method::GrowCut, "growcut"}};
    for (const auto& [m, key] : keys) EXPECT_EQ(methodInfo(m).key, key);
    EXPECT_EQ(methodInfo(Method::FuzzyCMeans).title, "Fuzzy C-means");
    EXPECT_EQ(methodInfo(Method::Snake).lowerTitle, "region snake");
    EXPECT_EQ(methodInfo(Method::GrowCut).title, "Grow from seeds");
    EXPECT_EQ(methodKeyList(", ", " or "), "srg, fc, fcm, snake, snake3d or growcut");
    EXPECT_EQ(methodKeyList("|", "|"), "srg|fc|fcm|snake|snake3d|growcut");
}

TEST(MethodTable, UnknownKeysGiveNothing) {
    for (std::string_view key : {"", "SRG", "fc ", " fc", "watershed", "Region growing", "sr"})
        EXPECT_FALSE(methodFromKey(key).has_value()) << "'" << key << "'";
}

TEST(BackendTable, EveryBackendHasOneKeyThatRoundTrips) {
    std::set<std::string_view> keys;
    for (Backend b : kAllBackends) {
        int rows = 0;
        for (const BackendInfo& row : backendTable()) rows += row.backend == b;
        EXPECT_EQ(rows, 1) << int(b);
        EXPECT_EQ(backendFromKey(backendKey(b)), b) << backendKey(b);
        keys.insert(backendKey(b));
    }
    EXPECT_EQ(keys.size(), std::size(kAllBackends));
    EXPECT_STREQ(backendKey(Backend::Auto), "auto");
    EXPECT_STREQ(backendKey(Backend::Cpu), "cpu");
    EXPECT_STREQ(backendKey(Backend::Cuda), "cuda");
    EXPECT_EQ(backendKeyList(", ", " or "), "auto, cpu or cuda");
    for (std::string_view key : {"", "CUDA", "opencl", "gpu", "cpu "})
        EXPECT_FALSE(backendFromKey(key).has_value()) << "'" << key << "'";
}
