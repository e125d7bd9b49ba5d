/// @brief Reslicing maths: axis choice by direction cosines, screen <-> voxel <-> patient on an oblique
/// grid, aspect from the spacing, zoom about a point, and the edge letters.
#include "lucent/render/SliceViewGeometry.h"
#include "lucent/render/WindowLevel.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace lucent;
using namespace lucent::render;

namespace {

/// 64 x 48 x 20 voxels of 0.8 x 0.8 x 3 mm, tilted 20 degrees about x (an oblique axial series).
Geometry obliqueAxial(double degrees = 20) {
    Geometry g;
    g.dims = {64, 48, 20};
    g.spacing = {0.8, 0.8, 3.0};
    g.origin = {-30, -20, 10};
    const double a = degrees * M_PI / 180;
    const Vec3 row{1, 0, 0}, col{0, std::cos(a), std::sin(a)};
    g.direction = Mat3::fromColumns(row, col, cross(row, col));
    return g;
}

SliceViewGeometry view(const Geometry& g, Orientation o, int w = 400, int h = 300) {
    SliceViewGeometry v;
    v.setVolume(g);
    v.setOrientation(o);
    v.setViewport(w, h);
    v.setCursor({31.5, 23.5, 10});
    return v;
}

}  // namespace

TEST(SliceViewGeometry, ObliqueSeriesIsShownInItsOwnPlanes) {
    const Geometry g = obliqueAxial();
    EXPECT_EQ(view(g, Orientation::Axial).normalAxis(), 2);
    EXPECT_EQ(view(g, Orientation::Axial).rightAxis(), 0);
    EXPECT_EQ(view(g, Orientation::Coronal).normalAxis(), 1);
    EXPECT_EQ(view(g, Orientation::Sagittal).normalAxis(), 0);
    EXPECT_EQ(view(g, Orientation::Sagittal).rightAxis(), 1);
}

TEST(SliceViewGeometry, ScreenVoxelPatientRoundTrip) {
    const Geometry g = obliqueAxial();
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) {
        SliceViewGeometry v = view(g, o);
        v.setZoom(1.7);
        v.setPan(13, -7);
        for (auto [x, y] : {std::pair{10.5, 20.5}, std::pair{200.0, 150.0}, std::pair{399.5, 299.5}}) {
            const Vec3 voxel = v.screenToVoxel(x, y);
            const auto back = v.voxelToScreen(voxel);
            EXPECT_NEAR(back[0], x, 1e-9);
            EXPECT_NEAR(back[1], y, 1e-9);
            EXPECT_EQ(voxel[v.normalAxis()], v.slice());
            const Vec3 p = v.screenToPatient(x, y);
            const Vec3 q = g.voxelToPatient(voxel);
            EXPECT_NEAR(norm(p - q), 0.0, 1e-9);
        }
    }
}

TEST(SliceViewGeometry, AspectFollowsSpacing) {
    // Coronal of the oblique series: 0.8 mm across, 3 mm between slices vertically.
    const SliceViewGeometry v = view(obliqueAxial(), Orientation::Coronal);
    const double k = v.pixelsPerMm();
    const auto a = v.voxelToScreen({10, 5, 4}), b = v.voxelToScreen({11, 5, 4}), c = v.voxelToScreen({10, 5, 5});
    EXPECT_NEAR(std::abs(b[0] - a[0]), 0.8 * k, 1e-9);
    EXPECT_NEAR(std::abs(c[1] - a[1]), 3.0 * k, 1e-9);
    // Fit: the taller extent (20 slices x 3 mm = 60 mm) or the width (64 x 0.8 = 51.2 mm) fills the viewport.
    EXPECT_NEAR(k, std::min(400 / 51.2, 300 / 60.0), 1e-9);
}

TEST(SliceViewGeometry, RadiologicalConventionAndLetters) {
    const SliceViewGeometry axial = view(obliqueAxial(0), Orientation::Axial);
    // Patient left (+x) to the screen right, posterior (+y) down.
    const auto a = axial.voxelToScreen({10, 10, 5}), b = axial.voxelToScreen({11, 11, 5});
    EXPECT_GT(b[0], a[0]);
    EXPECT_GT(b[1], a[1]);
    EXPECT_EQ(axial.edgeLetter(0), "L");
    EXPECT_EQ(axial.edgeLetter(1), "R");
    EXPECT_EQ(axial.edgeLetter(2), "A");
    EXPECT_EQ(axial.edgeLetter(3), "P");
    const SliceViewGeometry coronal = view(obliqueAxial(0), Orientation::Coronal);
    EXPECT_EQ(coronal.edgeLetter(2), "S");
    EXPECT_EQ(coronal.edgeLetter(3), "I");
    const SliceViewGeometry sagittal = view(obliqueAxial(0), Orientation::Sagittal);
    EXPECT_EQ(sagittal.edgeLetter(0), "P");
    EXPECT_EQ(sagittal.edgeLetter(1), "A");
    // Tilted 30 degrees: the column axis points posterior and superior, so the bottom edge says "PS".
    const SliceViewGeometry tilted = view(obliqueAxial(30), Orientation::Axial);
    EXPECT_EQ(tilted.edgeLetter(3), "PS");
    EXPECT_EQ(tilted.edgeLetter(2), "AI");
}

TEST(SliceViewGeometry, ReversedAxesAreFlippedBack) {
    // Rows running right-to-left in the patient (-x) and slices stored feet-last: still L on the right.
    Geometry g = obliqueAxial(0);
    g.direction = Mat3::fromColumns({-1, 0, 0}, {0, 1, 0}, {0, 0, -1});
    const SliceViewGeometry v = view(g, Orientation::Axial);
    const auto a = v.voxelToScreen({10, 10, 5}), b = v.voxelToScreen({11, 10, 5});
    EXPECT_LT(b[0], a[0]);  // voxel i grows towards patient right, i.e. the screen left
    EXPECT_EQ(v.edgeLetter(0), "L");
}

TEST(SliceViewGeometry, ShaderMappingMatchesScreenToVoxel) {
    SliceViewGeometry v = view(obliqueAxial(), Orientation::Sagittal);
    v.setZoom(2.5);
    Vec3 o, dx, dy;
    v.shaderMapping(o, dx, dy);
    const Vec3 direct = v.screenToVoxel(123.5, 77.5);
    const Vec3 viaShader = o + dx * 123.5 + dy * 77.5;
    EXPECT_NEAR(norm(direct - viaShader), 0.0, 1e-9);
}

TEST(WindowLevel, PresetsAndAutoWindow) {
    Geometry g;
    g.dims = {100, 100, 1};
    Volume v(g, PixelType::Int16);
    for (std::size_t i = 0; i < v.voxelCount(); ++i) v.setValue(i, i < 2000 ? -1000 : double(i % 1000));
    EXPECT_EQ(presetWindow("lung", v)->level, -600);
    EXPECT_EQ(presetWindow("bone", v)->width, 2000);
    EXPECT_FALSE(presetWindow("nonsense", v).has_value());
    const WindowLevel a = autoWindow(v);  // the padding value (-1000) is left out
    EXPECT_NEAR(a.level, 499.5, 15);
    EXPECT_NEAR(a.width, 980, 25);
}
