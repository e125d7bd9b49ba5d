/// @brief SliceViewGeometry in Patient mode: exact patient screen axes on an oblique grid, round trips,
/// pure letters, slice stepping along the normal, and the same mapping as Volume mode on a grid whose
/// axes are the patient's.
#include "lucent/render/SliceViewGeometry.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace lucent;
using namespace lucent::render;

namespace {

constexpr double kDegrees = 20;

/// 64 x 48 x 20 voxels of 0.8 x 0.8 x 3 mm, tilted 20 degrees about x (an oblique axial series).
Geometry obliqueAxial(double degrees = kDegrees) {
    Geometry g;
    g.dims = {64, 48, 20};
    g.spacing = {0.8, 0.8, 3.0};
    g.origin = {-30, -20, 10};
    const double a = degrees * M_PI / 180;
    const Vec3 row{1, 0, 0}, col{0, std::cos(a), std::sin(a)};
    g.direction = Mat3::fromColumns(row, col, cross(row, col));
    return g;
}

SliceViewGeometry patientView(const Geometry& g, Orientation o, PlaneMode mode = PlaneMode::Patient) {
    SliceViewGeometry v;
    v.setVolume(g);
    v.setOrientation(o);
    v.setPlaneMode(mode);
    v.setViewport(400, 300);
    v.setCursor({31.5, 23.5, 10});
    return v;
}

void expectNear(Vec3 a, Vec3 b, double tolerance, const char* what) {
    EXPECT_NEAR(norm(a - b), 0.0, tolerance)
        << what << ": (" << a.x << ", " << a.y << ", " << a.z << ") vs (" << b.x << ", " << b.y << ", " << b.z << ")";
}

}  // namespace

TEST(PatientPlanes, ScreenAxesAreExactlyPatientDirections) {
    const Geometry g = obliqueAxial();
    const struct {
        Orientation o;
        Vec3 right, down, normal;
    } cases[] = {{Orientation::Axial, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
                 {Orientation::Coronal, {1, 0, 0}, {0, 0, -1}, {0, 1, 0}},
                 {Orientation::Sagittal, {0, 1, 0}, {0, 0, -1}, {1, 0, 0}}};
    for (const auto& c : cases) {
        SliceViewGeometry v = patientView(g, c.o);
        v.setZoom(1.3);
        v.setPan(11, -5);
        const double mm = 1 / v.pixelsPerMm();
        const Vec3 p = v.screenToPatient(100.5, 80.5);
        expectNear(v.screenToPatient(101.5, 80.5) - p, c.right * mm, 1e-9, "one pixel right");
        expectNear(v.screenToPatient(100.5, 81.5) - p, c.down * mm, 1e-9, "one pixel down");
        // The whole screen lies in one plane across the normal.
        EXPECT_NEAR(dot(v.screenToPatient(399.5, 0.5) - p, c.normal), 0.0, 1e-9);
        EXPECT_NEAR(std::abs(dot(v.normalDirection(), c.normal)), 1.0, 1e-12);
        EXPECT_FALSE(v.showsVolumePlane());
        // The shader's affine mapping is the same map.
        Vec3 o, dx, dy;
        v.shaderMapping(o, dx, dy);
        expectNear(o + dx * 250.5 + dy * 140.5, v.screenToVoxel(250.5, 140.5), 1e-9, "shader mapping");
    }
}

TEST(PatientPlanes, AxialPixelHasTheHandComputedPatientPosition) {
    // Axial, zoom 1: the fit uses the volume's extent across L (64 x 0.8 mm) and across P (the rows'
    // 48 x 0.8 mm and the slices' 20 x 3 mm, both tilted), the volume centre sits at the viewport centre.
    const Geometry g = obliqueAxial();
    const SliceViewGeometry v = patientView(g, Orientation::Axial);
    const double a = kDegrees * M_PI / 180;
    const double width = 64 * 0.8, height = 48 * 0.8 * std::cos(a) + 20 * 3.0 * std::sin(a);
    const double k = std::min(400 / width, 300 / height);
    EXPECT_NEAR(v.pixelsPerMm(), k, 1e-12);
    // The slice through the cursor: planes 3 cos(20) mm apart from the lowest voxel centre.
    const double step = 3.0 * std::cos(a);
    EXPECT_NEAR(v.sliceStepMm(), step, 1e-12);
    double lowest = 1e9, highest = -1e9;
    for (int c = 0; c < 8; ++c) {
        const double z = g.voxelToPatient({c & 1 ? 63.0 : 0.0, c & 2 ? 47.0 : 0.0, c & 4 ? 19.0 : 0.0}).z;
        lowest = std::min(lowest, z);
        highest = std::max(highest, z);
    }
    EXPECT_EQ(v.sliceCount(), int(std::floor((highest - lowest) / step + 1e-6)) + 1);
    const double cursorZ = g.voxelToPatient({31.5, 23.5, 10}).z;
    const int slice = int(std::lround((cursorZ - lowest) / step));
    EXPECT_EQ(v.slice(), slice);
    const Vec3 centre = g.voxelToPatient({31.5, 23.5, 9.5});
    const Vec3 expected{centre.x + (37.5 - 200) / k, centre.y + (250.5 - 150) / k, lowest + slice * step};
    expectNear(v.screenToPatient(37.5, 250.5), expected, 1e-9, "pixel (37.5, 250.5)");
    expectNear(g.voxelToPatient(v.screenToVoxel(37.5, 250.5)), expected, 1e-9, "through the voxel index");
}

TEST(PatientPlanes, RoundTripsScreenVoxelPatient) {
    const Geometry g = obliqueAxial();
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) {
        SliceViewGeometry v = patientView(g, o);
        v.setZoom(2.2);
        v.setPan(-17, 9);
        for (auto [x, y] : {std::pair{10.5, 20.5}, std::pair{200.0, 150.0}, std::pair{399.5, 299.5}}) {
            const Vec3 voxel = v.screenToVoxel(x, y);
            const auto back = v.voxelToScreen(voxel);
            EXPECT_NEAR(back[0], x, 1e-9);
            EXPECT_NEAR(back[1], y, 1e-9);
            EXPECT_TRUE(v.onSlice(voxel));
            expectNear(g.patientToVoxel(v.screenToPatient(x, y)), voxel, 1e-9, "patient -> voxel");
        }
    }
}

