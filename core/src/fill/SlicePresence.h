/// @brief Which slices of each axis hold each label: one pass over the map on all cores; the
/// labelled slices of fill between slices and the sparse axis come from it.
#pragma once

#include "lucent/core/LabelMap.h"

#include <array>
#include <cstdint>
#include <vector>

namespace lucent::fill {

class SlicePresence {
public:
    /// Records the labels whose `wanted[value]` is set (all 256 entries read).
    SlicePresence(const LabelMap& map, const std::array<bool, 256>& wanted, unsigned threads);

    /// Whether slice `s` of `axis` holds `label`.
    bool holds(int axis, std::uint8_t label, int s) const {
        return m_seen[axis][std::size_t(label) * m_dims[axis] + s] != 0;
    }
    /// The slices of `axis` holding `label`, ascending.
    std::vector<int> slices(int axis, std::uint8_t label) const;
    /// Whether `label` has a voxel.
    bool present(std::uint8_t label) const { return !slices(2, label).empty(); }

private:
    std::array<int, 3> m_dims;
    std::array<std::vector<std::uint8_t>, 3> m_seen;  ///< [axis][label * dims[axis] + slice]
};

}  // namespace lucent::fill
