/// @brief The region growing interval estimated at the first seed, from the tissue the seed lies in.
///
/// Why not mean +- 2.5 sigma of the seed's cube: a seed on cortical bone has soft tissue in its
/// 5 x 5 x 5 cube, and the two tissues' joint spread gave -151..2224 HU (the whole head). The rule
/// first keeps the cube's voxels of the seed's own tissue: those within 3 sigma_n of the seed's
/// value, where sigma_n is the voxel noise estimated robustly from the cube's face differences
/// (1.4826 median|difference| / sqrt 2: most face pairs lie inside one tissue, so an edge through
/// the cube does not inflate it, while a texture, whose neighbours always differ, keeps its
/// spread). The interval is then the kept voxels' mean +- max(2.5 SD, 2 % of the data range),
/// widened to whole units (floor, ceil): a flat region gives its value +- 2 % of the range, a
/// noisy or textured one mean +- 2.5 sigma as before, a seed beside an edge its own side only.
#pragma once

#include "lucent/core/Volume.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <utility>
#include <vector>

namespace lucent {

/// Half-size of the cube around the first seed (5 x 5 x 5).
inline constexpr int kSeedIntervalRadius = 2;

/// The interval (lower, upper; default connectivity) for region growing from `seeds` (only the
/// first is used); `dataRange` is the volume's (min, max). Throws std::invalid_argument when there
/// is no seed or the first lies outside the volume.
RegionGrowingParams seedInterval(const Volume& volume, const std::vector<VoxelIndex>& seeds,
                                 std::pair<double, double> dataRange);

}  // namespace lucent
