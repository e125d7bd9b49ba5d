/// @brief Where a plane or a line meets a volume's box of voxel centres, in patient mm: the 3D
/// view's slice planes and crosshair when the slice views show the patient's own planes.
#pragma once

#include "lucent/core/Geometry.h"

#include <array>
#include <optional>
#include <vector>

namespace lucent::render {

/// The convex polygon (3 to 6 corners, in order around it) where the plane through `point` with
/// normal `normal` cuts the box of voxel centres (index 0 .. dims - 1 on each axis); empty when
/// the plane misses the box or only touches it.
std::vector<Vec3> planeOutline(const Geometry& geometry, Vec3 point, Vec3 normal);

/// The part of the line through `point` along `direction` inside that box: its two ends, or
/// nothing when the line misses it.
std::optional<std::array<Vec3, 2>> lineInBox(const Geometry& geometry, Vec3 point, Vec3 direction);

}  // namespace lucent::render
