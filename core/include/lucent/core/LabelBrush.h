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
/// spacing and direction; the disc keeps to the plane of the centre voxel across `normalAxis` (a
/// view of the volume's own planes) or, made with a plane normal, to a resliced view's plane. The
/// centre voxel is always covered, however small the brush.
class LabelBrush {
public:
    /// Precomputes the offsets (once per stroke: the grid is uniform, so they hold everywhere).
    LabelBrush(const Geometry& geometry, BrushShape shape, double diameterMm, int normalAxis = 2);
    /// A disc on a resliced plane across the patient (LPS) unit vector `planeNormal`: with the brush
    /// at a continuous voxel position on that plane, it covers the voxels whose box the plane cuts
    /// (the voxels a nearest-voxel view of the plane shows) and whose centre lies within half the
    /// diameter of the brush in the plane. The voxel nearest the brush is always covered.
    LabelBrush(const Geometry& geometry, double diameterMm, Vec3 planeNormal);

    BrushShape shape() const { return m_shape; }
    double diameterMm() const { return m_diameter; }
    /// Index offsets (di, dj, dk) covered around any centre, in a fixed order (for a plane disc:
    /// the candidates around the nearest voxel, which covers() sorts out).
    const std::vector<std::array<int, 3>>& offsets() const { return m_offsets; }
    /// Whether this is a disc on a resliced plane (its cover depends on the sub-voxel position).
    bool acrossPlane() const { return m_acrossPlane; }
    /// Plane disc: whether the voxel `offset` from the nearest voxel is covered when that voxel's
    /// centre lies `centreFromBrush` (voxel units) from the brush's position; true for others.
    bool covers(const std::array<int, 3>& offset, Vec3 centreFromBrush) const;
    /// Linear indices of the covered voxels inside the grid around `centre`; `box` (if given) is
    /// widened to hold them.
    std::vector<std::size_t> footprint(const VoxelIndex& centre, VoxelBox* box = nullptr) const;

private:
    Geometry m_geometry;
    BrushShape m_shape;
    double m_diameter;
    bool m_acrossPlane = false;
    Mat3 m_toMm;             // index offset -> mm offset
    Vec3 m_planeNormal;
    double m_halfThickness = 0;  // half the extent of a voxel box across the plane, mm
    std::vector<std::array<int, 3>> m_offsets;
};

}  // namespace lucent
