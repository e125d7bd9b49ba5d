/// @brief The navigation rules without a window: zoom keeps the voxel under the mouse, window/level and pan drags.
#include "lucent/render/ViewNavigation.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace lucent;
using namespace lucent::render;

namespace {

SliceViewGeometry anisotropicView() {
    Geometry g;
    g.dims = {64, 48, 20};
    g.spacing = {0.8, 0.5, 3.0};
    g.direction = Mat3::fromColumns({1, 0, 0}, {0, 1, 0}, {0, 0, 1});
    SliceViewGeometry v;
    v.setVolume(g);
    v.setOrientation(Orientation::Coronal);
    v.setViewport(400, 300);
    v.setCursor({31.5, 23.5, 10});
    return v;
}

}  // namespace

TEST(ViewNavigation, ZoomKeepsTheVoxelUnderTheMouse) {
    SliceViewGeometry v = anisotropicView();
    const double x = 123.0, y = 77.0;
    const Vec3 before = v.screenToVoxel(x, y);
    for (int steps : {3, -1, 5, -7}) {
        const double zoom = v.zoom();
        zoomAbout(v, x, y, steps);
        EXPECT_NEAR(v.zoom(), zoom * std::pow(1.15, steps), 1e-12);
        const Vec3 after = v.screenToVoxel(x, y);
        EXPECT_NEAR(after.x, before.x, 1e-9);
        EXPECT_NEAR(after.y, before.y, 1e-9);
        EXPECT_NEAR(after.z, before.z, 1e-9);
    }
    // A point elsewhere on screen does move: the zoom is about the mouse, not the centre.
    SliceViewGeometry w = anisotropicView();
    const Vec3 corner = w.screenToVoxel(10, 10);
    zoomAbout(w, x, y, 4);
    EXPECT_GT(norm(w.screenToVoxel(10, 10) - corner), 1.0);
}

TEST(ViewNavigation, ZoomStaysWithinItsLimits) {
    SliceViewGeometry v = anisotropicView();
    zoomAbout(v, 200, 150, 200);
    EXPECT_DOUBLE_EQ(v.zoom(), kMaxZoom);
    zoomAbout(v, 200, 150, -400);
    EXPECT_DOUBLE_EQ(v.zoom(), kMinZoom);
}

TEST(ViewNavigation, WindowDragWidensRightAndBrightensDown) {
    const WindowLevel brain{40, 80};
    EXPECT_DOUBLE_EQ(dragWindow(brain, 10, 0).width, 90);    // under 200 wide: one unit a pixel
    EXPECT_DOUBLE_EQ(dragWindow(brain, 0, 10).level, 30);    // down lowers the level: brighter
    EXPECT_DOUBLE_EQ(dragWindow(brain, -500, 0).width, 1);   // never below 1
    const WindowLevel bone{400, 2000};                       // 10 units a pixel for a wide window
    EXPECT_DOUBLE_EQ(dragWindow(bone, 10, -5).width, 2100);
    EXPECT_DOUBLE_EQ(dragWindow(bone, 10, -5).level, 450);
}

TEST(ViewNavigation, PanFollowsTheMouseInDevicePixels) {
    const auto p = dragPan({5, -3}, 10, 4, 2.0);
    EXPECT_DOUBLE_EQ(p[0], 25);
    EXPECT_DOUBLE_EQ(p[1], 5);
}
