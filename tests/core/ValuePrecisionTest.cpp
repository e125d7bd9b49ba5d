/// @brief The decimals a volume's values are shown with and the interval's rounding to them.
#include "lucent/core/ValuePrecision.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace lucent;

TEST(ValuePrecision, IntegerDataHasNoDecimalsAndFloatDataFourSignificantDigits) {
    EXPECT_EQ(valueDecimals(PixelType::Int16, 3071), 0);
    EXPECT_EQ(valueDecimals(PixelType::Float32, 1059.0), 2);  // at least 2
    EXPECT_EQ(valueDecimals(PixelType::Float32, 116.75), 2);
    EXPECT_EQ(valueDecimals(PixelType::Float32, 1.0), 3);
    EXPECT_EQ(valueDecimals(PixelType::Float32, 0.8), 4);
    EXPECT_EQ(valueDecimals(PixelType::Float32, -0.5), 4);
    EXPECT_EQ(valueDecimals(PixelType::Float32, 1e6), 2);
}

TEST(ValuePrecision, AFloatVoxelsOwnValueAsBothBoundsStaysInside) {
    // The first seed's interval and the demo's start from a voxel's value: it must stay inside.
    for (const float v : {116.75f, 116.7f, 0.1f, 3.3f, -12.35f, 1059.99f, 0.123456f}) {
        const int decimals = valueDecimals(PixelType::Float32, double(v));
        const auto [lo, hi] = shownInterval(double(v), double(v), PixelType::Float32, decimals);
        EXPECT_LE(lo, double(v)) << v;
        EXPECT_GE(hi, double(v)) << v;
        EXPECT_LE(hi - lo, 2.0001 * std::pow(10.0, -decimals)) << v << ": at most a step outward each side";
    }
    EXPECT_EQ(shownInterval(116.75, 300.0, PixelType::Float32, 2), std::make_pair(116.75, 300.0));
}

TEST(ValuePrecision, ATypedDecimalHoldsTheFloatVoxelsShownWithIt) {
    // 116.7 typed: the voxel of float32 116.7 (116.69999695) is shown as 116.70 and must be inside.
    const auto [lo, hi] = shownInterval(116.7, 120.1, PixelType::Float32, 2);
    EXPECT_LE(lo, double(116.7f));
    EXPECT_GE(hi, double(120.1f));
    EXPECT_DOUBLE_EQ(lo, double(116.7f)) << "not stepped down to 116.69";
    // Between the decimals: outward.
    const auto [a, b] = shownInterval(116.749, 116.7501, PixelType::Float32, 2);
    EXPECT_DOUBLE_EQ(a, double(116.74f));
    EXPECT_DOUBLE_EQ(b, double(116.76f));
}

TEST(ValuePrecision, IntegerBoundsGoToTheNearestWholeValue) {
    EXPECT_EQ(shownInterval(977.6, 1022.4, PixelType::Int16, 0), std::make_pair(978.0, 1022.0));
}
