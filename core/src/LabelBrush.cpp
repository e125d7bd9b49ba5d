/// @brief Brush offsets from patient-space distances.
#include "lucent/core/LabelBrush.h"

#include <algorithm>
#include <cmath>

namespace lucent {

LabelBrush::LabelBrush(const Geometry& geometry, BrushShape shape, double diameterMm, int normalAxis)
    : m_geometry(geometry), m_shape(shape), m_diameter(std::max(0.0, diameterMm)) {
    // Index offset -> mm offset: the direction's columns scaled by the spacing. Its inverse bounds
    // the search: |offset along axis a| <= r * |row a of the inverse| (exact for sheared grids too).
    const Mat3 m = Mat3::fromColumns(geometry.direction.col[0] * geometry.spacing.x,
                                     geometry.direction.col[1] * geometry.spacing.y,
                                     geometry.direction.col[2] * geometry.spacing.z);
    const Mat3 inv = m.inverse();
    const double r = m_diameter / 2.0;
    // A hair of tolerance so that a voxel exactly on the rim (5 mm on a 0.5 mm grid) is covered.
    const double r2 = r * r * (1 + 1e-9) + 1e-12;
    std::array<int, 3> reach{};
    for (int a = 0; a < 3; ++a) {
        const double row =
            std::sqrt(inv.at(a, 0) * inv.at(a, 0) + inv.at(a, 1) * inv.at(a, 1) + inv.at(a, 2) * inv.at(a, 2));
        reach[std::size_t(a)] = int(std::floor(r * row + 1e-9));
    }
    if (shape == BrushShape::Disc && normalAxis >= 0 && normalAxis < 3) reach[std::size_t(normalAxis)] = 0;
    for (int dk = -reach[2]; dk <= reach[2]; ++dk)
        for (int dj = -reach[1]; dj <= reach[1]; ++dj)
            for (int di = -reach[0]; di <= reach[0]; ++di) {
                const Vec3 mm = m * Vec3{double(di), double(dj), double(dk)};
                if (dot(mm, mm) <= r2) m_offsets.push_back({di, dj, dk});
            }
}

LabelBrush::LabelBrush(const Geometry& geometry, double diameterMm, Vec3 planeNormal)
    : m_geometry(geometry),
      m_shape(BrushShape::Disc),
      m_diameter(std::max(0.0, diameterMm)),
      m_acrossPlane(true),
      m_planeNormal(normalized(planeNormal)) {
    m_toMm = Mat3::fromColumns(geometry.direction.col[0] * geometry.spacing.x,
                               geometry.direction.col[1] * geometry.spacing.y,
                               geometry.direction.col[2] * geometry.spacing.z);
    for (int a = 0; a < 3; ++a) m_halfThickness += 0.5 * std::abs(dot(m_toMm.col[a], m_planeNormal));
    // Candidates: every offset within the radius plus a voxel diagonal (the nearest voxel's centre
    // is at most half a diagonal from the brush, and the slab at most a diagonal thick).
    const double diagonal = std::sqrt(dot(m_toMm.col[0], m_toMm.col[0]) + dot(m_toMm.col[1], m_toMm.col[1]) +
                                      dot(m_toMm.col[2], m_toMm.col[2]));
    const double reachMm = m_diameter / 2.0 + diagonal;
    const Mat3 inv = m_toMm.inverse();
    std::array<int, 3> reach{};
    for (int a = 0; a < 3; ++a)
        reach[std::size_t(a)] =
            int(std::ceil(reachMm * std::sqrt(inv.at(a, 0) * inv.at(a, 0) + inv.at(a, 1) * inv.at(a, 1) +
                                              inv.at(a, 2) * inv.at(a, 2))));
    for (int dk = -reach[2]; dk <= reach[2]; ++dk)
        for (int dj = -reach[1]; dj <= reach[1]; ++dj)
            for (int di = -reach[0]; di <= reach[0]; ++di) {
                const Vec3 mm = m_toMm * Vec3{double(di), double(dj), double(dk)};
                if (dot(mm, mm) <= reachMm * reachMm) m_offsets.push_back({di, dj, dk});
            }
}

bool LabelBrush::covers(const std::array<int, 3>& offset, Vec3 centreFromBrush) const {
    if (!m_acrossPlane) return true;
    if (offset[0] == 0 && offset[1] == 0 && offset[2] == 0) return true;
    const Vec3 mm = m_toMm * (Vec3{double(offset[0]), double(offset[1]), double(offset[2])} + centreFromBrush);
    const double across = dot(mm, m_planeNormal);
    const double r = m_diameter / 2.0;
    // The same hair of tolerance as the other shapes, so a voxel exactly on the rim is covered.
    return std::abs(across) <= m_halfThickness * (1 + 1e-9) &&
           dot(mm, mm) - across * across <= r * r * (1 + 1e-9) + 1e-12;
}

std::vector<std::size_t> LabelBrush::footprint(const VoxelIndex& centre, VoxelBox* box) const {
    std::vector<std::size_t> out;
    out.reserve(m_offsets.size());
    for (const auto& o : m_offsets) {
        const int i = centre.i + o[0], j = centre.j + o[1], k = centre.k + o[2];
        if (!m_geometry.contains(i, j, k) || !covers(o, {})) continue;
        out.push_back(m_geometry.index(i, j, k));
        if (box) box->add(i, j, k);
    }
    return out;
}

}  // namespace lucent
