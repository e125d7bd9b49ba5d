/// @brief Private: contours and smooths a cropped binary mask (VTK in SurfaceContourVtk.cpp, or an error without VTK).
#pragma once

#include "lucent/core/Vec3.h"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace lucent::io::detail {

/// A binary mask (1 inside, 0 outside) whose outermost layer is background, so the surface closes.
struct BinaryCrop {
    std::array<int, 3> dims{0, 0, 0};
    Vec3 spacing{1, 1, 1};
    std::vector<std::uint8_t> mask;  ///< x fastest
};

/// Triangles in the crop's scaled index space (point = spacing (.) crop index), any winding.
struct RawMesh {
    std::vector<double> points;
    std::vector<std::uint32_t> triangles;
};

/// Fraction done (0..1) of the contour-and-smooth work; returns false to cancel.
using StageProgress = std::function<bool(double fraction)>;

/// True when this build has VTK.
bool contourAvailable();
/// Throws IoError ("this build has no VTK: surfaces cannot be written") when contourAvailable() is false.
void requireContour();

/// Discrete flying edges on the voxel faces' midpoints, then (iterations > 0) windowed sinc
/// smoothing with normalised coordinates, no boundary or feature-edge smoothing. Smoothing works
/// in millimetres (the crop's spacing) so an anisotropic grid is smoothed as its shape, not its
/// index lattice. Throws Cancelled when `progress` returns false, IoError without VTK.
RawMesh contourAndSmooth(const BinaryCrop& crop, int iterations, double passBand, const StageProgress& progress);

}  // namespace lucent::io::detail
