/// @brief Per-label figures of a label map over its volume: voxels, millilitres, mean and standard
/// deviation of the voxel values, in one pass; and the same figures as CSV text.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelTable.h"
#include "lucent/core/Volume.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lucent {

/// The figures of one label value, over the voxels that hold a measurement: slices a loader filled
/// in for missing positions (VolumeMetadata::filledSlices) are left out of every figure.
struct LabelStatistics {
    std::uint8_t value = 0;
    std::size_t voxels = 0;
    double millilitres = 0;  ///< voxels times the voxel volume of the grid's spacing
    double mean = 0;         ///< of the volume's stored values (HU for CT); 0 when voxels is 0
    double stddev = 0;       ///< population standard deviation (divides by the voxel count)
    double min = 0, max = 0;
    std::size_t filledVoxels = 0;  ///< the label's voxels in filled slices (in no figure above)
};

/// The figures of every non-zero value present in `labels`, sorted by value, in one pass over the
/// voxels on `threads` threads (0: all). The figures do not depend on the thread count: int16 sums
/// are exact integers, float32 sums are shifted (no loss at offsets such as -1000 HU) and merged
/// over a partition fixed by the grid, in its order. Throws std::invalid_argument when the two
/// grids differ in size.
std::vector<LabelStatistics> computeLabelStatistics(const Volume& volume, const LabelMap& labels,
                                                    unsigned threads = 0);

/// The number of voxels of `labels` carrying each value, in one pass on `threads` threads (0: all).
std::array<std::size_t, 256> countLabels(const LabelMap& labels, unsigned threads = 0);

/// CSV with a header row: value,name,voxels,ml,mean,sd,min,max; names from `table` (quoted when
/// they hold commas, quotes or line breaks); numbers in the C locale with full precision; mean to max
/// empty for a label with no measured voxel.
std::string labelStatisticsCsv(const std::vector<LabelStatistics>& statistics, const LabelTable& table);

}  // namespace lucent
