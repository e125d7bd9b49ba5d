/// @brief Smoothed surfaces of a label map (discrete flying edges + windowed sinc) in patient mm,
/// built off the GUI thread; the scene draws them, the VTK data stays behind this handle.
#pragma once

#include "lucent/core/LabelMap.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace lucent::render {

/// Built surfaces, ready for Scene3D::setSurfaces (opaque: VTK inside).
struct LabelSurfaces;

/// Figures of built surfaces (tests, status text).
struct SurfaceFigures {
    std::size_t points = 0, triangles = 0;
    std::vector<std::uint8_t> labels;  ///< the label values that have a surface
    double bounds[6] = {0, 0, 0, 0, 0, 0};  ///< xmin, xmax, ymin, ymax, zmin, zmax in patient mm
};

/// Builds one surface per label present in `labels` (patient mm, smoothed). Slow on large maps:
/// call it off the GUI thread. Returns null when `cancel` became true (a newer map replaced it) or
/// when no voxel is labelled.
std::shared_ptr<const LabelSurfaces> buildLabelSurfaces(const LabelMap& labels, const std::atomic<bool>* cancel = nullptr);
SurfaceFigures surfaceFigures(const LabelSurfaces& surfaces);

/// As buildLabelSurfaces, with at most `maxTriangles` triangles (0: no limit): while the surfaces
/// have more, the map is reduced by 2 along every axis (reduceLabels' majority cells) and built
/// again. Drawing new surfaces costs the GUI thread in proportion to their triangles: a live
/// preview keeps that within a frame whatever shape the labels take (noise makes many islands).
std::shared_ptr<const LabelSurfaces> buildLabelSurfacesWithin(const LabelMap& labels, std::size_t maxTriangles,
                                                              const std::atomic<bool>* cancel = nullptr);

}  // namespace lucent::render
