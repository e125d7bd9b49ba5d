/// @brief The method and backend tables, and their look-ups.
#include "lucent/core/seg/Methods.h"
#include "lucent/core/seg/Backend.h"

#include <algorithm>

namespace lucent {

namespace {

constexpr std::array<MethodInfo, 6> kMethods{{
    {Method::RegionGrowing, "srg", "Region growing", "region growing"},
    {Method::FuzzyConnectedness, "fc", "Fuzzy connectedness", "fuzzy connectedness"},
    {Method::FuzzyCMeans, "fcm", "Fuzzy C-means", "fuzzy C-means"},
    {Method::Snake, "snake", "Region snake", "region snake"},
    {Method::Snake3d, "snake3d", "3D snake", "3D snake"},
    {Method::GrowCut, "growcut", "Grow from seeds", "grow from seeds"},
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

/// The enum of the row whose key is `key` (`value` picks the row's enum field).
template <class Table, class Enum, class Row = typename Table::value_type>
std::optional<Enum> fromKey(const Table& table, std::string_view key, Enum Row::*value) {
    for (const Row& row : table)
        if (row.key == key) return row.*value;
    return std::nullopt;
}

template <class Table>
std::string keyList(const Table& table, std::string_view separator, std::string_view lastSeparator) {
    std::string out;
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (i > 0) out += i + 1 == table.size() ? lastSeparator : separator;
        out += table[i].key;
    }
    return out;
}

}  // namespace

const std::array<MethodInfo, 6>& methodTable() { return kMethods; }

const MethodInfo& methodInfo(Method method) { return kMethods.at(std::size_t(method)); }

std::optional<Method> methodFromKey(std::string_view key) { return fromKey(kMethods, key, &MethodInfo::method); }

std::string methodKeyList(std::string_view separator, std::string_view lastSeparator) {
    return keyList(kMethods, separator, lastSeparator);
}

const char* methodName(Method method) { return methodInfo(method).key.data(); }

const std::array<BackendInfo, 3>& backendTable() { return kBackends; }

const char* backendKey(Backend backend) { return kBackends.at(std::size_t(backend)).key.data(); }

std::optional<Backend> backendFromKey(std::string_view key) { return fromKey(kBackends, key, &BackendInfo::backend); }

std::string backendKeyList(std::string_view separator, std::string_view lastSeparator) {
    return keyList(kBackends, separator, lastSeparator);
}

}  // namespace lucent
