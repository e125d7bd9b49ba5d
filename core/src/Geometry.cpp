/// @brief Voxel <-> patient transforms and grid comparison.
#include "lucent/core/Geometry.h"

#include <cmath>

namespace lucent {

Vec3 Geometry::voxelToPatient(Vec3 ijk) const {
    return origin + direction * Vec3{ijk.x * spacing.x, ijk.y * spacing.y, ijk.z * spacing.z};
}

Vec3 Geometry::patientToVoxel(Vec3 patient) const {
    const Vec3 scaled = direction.inverse() * (patient - origin);
    return {scaled.x / spacing.x, scaled.y / spacing.y, scaled.z / spacing.z};
}

bool Geometry::sameGrid(const Geometry& other, double toleranceMm) const {
    if (dims != other.dims) return false;
    // Compare the positions of the grid's corners: covers spacing, origin and direction at once,
    // with a tolerance in millimetres that means the same thing for every component.
    for (int c = 0; c < 8; ++c) {
        const Vec3 ijk{(c & 1) ? dims[0] - 1.0 : 0.0, (c & 2) ? dims[1] - 1.0 : 0.0,
                       (c & 4) ? dims[2] - 1.0 : 0.0};
        if (norm(voxelToPatient(ijk) - other.voxelToPatient(ijk)) > toleranceMm) return false;
    }
    // A one-voxel-thick axis has no second corner: compare spacing too.
    for (int a = 0; a < 3; ++a)
        if (std::abs(spacing[a] - other.spacing[a]) > toleranceMm) return false;
    return true;
}

}  // namespace lucent
