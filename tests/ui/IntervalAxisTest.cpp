/// @brief The interval control's geometry without a display: pixels to values, which part a press
/// takes, coarse and fine (Shift) drags, handles that stop at each other.
#include "lucent/ui/IntervalAxis.h"

#include <gtest/gtest.h>

using lucent::ui::IntervalAxis;
using Part = IntervalAxis::Part;

namespace {
// -1000..3000 HU over 200 pixels: 20 HU a pixel.
const IntervalAxis kAxis(-1000, 3000, 200);
const IntervalAxis::Interval kSoftTissue{0, 100};  // pixels 50..55
}  // namespace

TEST(IntervalAxis, MapsPixelsToValuesAndBack) {
    EXPECT_DOUBLE_EQ(kAxis.valuePerPixel(), 20.0);
    EXPECT_DOUBLE_EQ(kAxis.valueAt(50), 0.0);
    EXPECT_DOUBLE_EQ(kAxis.xOf(100), 55.0);
    EXPECT_DOUBLE_EQ(kAxis.xOf(-5000), 0.0) << "off the axis sits at its end";
    EXPECT_DOUBLE_EQ(kAxis.xOf(9000), 200.0);
}

TEST(IntervalAxis, APressTakesTheNearerHandleTheBandOrTheSideItIsOn) {
    EXPECT_EQ(kAxis.partAt(49, kSoftTissue), Part::Lower);
    EXPECT_EQ(kAxis.partAt(56, kSoftTissue), Part::Upper);
    const IntervalAxis::Interval wide{0, 1000};  // pixels 50..100
    EXPECT_EQ(kAxis.partAt(75, wide), Part::Band);
    EXPECT_EQ(kAxis.partAt(10, wide), Part::Lower);
    EXPECT_EQ(kAxis.partAt(150, wide), Part::Upper);
    EXPECT_EQ(kAxis.press(10, wide), (IntervalAxis::Interval{-800, 1000})) << "the lower handle jumps to the press";
    EXPECT_EQ(kAxis.press(150, wide), (IntervalAxis::Interval{0, 2000}));
    EXPECT_EQ(kAxis.press(52, wide), wide) << "a press on a handle moves nothing yet";
}

TEST(IntervalAxis, AFineDragMovesATenthOfACoarseOne) {
    EXPECT_EQ(kAxis.drag(Part::Lower, 3, false, kSoftTissue), (IntervalAxis::Interval{60, 100}));
    const auto fine = kAxis.drag(Part::Lower, 3, true, kSoftTissue);
    EXPECT_DOUBLE_EQ(fine.first, 6.0) << "2 HU a pixel with Shift";
    EXPECT_DOUBLE_EQ(fine.second, 100.0);
    EXPECT_EQ(kAxis.drag(Part::Band, -2, false, kSoftTissue), (IntervalAxis::Interval{-40, 60})) << "the band keeps its width";
}

TEST(IntervalAxis, AHandleStopsAtTheOther) {
    EXPECT_EQ(kAxis.drag(Part::Lower, 50, false, kSoftTissue), (IntervalAxis::Interval{100, 100}));
    EXPECT_EQ(kAxis.drag(Part::Upper, -50, false, kSoftTissue), (IntervalAxis::Interval{0, 0}));
}
