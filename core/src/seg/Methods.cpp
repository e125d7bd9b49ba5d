/// @brief The method and backend tables, and their look-ups.
#include "lucent/core/seg/Methods.h"
#include "lucent/core/seg/Backend.h"

#include <algorithm>

namespace lucent {

namespace {

constexpr std::array<MethodInfo, 4> kMethods{{
    {Method::RegionGrowing, "srg", "Region growing", "region growing"},
    {Method::FuzzyConnectedness, "fc", "Fuzzy connectedness", "fuzzy connectedness"},
    {Method::FuzzyCMeans, "fcm", "Fuzzy C-means", "fuzzy C-means"},
    {Method::Snake, "snake", "Region snake", "region snake"},
}};

constexpr std::array<BackendInfo, 3> kBackends{{
    {Backend::Auto, "auto"},
    {Backend::Cpu, "cpu"},
    {Backend::Cuda, "cuda"},
}};

// Rows in enum order: methodInfo() and backendKey() index by the enum's value.
static_assert(std::ranges::all_of(kMethods, [](const MethodInfo& m) { return &m - kMethods.data() == int(m.method); }));
static_assert(std::ranges::all_of(kBackends,
                                  [](const BackendInfo& b) { return &b - kBackends.data() == int(b.backend); }));

template <class Table, class Key>
std::string keyList(const Table& table, Key key, std::string_view separator, std::string_view lastSeparator) {
    std::string out;
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (i > 0) out += i + 1 == table.size() ? lastSeparator : separator;
        out += key(table[i]);
    }
    return out;
}

}  // namespace

const std::array<MethodInfo, 4>& methodTable() { return kMethods; }

const MethodInfo& methodInfo(Method method) { return kMethods.at(std::size_t(method)); }

std::optional<Method> methodFromKey(std::string_view key) {
    for (const MethodInfo& m : kMethods)
        if (m.key == key) return m.method;
    return std::nullopt;
}

std::string methodKeyList(std::string_view separator, std::string_view lastSeparator) {
    return keyList(
        kMethods, [](const MethodInfo& m) { return m.key; }, separator, lastSeparator);
}

const char* methodName(Method method) { return methodInfo(method).key.data(); }

const std::array<BackendInfo, 3>& backendTable() { return kBackends; }

const char* backendKey(Backend backend) { return kBackends.at(std::size_t(backend)).key.data(); }

std::optional<Backend> backendFromKey(std::string_view key) {
    for (const BackendInfo& b : kBackends)
        if (b.key == key) return b.backend;
    return std::nullopt;
}

std::string backendKeyList(std::string_view separator, std::string_view lastSeparator) {
    return keyList(
        kBackends, [](const BackendInfo& b) { return b.key; }, separator, lastSeparator);
}

}  // namespace lucent
