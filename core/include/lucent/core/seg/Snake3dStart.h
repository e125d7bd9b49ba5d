/// @brief Where a 3D snake run starts and what it sees, shared by the CPU and CUDA engines: the start
/// (a box, corners included, and / or bubbles: balls in mm around the seeds), the domain whose
/// inside / outside means drive it (the ROI, or the start grown by a margin, the 2D snake's rule),
/// the packed level set the run begins from, and the clamp of the values it sees.
#pragma once

#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/core/seg/Snake3dWords.h"

#include <cstdint>
#include <vector>

namespace lucent {

/// Seed `index`'s bubble radius in mm (Snake3dParams::radiiMm's rule).
double snake3dRadius(const Snake3dParams& params, std::size_t index);
/// The box holding the start: the start box and every bubble, clipped to the volume.
VoxelBox snake3dStartBounds(const SegmentationRequest& request);
/// The domain: the ROI clipped to the volume; else the start's bounds grown on each side by marginMm
/// (ceil(mm / spacing) voxels along each axis) or, without it, by kSnake3dLimits.marginPercent of
/// their largest side (at least minMarginVoxels), clipped to the volume.
VoxelBox snake3dDomain(const SegmentationRequest& request);
/// The domain's shape in packed words.
Snake3dShape snake3dShape(const VoxelBox& domain);
/// std::invalid_argument naming the problem: no start, a box or seed outside the volume, radii that do
/// not match the seeds, a domain under 3 voxels along an axis, a start that misses the domain.
void validateSnake3dStart(const SegmentationRequest& request);
/// The clamp of the request's clip (Snake3dClamp): on int16 data its bounds limited to the int16 range and
/// rounded to the nearest whole value (halves away from zero), so the sums stay exact; none: no clamp.
Snake3dClamp snake3dClamp(const Snake3dParams& params);
/// The starting level set over the domain (Snake3dShape's packing): 1 in the start box and bubbles.
std::vector<std::uint64_t> snake3dStartWords(const SegmentationRequest& request, const VoxelBox& domain);

}  // namespace lucent