TEST(PatientPlanes, LettersArePure) {
    const Geometry g = obliqueAxial(30);  // Volume mode says "PS" / "AI" here
    const char* expected[3][4] = {{"L", "R", "A", "P"}, {"L", "R", "S", "I"}, {"P", "A", "S", "I"}};
    int row = 0;
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) {
        const SliceViewGeometry v = patientView(g, o);
        for (int edge = 0; edge < 4; ++edge) EXPECT_EQ(v.edgeLetter(edge), expected[row][edge]) << orientationName(o);
        ++row;
    }
    EXPECT_EQ(patientView(g, Orientation::Axial, PlaneMode::Volume).edgeLetter(3), "PS");
}

TEST(PatientPlanes, SlicesStepAlongTheNormalAndAllAreReachable) {
    const Geometry g = obliqueAxial();
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) {
        SliceViewGeometry v = patientView(g, o);
        const Vec3 n = v.normalDirection();
        // One step from the centre moves the cursor by exactly one step along the normal, nothing else.
        const Vec3 before = g.voxelToPatient(v.cursor());
        const int s = v.slice();
        v.setCursor(v.cursorOnSlice(s + 1));
        EXPECT_EQ(v.slice(), s + 1) << orientationName(o);
        const Vec3 moved = g.voxelToPatient(v.cursor()) - before;
        const double along = dot(moved, n);
        EXPECT_GT(along, 0.0);
        expectNear(moved, n * along, 1e-9, "moved along the normal only");
        EXPECT_LE(along, v.sliceStepMm() * 1.5 + 1e-9);
        // Every slice, the extreme ones included, is reachable with the cursor inside the volume.
        for (int i = 0; i < v.sliceCount(); ++i) {
            v.setCursor(v.cursorOnSlice(i));
            EXPECT_EQ(v.slice(), i) << orientationName(o);
            const Vec3 c = v.cursor();
            for (int a = 0; a < 3; ++a) {
                EXPECT_GE(c[a], -1e-9);
                EXPECT_LE(c[a], g.dims[a] - 1 + 1e-9);
            }
        }
        EXPECT_EQ(v.slice(), v.sliceCount() - 1);
        v.setCursor(v.cursorOnSlice(v.sliceCount() + 10));  // clamped
        EXPECT_EQ(v.slice(), v.sliceCount() - 1);
        v.setCursor(v.cursorOnSlice(-3));
        EXPECT_EQ(v.slice(), 0);
    }
}

