/// @brief Each method parameter's default and the range a run accepts, declared once: the request
/// structs take their defaults from here, validateRequest, the CLI and the session file their limits.
#pragma once

#include <limits>

namespace lucent {

/// A parameter's default and its accepted range [min, max] (min itself excluded when minOpen).
template <class T>
struct Limit {
    T byDefault;
    T min, max;
    bool minOpen = false;
    constexpr bool allows(T v) const { return (minOpen ? v > min : v >= min) && v <= max; }  // NaN: false
};

/// A closed range of voxel values [lower, upper] in stored units (HU for CT), lower below upper: the
/// 3D snake's clip (Snake3dParams::clip).
struct ValueRange {
    double lower = 0, upper = 0;
    friend bool operator==(const ValueRange&, const ValueRange&) = default;
};

/// No upper limit a run checks for an integer parameter (a session file still refuses more).
inline constexpr int kNoIntLimit = 1 << 30;
inline constexpr double kNoLimit = std::numeric_limits<double>::infinity();

struct RegionGrowingLimits {
    int connectivity = 6;  ///< the default; 6 and 26 are the only values
    static constexpr bool allowsConnectivity(int c) { return c == 6 || c == 26; }
};

struct FuzzyConnectednessLimits {
    Limit<double> threshold{0.5, 0.0, 1.0};
    Limit<int> estimateRadius{2, 0, 64};
};

struct FuzzyCMeansLimits {
    Limit<int> clusters{3, 2, 255};
    Limit<double> fuzziness{2.0, 1.0, kNoLimit, true};
    Limit<double> epsilon{0.005, 0.0, kNoLimit, true};
    Limit<int> maxIterations{300, 1, 1000000};
};

struct SnakeLimits {
    Limit<int> stepMax{32, 1, kNoIntLimit};
    Limit<int> minSegment{8, 1, kNoIntLimit};
};

/// The 3D snake (morphological Chan-Vese). iterations 0: until the level set stops changing (or repeats
/// with period 2), at most convergenceCap iterations. The domain, without --roi or --margin, is the
/// start's box grown by marginPercent of its largest side (at least minMarginVoxels), the 2D
/// snake's rule in the viewer (ui's kSnakeDomainMargin).
struct Snake3dLimits {
    Limit<int> iterations{0, 0, 1000000};
    Limit<int> smoothing{1, 0, 16};
    Limit<double> radiusMm{5.0, 0.0, kNoLimit, true};
    Limit<double> marginMm{0.0, 0.0, kNoLimit};
    int marginPercent = 10;
    int minMarginVoxels = 2;
    int convergenceCap = 100000;
};

/// Grow from seeds has no numeric parameter: its seeds are a label volume, one label a voxel.
struct GrowCutLimits {
    Limit<int> label{1, 1, 255};  ///< a seed's label (0 = no seed); labels are one byte
};

inline constexpr RegionGrowingLimits kRegionGrowingLimits{};
inline constexpr FuzzyConnectednessLimits kFuzzyConnectednessLimits{};
inline constexpr FuzzyCMeansLimits kFuzzyCMeansLimits{};
inline constexpr SnakeLimits kSnakeLimits{};
inline constexpr Snake3dLimits kSnake3dLimits{};
inline constexpr GrowCutLimits kGrowCutLimits{};

/// The fuzzy connectedness threshold on an integer slider or spin box: 0..kThresholdSteps.
inline constexpr int kThresholdSteps = 1000;
/// Rounds half away from zero, as std::lround (which is not constexpr).
constexpr int thresholdToSteps(double threshold) {
    const double s = threshold * kThresholdSteps;
    return int(s < 0 ? s - 0.5 : s + 0.5);
}
constexpr double stepsToThreshold(int steps) { return steps / double(kThresholdSteps); }

}  // namespace lucent
