/// @brief How precisely a volume's values are shown and typed (an interval's bounds, a seed's
/// value): whole stored units for integer voxels, decimals for float voxels; written once.
#pragma once

#include "lucent/core/Volume.h"

#include <utility>

namespace lucent {

/// Decimals that show a value of data of `type` whose magnitude reaches `largest`: none for int16
/// voxels; for float32, four significant digits of the largest magnitude, at least 2, at most 6
/// (an MR rescaled by 0.25 shows 116.75, memberships in 0..1 show 0.1234).
int valueDecimals(PixelType type, double largest);
/// valueDecimals for the values of `volume` whose range is [lowest, highest].
int valueDecimals(const Volume& volume, double lowest, double highest);

/// [lower, upper] at the precision shown with `decimals` for data of `type`: integer data to the
/// nearest whole value (every bound between two integers holds the same voxels); float data to the
/// nearest decimal, stepped outward where that would leave out a value the bound held, and then
/// to the float32 nearest that decimal, the value a voxel shown so holds (116.7 is 116.69999695 in
/// float32: a voxel shown 116.7 stays inside a lower bound typed as 116.7).
std::pair<double, double> shownInterval(double lower, double upper, PixelType type, int decimals);

}  // namespace lucent
