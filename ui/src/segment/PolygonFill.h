/// @brief A snake polygon's inside on its slice, rasterised by the engines' rule (SnakeSlices.h): what
/// the scrubber shows of a step and what the HUD counts before the snake writes its labels.
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <array>
#include <cstdint>
#include <vector>

namespace lucent::ui {

/// One byte a pixel of an axial slice: 1 inside the polygon (pixel coordinates, rounded), 0 outside;
/// all 0 for fewer than 3 points.
std::vector<std::uint8_t> polygonFill(const std::vector<std::array<double, 2>>& points, const Geometry& grid);
/// Clears what the request would not label on slice k: outside its ROI, or where its mask is 0.
void clipToRequest(std::vector<std::uint8_t>& slice, int k, const SegmentationRequest& request, const Geometry& grid);

}  // namespace lucent::ui
