/// @brief The run's panel takes the first corner that covers no seed and no part of a polygon.
#include "lucent/render/HudPlacement.h"

#include <gtest/gtest.h>

namespace lucent::render {
namespace {

const PanelRoom kRoom{800, 600, 30, 30, 6};  // a view of 800 x 600 device pixels
const std::array<float, 2> kPanel{300, 150};

ViewOverlay::Polyline rectangle(float x0, float y0, float x1, float y1) {
    ViewOverlay::Polyline line;
    line.points = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    return line;
}

TEST(HudPlacement, TopLeftWhenNothingIsThere) {
    ViewOverlay overlay;
    overlay.lines.push_back(rectangle(350, 200, 450, 400));  // the middle of the view
    const auto at = placePanel(kPanel, kRoom, overlay);
    EXPECT_FLOAT_EQ(at[0], 6);
    EXPECT_FLOAT_EQ(at[1], 30);
}

TEST(HudPlacement, ASideCrossingTheCornerMovesThePanelThoughNoPointLiesThere) {
    ViewOverlay top;
    top.lines.push_back(rectangle(-50, 80, 850, 170));  // a band across the top, its corners off the view
    const auto at = placePanel(kPanel, kRoom, top);
    EXPECT_FLOAT_EQ(at[0], 6);
    EXPECT_FLOAT_EQ(at[1], 600 - 30 - 150) << "bottom-left: both top corners are crossed";
}

TEST(HudPlacement, ASeedInTheTopLeftCornerSendsThePanelTopRight) {
    ViewOverlay overlay;
    ViewOverlay::Marker seed;
    seed.at = {100, 100};
    overlay.markers.push_back(seed);
    const auto at = placePanel(kPanel, kRoom, overlay);
    EXPECT_FLOAT_EQ(at[0], 800 - 6 - 300);
    EXPECT_FLOAT_EQ(at[1], 30);
}

TEST(HudPlacement, ASmallViewWithABoxInItsMiddleGetsThePanelWithoutItsPlot) {
    const PanelRoom room{466, 400, 20, 20, 6};  // one view of a 2x2 layout beside the Segment panel
    ViewOverlay overlay;
    overlay.lines.push_back(rectangle(150, 210, 290, 300));
    const PanelPlace whole = placePanel({260, 200}, {260, 150}, room, overlay);
    EXPECT_TRUE(whole.compact) << "every corner of the whole panel reaches the box";
    EXPECT_FLOAT_EQ(whole.at[0], 6);
    EXPECT_FLOAT_EQ(whole.at[1], 20);
    const PanelPlace roomy = placePanel({260, 200}, {260, 150}, PanelRoom{900, 700, 20, 20, 6}, overlay);
    EXPECT_FALSE(roomy.compact) << "a large view keeps the plot";
    EXPECT_FLOAT_EQ(roomy.at[0], 900 - 6 - 260);
}

TEST(HudPlacement, TheRunsDomainIsKeptClearThoughNothingIsDrawnThere) {
    ViewOverlay overlay;
    overlay.keepClear.push_back({20, 40, 420, 300});  // the snake's domain, top-left
    const auto at = placePanel(kPanel, kRoom, overlay);
    EXPECT_FLOAT_EQ(at[0], 800 - 6 - 300) << "top right";
    EXPECT_FLOAT_EQ(at[1], 30);
}

}  // namespace
}  // namespace lucent::render
