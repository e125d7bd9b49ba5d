/// @brief LabelMap construction and counting.
#include "lucent/core/LabelMap.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace lucent {

LabelMap::LabelMap(const Geometry& geometry, std::vector<std::uint8_t>&& labels)
    : m_geometry(geometry), m_labels(std::move(labels)) {
    if (m_labels.size() != geometry.voxelCount())
        throw std::invalid_argument("LabelMap: label count differs from the geometry's voxel count");
}

std::size_t LabelMap::count(std::uint8_t label) const {
    return static_cast<std::size_t>(std::count(m_labels.begin(), m_labels.end(), label));
}

}  // namespace lucent
