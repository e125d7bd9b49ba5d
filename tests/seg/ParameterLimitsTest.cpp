/// @brief validateRequest against ParameterLimits.h: each limited parameter is accepted at its
/// default and at its limits and refused just outside them; the threshold's slider scale.
#include "lucent/core/seg/ParameterLimits.h"
#include "lucent/core/seg/Segmenter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace lucent;

namespace {

/// One parameter: its method, its limit (as doubles) and how to set it in a request.
struct Parameter {
    std::string name;
    Method method;
    double byDefault, min, max;
    bool minOpen, integral;
    std::function<void(SegmentationRequest&, double)> set;
};

template <class T, class Set>
Parameter parameter(std::string name, Method method, const Limit<T>& l, Set set) {
    return {
        std::move(name), method,    double(l.byDefault),   double(l.min),
        double(l.max),   l.minOpen, std::is_integral_v<T>, [set](SegmentationRequest& r, double v) { set(r, T(v)); }};
}

std::vector<Parameter> parameters() {
    const auto& fc = kFuzzyConnectednessLimits;
    const auto& fcm = kFuzzyCMeansLimits;
    return {
        parameter("threshold", Method::FuzzyConnectedness, fc.threshold,
                  [](SegmentationRequest& r, double v) { r.fuzzyConnectedness.threshold = v; }),
        parameter("estimateRadius", Method::FuzzyConnectedness, fc.estimateRadius,
                  [](SegmentationRequest& r, int v) { r.fuzzyConnectedness.estimateRadius = v; }),
        parameter("clusters", Method::FuzzyCMeans, fcm.clusters,
                  [](SegmentationRequest& r, int v) { r.fuzzyCMeans.clusters = v; }),
        parameter("fuzziness", Method::FuzzyCMeans, fcm.fuzziness,
                  [](SegmentationRequest& r, double v) { r.fuzzyCMeans.fuzziness = v; }),
        parameter("epsilon", Method::FuzzyCMeans, fcm.epsilon,
                  [](SegmentationRequest& r, double v) { r.fuzzyCMeans.epsilon = v; }),
        parameter("maxIterations", Method::FuzzyCMeans, fcm.maxIterations,
                  [](SegmentationRequest& r, int v) { r.fuzzyCMeans.maxIterations = v; }),
        parameter("stepMax", Method::Snake, kSnakeLimits.stepMax,
                  [](SegmentationRequest& r, int v) { r.snake.stepMax = v; }),
        parameter("minSegment", Method::Snake, kSnakeLimits.minSegment,
                  [](SegmentationRequest& r, int v) { r.snake.minSegment = v; }),
        parameter("snake3d iterations", Method::Snake3d, kSnake3dLimits.iterations,
                  [](SegmentationRequest& r, int v) { r.snake3d.iterations = v; }),
        parameter("snake3d smoothing", Method::Snake3d, kSnake3dLimits.smoothing,
                  [](SegmentationRequest& r, int v) { r.snake3d.smoothing = v; }),
        parameter("snake3d radius", Method::Snake3d, kSnake3dLimits.radiusMm,
                  [](SegmentationRequest& r, double v) { r.snake3d.radiiMm = {v}; }),
        parameter("snake3d margin", Method::Snake3d, kSnake3dLimits.marginMm,
                  [](SegmentationRequest& r, double v) { r.snake3d.marginMm = v; }),
    };
}

class ParameterLimits : public ::testing::Test {
protected:
    ParameterLimits() {
        Geometry g;
        g.dims = {8, 8, 4};
        m_volume = Volume(g, PixelType::Int16);
    }

    /// A request every method runs, but for `p` set to `value`.
    bool accepted(const Parameter& p, double value) const {
        SegmentationRequest r;
        r.volume = &m_volume;
        r.seeds = {{4, 4, 2}};
        r.snake.slice = 2;
        r.snake.rect = {1, 1, 6, 6};
        p.set(r, value);
        try {
            validateRequest(p.method, r);
            return true;
        } catch (const std::invalid_argument&) {
            return false;
        }
    }

