/// @brief The 3D view's patient planes: a plane cut by the box of voxel centres (its corners lie on
/// the plane and on the box, in order, convex; an axis-aligned grid gives the index plane's
/// rectangle) and a line clipped to the box.
#include "lucent/render/PlaneOutline.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace lucent;
using namespace lucent::render;

namespace {

/// 40 x 30 x 12 voxels of 1 x 1 x 3 mm, tilted `degrees` about x.
Geometry tilted(double degrees) {
    Geometry g;
    g.dims = {40, 30, 12};
    g.spacing = {1.0, 1.0, 3.0};
    g.origin = {-20, -15, 5};
    const double a = degrees * M_PI / 180;
    const Vec3 row{1, 0, 0}, col{0, std::cos(a), std::sin(a)};
    g.direction = Mat3::fromColumns(row, col, cross(row, col));
    return g;
}

bool onBoxSurface(const Geometry& g, Vec3 patient) {
    const Vec3 v = g.patientToVoxel(patient);
    bool onFace = false;
    for (int a = 0; a < 3; ++a) {
        if (v[a] < -1e-6 || v[a] > g.dims[a] - 1 + 1e-6) return false;
        onFace = onFace || std::abs(v[a]) < 1e-6 || std::abs(v[a] - (g.dims[a] - 1)) < 1e-6;
    }
    return onFace;
}

}  // namespace

TEST(PlaneOutline, AxisAlignedGridGivesTheIndexPlanesRectangle) {
    const Geometry g = tilted(0);
    const Vec3 at = g.voxelToPatient({10, 7, 5});
    const auto outline = planeOutline(g, at, {0, 0, 1});
    ASSERT_EQ(outline.size(), 4u);
    for (const Vec3& p : outline) {
        const Vec3 v = g.patientToVoxel(p);
        EXPECT_NEAR(v.z, 5, 1e-9);
        EXPECT_TRUE((std::abs(v.x) < 1e-9 || std::abs(v.x - 39) < 1e-9) && (std::abs(v.y) < 1e-9 || std::abs(v.y - 29) < 1e-9))
            << "a corner of slice 5: " << v.x << ", " << v.y;
    }
}

TEST(PlaneOutline, ObliqueGridCornersLieOnThePlaneAndTheBoxInConvexOrder) {
    const Geometry g = tilted(20);
    const Vec3 at = g.voxelToPatient({20, 15, 6}), normal{0, 0, 1};
    const auto outline = planeOutline(g, at, normal);
    ASSERT_GE(outline.size(), 3u);
    ASSERT_LE(outline.size(), 6u);
    for (const Vec3& p : outline) {
        EXPECT_NEAR(dot(p - at, normal), 0, 1e-9) << "in the plane";
        EXPECT_TRUE(onBoxSurface(g, p)) << "on the box";
    }
    // In order around the polygon: every turn has the same sense (convex, no crossing).
    double sense = 0;
    for (std::size_t i = 0; i < outline.size(); ++i) {
        const Vec3 a = outline[i], b = outline[(i + 1) % outline.size()], c = outline[(i + 2) % outline.size()];
        const double turn = dot(cross(b - a, c - b), normal);
        ASSERT_NE(turn, 0);
        if (sense == 0) sense = turn;
        EXPECT_GT(turn * sense, 0) << "corner " << i;
    }
    // The patient-axial plane of a tilted stack is not the acquisition plane: it crosses slices.
    double lo = 1e9, hi = -1e9;
    for (const Vec3& p : outline) {
        lo = std::min(lo, g.patientToVoxel(p).z);
        hi = std::max(hi, g.patientToVoxel(p).z);
    }
    EXPECT_GT(hi - lo, 2.0);
}

TEST(PlaneOutline, PlaneOutsideTheBoxGivesNothing) {
    const Geometry g = tilted(20);
    EXPECT_TRUE(planeOutline(g, {0, 0, 500}, {0, 0, 1}).empty());
}

TEST(PlaneOutline, LineIsClippedToTheBox) {
    const Geometry g = tilted(20);
    const Vec3 at = g.voxelToPatient({20, 15, 6});
    const auto ends = lineInBox(g, at, {0, 0, 1});
    ASSERT_TRUE(ends.has_value());
    for (const Vec3& p : *ends) {
        EXPECT_TRUE(onBoxSurface(g, p));
        EXPECT_NEAR(p.x, at.x, 1e-9);
        EXPECT_NEAR(p.y, at.y, 1e-9);
    }
    EXPECT_LT((*ends)[0].z, at.z);
    EXPECT_GT((*ends)[1].z, at.z);
    EXPECT_FALSE(lineInBox(g, {500, 0, 0}, {0, 0, 1}).has_value());
}
