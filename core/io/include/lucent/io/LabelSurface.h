/// @brief Smoothed, closed triangle surfaces of labels (VTK's discrete flying edges + windowed sinc), in patient LPS
/// mm.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelTable.h"
#include "lucent/core/Progress.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lucent::io {

/// An indexed triangle mesh in patient coordinates (LPS, millimetres). Closed and consistently
/// oriented: every edge is shared by exactly two triangles and the triangles wind counter-clockwise
/// seen from outside (right-hand normals point out of the label).
struct SurfaceMesh {
    std::vector<float> points;             ///< x, y, z per point
    std::vector<float> normals;            ///< outward unit normal per point (area-weighted), for shading
    std::vector<std::uint32_t> triangles;  ///< three point indices per triangle

    std::size_t pointCount() const { return points.size() / 3; }
    std::size_t triangleCount() const { return triangles.size() / 3; }
    bool empty() const { return triangles.empty(); }
};

/// How a label's surface is smoothed. Slicer's "smoothing factor" s corresponds to
/// passBand = 10^(-4 s) (s = 0.25 gives 0.1).
struct SurfaceOptions {
    int smoothingIterations = 15;  ///< windowed sinc iterations; 0 keeps the blocky voxel surface
    double passBand = 0.1;         ///< windowed sinc pass band (0..2, smaller is smoother)
};

/// One label's surface with the name it is exported under (OBJ group name).
struct NamedSurface {
    std::string name;
    std::uint8_t label = 0;
    SurfaceMesh mesh;
};

/// True when this build can build surfaces (it was built with VTK).
bool surfacesAvailable();

/// The surface of the voxels of `labels` equal to `label`. The label is cropped to its bounding box
/// plus one voxel of background (so labels touching the volume's border close), contoured on the
/// voxel faces' midpoints, smoothed in millimetres and mapped with the full index-to-patient
/// transform (oblique and left-handed grids included). Runs on any thread; `progress` is called
/// with (done, 1000) and may return false to cancel (Cancelled is thrown). IoError when the label
/// has no voxel, or when the build has no VTK ("this build has no VTK: surfaces cannot be written").
SurfaceMesh buildLabelSurface(const LabelMap& labels, std::uint8_t label, const SurfaceOptions& options = {},
                              const ProgressCallback& progress = {});

/// The surfaces of several labels (every non-empty label present when `which` is empty), named from
/// `table` (its name, else "Label N"), with one progress over all of them. Labels without voxels are
/// left out when `which` is empty and are an IoError when asked for by value.
std::vector<NamedSurface> buildLabelSurfaces(const LabelMap& labels, const LabelTable& table,
                                             const std::vector<std::uint8_t>& which = {},
                                             const SurfaceOptions& options = {}, const ProgressCallback& progress = {});

}  // namespace lucent::io
