/// @brief Which voxels a paint brush covers: a 2D disc in a view's plane or a 3D ball, sized in
/// millimetres, on anisotropic and oblique grids (distances are taken in patient space).
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <array>
#include <cstddef>
#include <vector>

namespace lucent {

enum class BrushShape { Disc, Ball };

/// A brush of a shape and a diameter in mm. A voxel is covered when its centre lies within half
/// the diameter of the brush's centre voxel (boundary included), measured in mm through the grid's
/// spacing and direction; the disc keeps to the plane of the centre voxel across `normalAxis` (the
/// views show the volume's own planes). The centre voxel is always covered, however small the brush.
class LabelBrush {
public:
    /// Precomputes the offsets (once per stroke: the grid is uniform, so they hold everywhere).
    LabelBrush(const Geometry& geometry, BrushShape shape, double diameterMm, int normalAxis = 2);

    BrushShape shape() const { return m_shape; }
    double diameterMm() const { return m_diameter; }
    /// Index offsets (di, dj, dk) covered around any centre, in a fixed order.
    const std::vector<std::array<int, 3>>& offsets() const { return m_offsets; }
    /// Linear indices of the covered voxels inside the grid around `centre`; `box` (if given) is
    /// widened to hold them.
    std::vector<std::size_t> footprint(const VoxelIndex& centre, VoxelBox* box = nullptr) const;

private:
    Geometry m_geometry;
    BrushShape m_shape;
    double m_diameter;
    std::vector<std::array<int, 3>> m_offsets;
};

}  // namespace lucent
