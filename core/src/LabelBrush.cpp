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

std::vector<std::size_t> LabelBrush::footprint(const VoxelIndex& centre, VoxelBox* box) const {
    std::vector<std::size_t> out;
    out.reserve(m_offsets.size());
    for (const auto& o : m_offsets) {
        const int i = centre.i + o[0], j = centre.j + o[1], k = centre.k + o[2];
        if (!m_geometry.contains(i, j, k)) continue;
        out.push_back(m_geometry.index(i, j, k));
        if (box) box->add(i, j, k);
    }
    return out;
}

}  // namespace lucent