TEST(PatientPlanes, FitShowsTheWholeProjectedVolume) {
    const Geometry g = obliqueAxial();
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) {
        const SliceViewGeometry v = patientView(g, o);
        double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
        for (int c = 0; c < 8; ++c) {
            const auto s = v.voxelToScreen({c & 1 ? 63.5 : -0.5, c & 2 ? 47.5 : -0.5, c & 4 ? 19.5 : -0.5});
            x0 = std::min(x0, s[0]);
            x1 = std::max(x1, s[0]);
            y0 = std::min(y0, s[1]);
            y1 = std::max(y1, s[1]);
        }
        EXPECT_GE(x0, -1e-6);
        EXPECT_LE(x1, 400 + 1e-6);
        EXPECT_GE(y0, -1e-6);
        EXPECT_LE(y1, 300 + 1e-6);
        // One of the two extents fills the viewport, centred.
        EXPECT_TRUE(std::abs(x1 - x0 - 400) < 1e-6 || std::abs(y1 - y0 - 300) < 1e-6) << orientationName(o);
        EXPECT_NEAR((x0 + x1) / 2, 200, 1e-6);
        EXPECT_NEAR((y0 + y1) / 2, 150, 1e-6);
    }
}

TEST(PatientPlanes, PatientAxesGridGivesTheSameViewInBothModes) {
    // Identity, and axes permuted and flipped (sagittal acquisition stored feet-first, rows right-to-left).
    Geometry identity = obliqueAxial(0);
    Geometry permuted = identity;
    permuted.dims = {20, 64, 48};
    permuted.spacing = {3.0, 0.8, 0.8};
    permuted.direction = Mat3::fromColumns({0, -1, 0}, {0, 0, -1}, {1, 0, 0});
    for (const Geometry& g : {identity, permuted}) {
        for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) {
            SliceViewGeometry a = patientView(g, o, PlaneMode::Volume), b = patientView(g, o, PlaneMode::Patient);
            const Vec3 cursor{7.25, 13.6, 5.4};
            for (SliceViewGeometry* v : {&a, &b}) {
                v->setZoom(1.6);
                v->setPan(8, -3);
                v->setCursor(cursor);
            }
            EXPECT_TRUE(b.showsVolumePlane());
            EXPECT_EQ(a.normalAxis(), b.normalAxis());
            EXPECT_EQ(a.slice(), b.slice());
            EXPECT_EQ(a.sliceCount(), b.sliceCount());
            EXPECT_NEAR(a.pixelsPerMm(), b.pixelsPerMm(), 1e-12);
            Vec3 oa, dxa, dya, ob, dxb, dyb;
            a.shaderMapping(oa, dxa, dya);
            b.shaderMapping(ob, dxb, dyb);
            expectNear(oa, ob, 1e-9, "origin");
            expectNear(dxa, dxb, 1e-12, "dx");
            expectNear(dya, dyb, 1e-12, "dy");
            for (int edge = 0; edge < 4; ++edge) EXPECT_EQ(a.edgeLetter(edge), b.edgeLetter(edge));
            for (int step : {-1, 1, 4})
                expectNear(a.cursorOnSlice(a.slice() + step), b.cursorOnSlice(b.slice() + step), 1e-9, "step");
        }
    }
}

TEST(PatientPlanes, OnSliceKeepsToHalfAStep) {
    const Geometry g = obliqueAxial();
    SliceViewGeometry v = patientView(g, Orientation::Axial);
    const Vec3 onPlane = v.screenToPatient(200, 150);
    const double half = v.sliceStepMm() / 2;
    EXPECT_TRUE(v.onSlice(g.patientToVoxel(onPlane + Vec3{0, 0, half * 0.99})));
    EXPECT_FALSE(v.onSlice(g.patientToVoxel(onPlane + Vec3{0, 0, half * 1.01})));
    EXPECT_FALSE(v.onSlice(g.patientToVoxel(onPlane - Vec3{0, 0, half * 1.01})));
}
