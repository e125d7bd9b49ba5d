/// @brief A uint8 label per voxel on a volume's grid (0 = background).
#pragma once

#include "lucent/core/HostVolumeWork.h"
#include "lucent/core/Geometry.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lucent {

class LabelMap {
public:
    LabelMap() = default;
    explicit LabelMap(const Geometry& geometry) : m_geometry(geometry), m_labels(geometry.voxelCount(), 0) {
        hostwork::note(m_labels.size());
    }
    /// Takes `labels` (one per voxel of `geometry`, else std::invalid_argument) without copying.
    LabelMap(const Geometry& geometry, std::vector<std::uint8_t>&& labels);
    /// A copy is host work over the whole map: noted, so that tests see one made where none should be.
    LabelMap(const LabelMap& other) : m_geometry(other.m_geometry), m_labels(other.m_labels) { hostwork::note(m_labels.size()); }
    LabelMap& operator=(const LabelMap& other) {
        if (this != &other) {
            m_geometry = other.m_geometry;
            m_labels = other.m_labels;
            hostwork::note(m_labels.size());
        }
        return *this;
    }
    LabelMap(LabelMap&&) noexcept = default;
    LabelMap& operator=(LabelMap&&) noexcept = default;
    ~LabelMap() = default;

    const Geometry& geometry() const { return m_geometry; }
    std::size_t voxelCount() const { return m_labels.size(); }
    std::uint8_t* data() { return m_labels.data(); }
    const std::uint8_t* data() const { return m_labels.data(); }
    std::uint8_t at(int i, int j, int k) const { return m_labels[m_geometry.index(i, j, k)]; }
    std::uint8_t& at(int i, int j, int k) { return m_labels[m_geometry.index(i, j, k)]; }
    std::uint8_t operator[](std::size_t index) const { return m_labels[index]; }
    std::uint8_t& operator[](std::size_t index) { return m_labels[index]; }
    /// Number of voxels carrying `label`.
    std::size_t count(std::uint8_t label) const;

private:
    Geometry m_geometry;
    std::vector<std::uint8_t> m_labels;
};

/// Voxels of each value of `map`, counted on all cores (`threads`: 0 for all) eight zero bytes at a
/// time: a layer of a few strokes costs about a read of it, not a count per voxel.
std::array<std::size_t, 256> valueCounts(const LabelMap& map, unsigned threads = 0);

}  // namespace lucent
