/// @brief Seed interval: the class of the first seed's value in the volume's histogram; steps
/// that widen or narrow it geometrically around the seed.
#include "lucent/core/seg/SeedInterval.h"

#include "lucent/core/ValueHistogram.h"
#include "lucent/core/seg/HistogramClasses.h"
#include "lucent/core/seg/SeedMessages.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lucent {

RegionGrowingParams seedInterval(const Volume& volume, const std::vector<VoxelIndex>& seeds,
                                 std::pair<double, double> dataRange) {
    if (seeds.empty()) throw std::invalid_argument("no seed to estimate the interval at");
    const VoxelIndex& s = seeds.front();
    if (!volume.geometry().contains(s.i, s.j, s.k))
        throw std::invalid_argument("the first seed lies outside the volume");
    return seedIntervalFrom(volume.value(s.i, s.j, s.k), volume, dataRange);
}

RegionGrowingParams seedIntervalFrom(double seed, const Volume& volume, std::pair<double, double> dataRange) {
    RegionGrowingParams p;
    if (!(dataRange.second > dataRange.first)) {  // a flat volume: its one value
        p.lower = std::floor(seed);
        p.upper = std::ceil(seed);
        return p;
    }
    // Integer data: bins of a whole number of values, centred on them (a bin holding one value
    // beside one holding two would read as a comb and split a class).
    double lo = dataRange.first, hi = dataRange.second;
    std::size_t bins = kSeedIntervalBins;
    if (volume.pixelType() == PixelType::Int16) {
        const double values = hi - lo + 1, perBin = std::ceil(values / double(kSeedIntervalBins));
        bins = std::size_t(std::ceil(values / perBin));
        lo -= 0.5;
        hi = lo + perBin * double(bins);
    }
    const ValueHistogram h = gridSampleHistogram(volume, lo, hi, bins);
    const ValueClass c = histogramClassOf(h, fitHistogramMixture(h), seed);
    p.lower = std::floor(std::max(dataRange.first, std::min(c.lower, seed)));
    p.upper = std::ceil(std::min(dataRange.second, std::max(c.upper, seed)));
    return p;
}

RegionGrowingParams stepInterval(RegionGrowingParams p, double seedValue, int steps, std::pair<double, double> dataRange,
                                 double unit) {
    for (int n = 0; n < std::abs(steps); ++n) {
        const double grow = steps > 0 ? 1.0 : -1.0;
        const double below = std::max(unit, 0.1 * (seedValue - p.lower));
        const double above = std::max(unit, 0.1 * (p.upper - seedValue));
        p.lower = std::clamp(p.lower - grow * below, dataRange.first, seedValue);
        p.upper = std::clamp(p.upper + grow * above, seedValue, dataRange.second);
    }
    if (unit >= 1.0) {  // integer data: whole values, still around the seed
        p.lower = std::floor(p.lower);
        p.upper = std::ceil(p.upper);
    }
    return p;
}

std::string seedsOutsideInterval(const Volume& volume, const std::vector<VoxelIndex>& seeds, const RegionGrowingParams& p) {
    std::string out;
    bool anyInside = false;
    for (std::size_t n = 0; n < seeds.size(); ++n) {
        const VoxelIndex& s = seeds[n];
        if (!volume.geometry().contains(s.i, s.j, s.k)) continue;
        const double value = volume.value(s.i, s.j, s.k);
        if (value >= p.lower && value <= p.upper) {
            anyInside = true;
            continue;
        }
        out += (out.empty() ? "" : "; ") + std::string("seed ") + std::to_string(n + 1) + " (" + std::to_string(s.i) + "," +
               std::to_string(s.j) + "," + std::to_string(s.k) + ") has value " + seedValueText(value);
    }
    if (!anyInside || out.empty()) return {};
    return out + ", outside the interval [" + seedValueText(p.lower) + ", " + seedValueText(p.upper) +
           "]: it grows nothing (widen the interval to take it in)";
}

}  // namespace lucent
