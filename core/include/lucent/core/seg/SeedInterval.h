/// @brief The region growing interval estimated at the first seed: the tissue the seed was clicked
/// on, as the class of its value in the volume's histogram (HistogramClasses.h).
///
/// Why not a band around the seed (the earlier rule: the seed's tissue in its 5 x 5 x 5 cube, mean
/// +- max(2.5 SD, 2 % of the range)): on the CT head a seed on cortical bone got 817..1345 HU, 39 %
/// of the skull, and a brain seed -50..115 HU, which leaks into fat. The histogram's class answers
/// "the tissue I clicked": bone from where soft tissue ends, brain without the fat beside it.
/// Steps from there are the user's (`stepInterval`, one key each).
#pragma once

#include "lucent/core/Volume.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <string>
#include <utility>
#include <vector>

namespace lucent {

/// Bins of the histogram the classes are found in (over the data range, from a strided sample).
inline constexpr std::size_t kSeedIntervalBins = 1024;

/// The interval (lower, upper; default connectivity) for region growing from `seeds` (only the
/// first is used): the class of the first seed's value, widened to whole units (floor, ceil).
/// `dataRange` is the volume's (min, max). Throws std::invalid_argument when there is no seed or
/// the first lies outside the volume.
RegionGrowingParams seedInterval(const Volume& volume, const std::vector<VoxelIndex>& seeds,
                                 std::pair<double, double> dataRange);
/// seedInterval from what it reads of the volume: the first seed's value, and `sampled`, the volume
/// itself or a volume of just the voxels gridSampleHistogram samples (gridSampleStep: what a caller
/// whose volume is on the device downloads); the same interval either way.
RegionGrowingParams seedIntervalFrom(double seedValue, const Volume& sampled, std::pair<double, double> dataRange);

/// One step of the interval around `seedValue`: each bound moves away from the seed (`steps` > 0,
/// wider) or towards it (< 0, narrower) by a tenth of its distance from the seed per step, at least
/// `unit` (1 for integer data), never past the seed nor outside `dataRange`.
RegionGrowingParams stepInterval(RegionGrowingParams p, double seedValue, int steps, std::pair<double, double> dataRange,
                                 double unit);

/// "seed 2 (40,12,7) has value 1500, outside the interval [-25, 72]: it grows nothing" for each
/// seed outside the interval while another lies inside it (all outside is the engine's error);
/// empty when there is none. Said when it happens, not left to be found in the result.
std::string seedsOutsideInterval(const Volume& volume, const std::vector<VoxelIndex>& seeds, const RegionGrowingParams& p);

}  // namespace lucent
