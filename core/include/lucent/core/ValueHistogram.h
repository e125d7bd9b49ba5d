/// @brief A histogram of a volume's values over a chosen range, from a strided sample of its voxels.
#pragma once

#include "lucent/core/Volume.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lucent {

/// Counts of the sampled values in `counts.size()` equal bins over [lo, hi]; values outside the
/// range are left out (they have no bin), hi itself falls in the last bin.
struct ValueHistogram {
    double lo = 0, hi = 1;
    std::vector<std::uint64_t> counts;
    std::size_t sampled = 0;  ///< voxels looked at (every stride-th one)

    double binWidth() const { return counts.empty() ? 0.0 : (hi - lo) / double(counts.size()); }
    /// The bin of a value in range, or -1 outside it.
    long binOf(double value) const;
};

/// Every ceil(voxels / maxSamples)-th voxel, so that a 1 G-voxel volume costs what a 2 M-voxel one
/// does: a histogram drawn under a control needs its shape, not exact counts.
ValueHistogram sampleHistogram(const Volume& volume, double lo, double hi, std::size_t bins,
                               std::size_t maxSamples = std::size_t(1) << 21);

/// The voxels of a sub-grid (every s-th along each axis, s the same on all three, the sample at most
/// maxSamples): the same voxels whatever the axes' order in memory, so a figure drawn from it (region
/// growing's estimated interval) is the same for a volume and its transpose (a C-ordered NumPy array).
ValueHistogram gridSampleHistogram(const Volume& volume, double lo, double hi, std::size_t bins,
                                   std::size_t maxSamples = std::size_t(1) << 21);
/// The s gridSampleHistogram samples a grid of `dims` with (the smallest keeping the sample within
/// maxSamples). A volume of just those voxels, read whole (s = 1), gives the same histogram: what a
/// caller whose volume is on the device downloads instead of the volume.
int gridSampleStep(const std::array<int, 3>& dims, std::size_t maxSamples = std::size_t(1) << 21);

/// Bins of the histogram an interval control draws (region growing's interval, the brush's range).
inline constexpr std::size_t kIntervalHistogramBins = 256;
/// The histogram an interval control draws over [lo, hi] (the data's range): whole-value bins where
/// the range is narrow (an MR's 0..400), so no bin is empty for lack of values; else
/// kIntervalHistogramBins, which a 240-pixel control can show.
ValueHistogram intervalHistogram(const Volume& volume, double lo, double hi);

}  // namespace lucent