    Volume m_volume;
};

}  // namespace

TEST_F(ParameterLimits, DefaultsAndLimitsAreAcceptedJustOutsideIsRefused) {
    for (const Parameter& p : parameters()) {
        SCOPED_TRACE(p.name);
        const double below = p.integral ? p.min - 1 : std::nextafter(p.min, -INFINITY);
        EXPECT_TRUE(accepted(p, p.byDefault));
        EXPECT_EQ(accepted(p, p.min), !p.minOpen);
        EXPECT_FALSE(accepted(p, below));
        if (std::isinf(p.max)) {
            EXPECT_TRUE(accepted(p, 1e300));
            continue;
        }
        const double above = p.integral ? p.max + 1 : std::nextafter(p.max, INFINITY);
        EXPECT_TRUE(accepted(p, p.max));
        EXPECT_FALSE(accepted(p, above));
    }
}

TEST_F(ParameterLimits, RequestDefaultsAreTheDeclaredOnes) {
    const SegmentationRequest r;
    EXPECT_EQ(r.fuzzyConnectedness.threshold, kFuzzyConnectednessLimits.threshold.byDefault);
    EXPECT_EQ(r.fuzzyConnectedness.estimateRadius, kFuzzyConnectednessLimits.estimateRadius.byDefault);
    EXPECT_EQ(r.fuzzyCMeans.clusters, kFuzzyCMeansLimits.clusters.byDefault);
    EXPECT_EQ(r.fuzzyCMeans.fuzziness, kFuzzyCMeansLimits.fuzziness.byDefault);
    EXPECT_EQ(r.fuzzyCMeans.epsilon, kFuzzyCMeansLimits.epsilon.byDefault);
    EXPECT_EQ(r.fuzzyCMeans.maxIterations, kFuzzyCMeansLimits.maxIterations.byDefault);
    EXPECT_EQ(r.snake.stepMax, kSnakeLimits.stepMax.byDefault);
    EXPECT_EQ(r.snake.minSegment, kSnakeLimits.minSegment.byDefault);
    EXPECT_EQ(r.snake3d.iterations, kSnake3dLimits.iterations.byDefault);
    EXPECT_EQ(r.snake3d.smoothing, kSnake3dLimits.smoothing.byDefault);
    EXPECT_TRUE(r.snake3d.radiiMm.empty());  // every seed: kSnake3dLimits.radiusMm.byDefault
    EXPECT_FALSE(r.snake3d.marginMm.has_value());
    EXPECT_EQ(r.regionGrowing.connectivity, kRegionGrowingLimits.connectivity);
}

TEST_F(ParameterLimits, ConnectivityIsSixOrTwentySix) {
    for (int c = 0; c <= 30; ++c) EXPECT_EQ(RegionGrowingLimits::allowsConnectivity(c), c == 6 || c == 26) << c;
}

TEST(ThresholdSteps, EveryStepRoundTripsAndTheEndsAreTheLimits) {
    EXPECT_EQ(thresholdToSteps(kFuzzyConnectednessLimits.threshold.min), 0);
    EXPECT_EQ(thresholdToSteps(kFuzzyConnectednessLimits.threshold.max), kThresholdSteps);
    for (int s = 0; s <= kThresholdSteps; ++s) {
        ASSERT_EQ(thresholdToSteps(stepsToThreshold(s)), s);
        ASSERT_DOUBLE_EQ(stepsToThreshold(s) * kThresholdSteps, s);
    }
    // Nearest step, halves away from zero (as std::lround).
    for (double t : {0.0004, 0.0005, 0.0015, 0.4996, 0.62, 0.9994, 0.9995})
        EXPECT_EQ(thresholdToSteps(t), std::lround(t * kThresholdSteps)) << t;
}
