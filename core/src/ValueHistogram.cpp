/// @brief sampleHistogram: strided counts of a volume's values in equal bins.
#include "lucent/core/ValueHistogram.h"

#include <algorithm>
#include <cmath>

namespace lucent {

long ValueHistogram::binOf(double value) const {
    if (counts.empty() || !(value >= lo && value <= hi) || hi <= lo) return -1;
    const auto bin = static_cast<long>(std::floor((value - lo) / binWidth()));
    return std::min(bin, static_cast<long>(counts.size()) - 1);
}

ValueHistogram sampleHistogram(const Volume& volume, double lo, double hi, std::size_t bins, std::size_t maxSamples) {
    ValueHistogram histogram{lo, hi, std::vector<std::uint64_t>(std::max<std::size_t>(1, bins), 0), 0};
    const std::size_t n = volume.voxelCount();
    if (n == 0) return histogram;
    const std::size_t stride = (n + std::max<std::size_t>(1, maxSamples) - 1) / std::max<std::size_t>(1, maxSamples);
    for (std::size_t i = 0; i < n; i += stride) {
        ++histogram.sampled;
        const long bin = histogram.binOf(volume.value(i));
        if (bin >= 0) ++histogram.counts[std::size_t(bin)];
    }
    return histogram;
}

ValueHistogram intervalHistogram(const Volume& volume, double lo, double hi) {
    const std::size_t bins = std::clamp<std::size_t>(std::size_t(hi - lo + 1), 1, kIntervalHistogramBins);
    return sampleHistogram(volume, lo, hi, bins);
}

int gridSampleStep(const std::array<int, 3>& d, std::size_t maxSamples) {
    int step = 1;
    const auto sampled = [&](int s) {
        return std::size_t((d[0] + s - 1) / s) * std::size_t((d[1] + s - 1) / s) * std::size_t((d[2] + s - 1) / s);
    };
    while (sampled(step) > std::max<std::size_t>(1, maxSamples)) ++step;
    return step;
}

ValueHistogram gridSampleHistogram(const Volume& volume, double lo, double hi, std::size_t bins, std::size_t maxSamples) {
    ValueHistogram histogram{lo, hi, std::vector<std::uint64_t>(std::max<std::size_t>(1, bins), 0), 0};
    const auto& d = volume.geometry().dims;
    const int step = gridSampleStep(d, maxSamples);
    for (int k = 0; k < d[2]; k += step)
        for (int j = 0; j < d[1]; j += step)
            for (int i = 0; i < d[0]; i += step) {
                ++histogram.sampled;
                const long bin = histogram.binOf(volume.value(i, j, k));
                if (bin >= 0) ++histogram.counts[std::size_t(bin)];
            }
    return histogram;
}

}  // namespace lucent
