/// @brief Voxel-index lists of the CPU engines' fronts and queues: 32 bits where every index of the volume fits, else 64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

namespace lucent {

/// The index width a CPU engine's fronts and queues use.
enum class IndexWidth {
    Fit,   ///< 32 bits where every index of the volume fits them (half the memory of 64), else 64
    Wide,  ///< 64 bits on any volume: the path of volumes past 2^32 voxels, run by tests on small ones
};

/// True when a volume of `voxelCount` voxels has an index that 32 bits cannot hold: its last one,
/// voxelCount - 1, is past 2^32 - 1.
constexpr bool needsWideIndices(std::size_t voxelCount) { return voxelCount > (std::size_t(1) << 32); }

/// Whether an engine asked for `width` holds 64-bit indices on a volume of `voxelCount` voxels.
constexpr bool wideIndices(IndexWidth width, std::size_t voxelCount) {
    return width == IndexWidth::Wide || needsWideIndices(voxelCount);
}

template <class Index>
using IndexBuckets = std::vector<std::vector<Index>>;

/// A front of voxel indices in either width: engines std::visit it into a loop templated on the index
/// type, so each width runs without a branch per voxel.
using VoxelIndexList = std::variant<std::vector<std::uint32_t>, std::vector<std::uint64_t>>;
/// A bucket queue of voxel indices in either width.
using VoxelIndexBuckets = std::variant<IndexBuckets<std::uint32_t>, IndexBuckets<std::uint64_t>>;

/// An empty list or queue (VoxelIndexList, VoxelIndexBuckets) of 64-bit indices when `wide`, else 32-bit.
template <class Lists>
Lists emptyIndexLists(bool wide) {
    return wide ? Lists(std::in_place_index<1>) : Lists(std::in_place_index<0>);
}

/// True when `lists` holds 64-bit indices.
template <class Lists>
bool holdsWideIndices(const Lists& lists) {
    return lists.index() == 1;
}

inline std::size_t indexCount(const VoxelIndexList& list) {
    return std::visit([](const auto& v) { return v.size(); }, list);
}

/// Appends voxel `index` (it fits the list's width: emptyIndexLists chose it for the volume).
inline void pushIndex(VoxelIndexList& list, std::size_t index) {
    std::visit([index](auto& v) { v.push_back(static_cast<typename std::decay_t<decltype(v)>::value_type>(index)); },
               list);
}

/// Empties `list` keeping its width; with `release`, its memory too.
inline void clearIndices(VoxelIndexList& list, bool release = false) {
    std::visit(
        [release](auto& v) {
            v.clear();
            if (release) v.shrink_to_fit();
        },
        list);
}

}  // namespace lucent
