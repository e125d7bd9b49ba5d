/// @brief Island tools on one label of a label map: its 6-connected components, keep the largest,
/// remove those smaller than N voxels, keep the one holding a voxel, fill the holes.
#pragma once

#include "lucent/core/LabelMap.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lucent {

/// The 6-connected components (face neighbours) of the voxels carrying one label value. Exact and
/// deterministic: components are numbered 1..n in the order of their first voxel in memory order
/// (x fastest), so ties between equal sizes are broken the same way on every run.
class LabelComponents {
public:
    LabelComponents(const LabelMap& labels, std::uint8_t value);

    std::uint8_t value() const { return m_value; }
    std::size_t count() const { return m_sizes.size(); }
    /// Voxels of component c (1..count()).
    std::size_t size(std::uint32_t c) const { return m_sizes[c - 1]; }
    const std::vector<std::size_t>& sizes() const { return m_sizes; }
    /// The component of voxel `index` (0 where the voxel does not carry the value).
    std::uint32_t componentOf(std::size_t index) const { return m_ids[index]; }
    /// The largest component (the first in memory order among equals); 0 when there is none.
    std::uint32_t largest() const;

private:
    std::uint8_t m_value;
    std::vector<std::uint32_t> m_ids;
    std::vector<std::size_t> m_sizes;
};

/// Clears (to 0) every component of `value` except the largest. Returns the voxels cleared.
std::size_t keepLargestIsland(LabelMap& labels, std::uint8_t value);
/// Clears the components of `value` with fewer than `minVoxels` voxels. Returns the voxels cleared.
std::size_t removeSmallIslands(LabelMap& labels, std::uint8_t value, std::size_t minVoxels);
/// Clears every component of the label at `index` except the one holding `index`. Returns the
/// voxels cleared (0 also when the voxel is background).
std::size_t keepIslandAt(LabelMap& labels, std::size_t index);

/// Fills the holes of `value`: sets to `value` every voxel of each 6-connected component of the
/// voxels not carrying `value` that (a) does not touch the volume's border and (b) holds only
/// background (0). A component holding another label anywhere is left entirely as it is, so other
/// labels are never overwritten, nor is background that shares a cavity with them (a structure
/// inside another keeps its surroundings). Returns the voxels filled.
std::size_t fillHoles(LabelMap& labels, std::uint8_t value);

}  // namespace lucent
