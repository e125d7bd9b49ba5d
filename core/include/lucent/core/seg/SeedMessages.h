/// @brief What the region-growing engines say when no seed can start a run: one wording for the
/// CPU and the CUDA engine, values as a reader writes them (-60, 23.5), not with six decimals.
#pragma once

#include "lucent/core/seg/SegmentationRequest.h"

#include <cstdio>
#include <string>

namespace lucent {

/// A voxel value in at most 6 significant digits ("23", "-1024", "0.25").
inline std::string seedValueText(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

/// "seed 128,80,68 has value 23": why a seed was left out.
inline std::string rejectedSeed(const VoxelIndex& seed, double value) {
    return "seed " + std::to_string(seed.i) + "," + std::to_string(seed.j) + "," + std::to_string(seed.k) + " has value " +
           seedValueText(value);
}

/// "no seed lies within [-60, 10] inside the ROI/mask (seed ... has value 23)".
inline std::string noSeedWithin(const RegionGrowingParams& p, const std::string& rejected) {
    return "no seed lies within [" + seedValueText(p.lower) + ", " + seedValueText(p.upper) + "] inside the ROI/mask (" +
           rejected + ")";
}

}  // namespace lucent
