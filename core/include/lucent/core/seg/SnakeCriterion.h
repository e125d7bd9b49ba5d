/// @brief The region snake's sums and its GL criterion, shared by the CPU and CUDA engines so that
/// both take every decision on the same bits.
#pragma once

#include "lucent/core/seg/HostDevice.h"
#include "lucent/core/seg/PortableMath.h"

namespace lucent {

/// Pixel count, sum and sum of squares of a region. Int16 slices use T = long long: every sum is
/// then exact (|z^2| <= 2^30, a slice of 2^31 pixels stays below 2^61), so any order of summation,
/// on any backend, gives the same value. Float slices use T = double.
template <class T>
struct BasicRegionSums {
    T n{}, sz{}, sz2{};
    LUCENT_HD BasicRegionSums& operator+=(const BasicRegionSums& o) {
        n += o.n;
        sz += o.sz;
        sz2 += o.sz2;
        return *this;
    }
    LUCENT_HD BasicRegionSums& operator-=(const BasicRegionSums& o) {
        n -= o.n;
        sz -= o.sz;
        sz2 -= o.sz2;
        return *this;
    }
    LUCENT_HD friend BasicRegionSums operator+(BasicRegionSums a, const BasicRegionSums& b) { return a += b; }
    LUCENT_HD friend BasicRegionSums operator-(BasicRegionSums a, const BasicRegionSums& b) { return a -= b; }
};

using RegionSums = BasicRegionSums<double>;
using ExactSums = BasicRegionSums<long long>;

/// Conversion to double rounds to nearest on host and device alike.
template <class T>
LUCENT_HD inline RegionSums toDouble(const BasicRegionSums<T>& s) {
    return {static_cast<double>(s.n), static_cast<double>(s.sz), static_cast<double>(s.sz2)};
}

/// Variance of a region, floored so that log stays finite on flat regions (noise-free images).
/// Every product that meets a sum is an explicit fma: nvcc would otherwise fuse some and round once
/// where the host rounds twice.
LUCENT_HD inline double snakeVariance(const RegionSums& r) {
    const double mean = r.sz / r.n;
    const double v = fma(-mean, mean, r.sz2 / r.n);
    const double floor = 1e-12 * fma(mean, mean, 1.0);
    return v > floor ? v : floor;
}

/// GL = 1/2 (N_B log var_B + N_T log var_T) (paper 003), +inf when either region is empty.
/// log var of a region (its half of GL; NaN for an empty region, which glOfLogs rules out).
LUCENT_HD inline double logVariance(const RegionSums& r) { return portableLog(snakeVariance(r)); }

/// GL from the regions' pixel counts and log variances: glOfRegions in two halves, so that a
/// device can compute the two logs on two threads and still get glOfRegions' bits.
LUCENT_HD inline double glOfLogs(double backgroundN, double logBackground, double targetN, double logTarget) {
    if (targetN < 1 || backgroundN < 1) return HUGE_VAL;
    return 0.5 * fma(backgroundN, logBackground, targetN * logTarget);
}

LUCENT_HD inline double glOfRegions(const RegionSums& background, const RegionSums& target) {
    if (target.n < 1 || background.n < 1) return HUGE_VAL;
    return glOfLogs(background.n, logVariance(background), target.n, logVariance(target));
}

/// GL of `target` inside a slice whose sums are `image` (the background is the rest, exactly).
template <class T>
LUCENT_HD inline double snakeGl(const BasicRegionSums<T>& image, const BasicRegionSums<T>& target) {
    return glOfRegions(toDouble(image - target), toDouble(target));
}

}  // namespace lucent
