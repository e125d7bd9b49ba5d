/// @brief Label surfaces without a display: a ball's smoothed surface sits where its patient
/// position says (oblique grid), one surface per label; an empty map or
/// a cancel gives none; the surface job reports the latest request only; the camera starts anterior
/// and turns, zooms and pans about its focal point. Presets parse round trip.
#include "lucent/render/LabelSurfaceJob.h"
#include "lucent/render/LabelSurfaces.h"
#include "lucent/render/Preset3D.h"
#include "lucent/render/Scene3D.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

using namespace lucent;
using namespace lucent::render;

namespace {

Geometry obliqueGrid() {
    Geometry g;
    g.dims = {48, 40, 36};
    g.spacing = {0.8, 0.9, 1.5};
    g.origin = {12, -30, 55};
    const double a = 0.5;  // about 29 degrees about z, then the slice axis tilted
    g.direction = Mat3::fromColumns({std::cos(a), std::sin(a), 0}, {-std::sin(a) * 0.96, std::cos(a) * 0.96, 0.28},
                                    {std::sin(a) * 0.28, -std::cos(a) * 0.28, 0.96});
    return g;
}

/// Label `value` on a ball of `radius` mm about patient point `centre`.
void paintBall(LabelMap& m, Vec3 centre, double radius, std::uint8_t value) {
    const Geometry& g = m.geometry();
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i)
                if (norm(g.voxelToPatient({double(i), double(j), double(k)}) - centre) < radius) m.at(i, j, k) = value;
}

TEST(LabelSurfaces, BallSurfaceSitsAtItsPatientPosition) {
    LabelMap m(obliqueGrid());
    const Vec3 centre = m.geometry().voxelToPatient({24, 20, 18});
    paintBall(m, centre, 9.0, 3);
    const auto s = buildLabelSurfaces(m);
    ASSERT_TRUE(s);
    const SurfaceFigures f = surfaceFigures(*s);
    EXPECT_GT(f.triangles, 500u);
    EXPECT_EQ(f.labels, (std::vector<std::uint8_t>{3}));
    for (int a = 0; a < 3; ++a) {
        // Within about a voxel (1.5 mm) of the true sphere's extent, in patient mm.
        EXPECT_NEAR(f.bounds[2 * a], centre[a] - 9.0, 1.6) << "axis " << a;
        EXPECT_NEAR(f.bounds[2 * a + 1], centre[a] + 9.0, 1.6) << "axis " << a;
    }
}

TEST(LabelSurfaces, OneSurfacePerLabel) {
    LabelMap m(obliqueGrid());
    paintBall(m, m.geometry().voxelToPatient({14, 20, 18}), 6.0, 1);
    paintBall(m, m.geometry().voxelToPatient({34, 20, 18}), 6.0, 7);
    const auto s = buildLabelSurfaces(m);
    ASSERT_TRUE(s);
    EXPECT_EQ(surfaceFigures(*s).labels, (std::vector<std::uint8_t>{1, 7}));
}

TEST(LabelSurfaces, NothingForAnEmptyMapOrACancel) {
    LabelMap m(obliqueGrid());
    EXPECT_EQ(buildLabelSurfaces(m), nullptr);
    paintBall(m, m.geometry().voxelToPatient({24, 20, 18}), 6.0, 1);
    std::atomic<bool> cancel{true};
    EXPECT_EQ(buildLabelSurfaces(m, &cancel), nullptr);
}

TEST(LabelSurfaces, ATriangleBudgetBuildsCoarserCellsUntilTheSurfacesFitIt) {
    // Speckle (every other voxel in a checkerboard of 2-voxel blocks) makes a surface per island:
    // far more triangles than the budget; a ball within it is built as it is.
    Geometry g = obliqueGrid();
    g.dims = {64, 64, 48};
    LabelMap speckle(g);
    for (int k = 0; k < 48; ++k)
        for (int j = 0; j < 64; ++j)
            for (int i = 0; i < 64; ++i) speckle.at(i, j, k) = ((i / 2 + j / 2 + k / 2) % 2) ? 2 : 0;
    const auto full = buildLabelSurfaces(speckle);
    ASSERT_TRUE(full);
    const std::size_t budget = 4000;
    ASSERT_GT(surfaceFigures(*full).triangles, 4 * budget);
    const auto within = buildLabelSurfacesWithin(speckle, budget);
    ASSERT_TRUE(within);
    EXPECT_LE(surfaceFigures(*within).triangles, budget);
    EXPECT_GT(surfaceFigures(*within).triangles, 0u);
    for (int a = 0; a < 3; ++a) {  // still where the labels are: the coarse cells cover the same grid
        EXPECT_NEAR(surfaceFigures(*within).bounds[2 * a], surfaceFigures(*full).bounds[2 * a], 12.0) << "axis " << a;
        EXPECT_NEAR(surfaceFigures(*within).bounds[2 * a + 1], surfaceFigures(*full).bounds[2 * a + 1], 12.0) << "axis " << a;
    }
    LabelMap ball(obliqueGrid());
    paintBall(ball, ball.geometry().voxelToPatient({24, 20, 18}), 9.0, 3);
    EXPECT_EQ(surfaceFigures(*buildLabelSurfacesWithin(ball, 1000000)).triangles, surfaceFigures(*buildLabelSurfaces(ball)).triangles);
}

