/// @brief The painted voxels of a seed map, gathered on all cores: what the CUDA grow from seeds
/// uploads instead of the map (a few thousand strokes' voxels, not a byte per voxel of the volume),
/// and the quick check that a map holds a seed at all.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/seg/HostDevice.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lucent {

/// A seed voxel packed in 64 bits: its index in the grid in the high 56 bits, its label in the low 8.
LUCENT_HD inline std::uint64_t packSeedVoxel(std::size_t index, std::uint8_t label) {
    return (std::uint64_t(index) << 8) | label;
}
LUCENT_HD inline std::size_t seedVoxelIndex(std::uint64_t packed) { return std::size_t(packed >> 8); }
LUCENT_HD inline std::uint8_t seedVoxelLabel(std::uint64_t packed) { return std::uint8_t(packed & 0xFF); }

/// The voxels of `seeds` inside `box` (clipped to the grid) that hold a label (non-zero), packed, in
/// ascending index order. `threads`: 0 for all cores.
std::vector<std::uint64_t> gatherSeedVoxels(const LabelMap& seeds, const VoxelBox& box, unsigned threads = 0);

/// Whether any voxel of `seeds` is non-zero; reads words on all cores and stops early.
bool holdsSeed(const LabelMap& seeds, unsigned threads = 0);

}  // namespace lucent
