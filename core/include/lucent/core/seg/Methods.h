/// @brief The segmentation methods and their names, in one table: the key a command line and a
/// session file use ("fc"), the title a window shows ("Fuzzy connectedness") and the title inside a
/// sentence ("Accept fuzzy connectedness"). Every spelling of a method comes from here.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace lucent {

enum class Method { RegionGrowing, FuzzyConnectedness, FuzzyCMeans, Snake, Snake3d, GrowCut };

struct MethodInfo {
    Method method;
    std::string_view key;         ///< "srg", "fc", "fcm", "snake", "snake3d", "growcut" (CLI, session files, statistics)
    std::string_view title;       ///< "Region growing", ... (panel title, HUD)
    std::string_view lowerTitle;  ///< "region growing", ... (inside a sentence: "Accept region growing")
};

/// One row a method, in the order of the enum (the menu order).
const std::array<MethodInfo, 6>& methodTable();
const MethodInfo& methodInfo(Method method);
/// The method whose key is `key`; nullopt for any other text.
std::optional<Method> methodFromKey(std::string_view key);
/// The keys for a message or usage text: "srg, fc, fcm or snake" with (", ", " or "), "srg|fc|fcm|snake" with ("|",
/// "|").
std::string methodKeyList(std::string_view separator = ", ", std::string_view lastSeparator = ", ");

/// The key as a C string ("srg", "fc", "fcm", "snake"); the keys are literals, so it ends in NUL.
const char* methodName(Method method);

}  // namespace lucent