TEST(LabelSurfaceJob, ReportsTheLatestRequest) {
    std::mutex mutex;
    std::vector<int> serials;
    std::vector<std::size_t> triangles;
    {
        LabelSurfaceJob job([&](std::shared_ptr<const LabelSurfaces> s, int serial) {
            std::lock_guard lock(mutex);
            serials.push_back(serial);
            triangles.push_back(s ? surfaceFigures(*s).triangles : 0);
        });
        LabelMap small(obliqueGrid()), big(obliqueGrid());
        paintBall(small, small.geometry().voxelToPatient({24, 20, 18}), 4.0, 1);
        paintBall(big, big.geometry().voxelToPatient({24, 20, 18}), 12.0, 1);
        job.request(small, 1);
        job.request(big, 2);  // at once: the first is dropped or cancelled
        for (int i = 0; i < 600; ++i) {
            {
                std::lock_guard lock(mutex);
                if (!serials.empty() && serials.back() == 2) break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    ASSERT_FALSE(serials.empty());
    EXPECT_EQ(serials.back(), 2);
    EXPECT_GT(triangles.back(), 1000u);
}

TEST(Scene3D, CameraStartsAnteriorAndMovesAboutTheFocalPoint) {
    // Camera maths need no GL context.
    Scene3D scene;
    auto v = std::make_shared<Volume>(obliqueGrid(), PixelType::Int16);
    scene.setVolume(v);
    Vec3 pos, focal, up;
    scene.camera(pos, focal, up);
    const Vec3 centre = v->geometry().voxelToPatient({23.5, 19.5, 17.5});
    EXPECT_LT(norm(focal - centre), 1e-6) << "looking at the volume's centre";
    const Vec3 dir = normalized(focal - pos);
    EXPECT_NEAR(dir.y, 1.0, 1e-9) << "from the front (-y), looking along +y";
    EXPECT_NEAR(up.z, 1.0, 1e-9) << "head up";
    const double distance = norm(focal - pos);
    scene.rotate(90, 0);
    scene.camera(pos, focal, up);
    EXPECT_NEAR(std::abs(normalized(focal - pos).x), 1.0, 1e-6) << "a quarter turn: from the side";
    EXPECT_NEAR(norm(focal - pos), distance, 1e-6);
    scene.zoom(2.0);
    scene.camera(pos, focal, up);
    EXPECT_NEAR(norm(focal - pos), distance / 2, 1e-6);
    const Vec3 before = focal;
    scene.pan(0.25, 0);
    scene.camera(pos, focal, up);
    EXPECT_GT(norm(focal - before), 1.0) << "panning moves the focal point";
    EXPECT_NEAR(focal.z, before.z, 1e-6) << "sideways only";
    scene.resetCamera();
    scene.camera(pos, focal, up);
    EXPECT_NEAR(normalized(focal - pos).y, 1.0, 1e-9);
    EXPECT_NEAR(norm(focal - pos), distance, 1e-6);
}

TEST(Preset3D, NamesRoundTrip) {
    for (Preset3D p : presets3D()) {
        Preset3D q = Preset3D::None;
        ASSERT_TRUE(parsePreset3D(preset3DName(p), q));
        EXPECT_EQ(q, p);
    }
    Preset3D q;
    EXPECT_FALSE(parsePreset3D("skull", q));
    EXPECT_EQ(defaultPreset3D("CT"), Preset3D::CtBone);
    EXPECT_EQ(defaultPreset3D("MR"), Preset3D::Mr);
    EXPECT_EQ(defaultPreset3D("MR", -1000), Preset3D::Mr) << "a named modality wins";
    EXPECT_EQ(defaultPreset3D("", -1024), Preset3D::CtBone) << "a volume file with air in HU is CT";
    EXPECT_EQ(defaultPreset3D("", 0), Preset3D::Mr);
    EXPECT_TRUE(transferPoints(Preset3D::None, 0, 1).empty());
    // MR follows the data range.
    EXPECT_LT(transferPoints(Preset3D::Mr, 0, 100).back().value, transferPoints(Preset3D::Mr, 0, 1000).back().value);
}

}  // namespace
