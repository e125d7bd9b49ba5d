/// @brief Label surfaces and STL / OBJ export: closed, outward, right volume and bounds, on skewed grids and real data.
#include "SurfaceCheck.h"
#include "TempDir.h"

#include "lucent/core/Errors.h"
#include "lucent/io/LabelFile.h"
#include "lucent/io/LabelSurface.h"
#include "lucent/io/SurfaceFile.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <numbers>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::analyse;
using lucent::testing::MeshReport;
using lucent::testing::readBinaryStl;
using lucent::testing::readObj;
using lucent::testing::TempDir;

namespace {

#define REQUIRE_VTK() \
    if (!surfacesAvailable()) GTEST_SKIP() << "this build has no VTK"

Mat3 rotation(Vec3 axis, double degrees) {
    const Vec3 u = normalized(axis);
    const double a = degrees * std::numbers::pi / 180.0, c = std::cos(a), s = std::sin(a);
    auto column = [&](Vec3 e) { return e * c + cross(u, e) * s + u * (dot(u, e) * (1 - c)); };
    return Mat3::fromColumns(column({1, 0, 0}), column({0, 1, 0}), column({0, 0, 1}));
}

Geometry grid(std::array<int, 3> dims, Vec3 spacing, Mat3 direction = {}, Vec3 origin = {-20, 15, 40}) {
    Geometry g;
    g.dims = dims;
    g.spacing = spacing;
    g.direction = direction;
    g.origin = origin;
    return g;
}

LabelMap paint(const Geometry& g, std::uint8_t label, const std::function<bool(Vec3 mm)>& inside,
               LabelMap labels = {}) {
    if (labels.voxelCount() == 0) labels = LabelMap(g);
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i)
                if (inside({i * g.spacing.x, j * g.spacing.y, k * g.spacing.z})) labels.at(i, j, k) = label;
    return labels;
}

/// Axis-aligned bounds of the label's voxels as cubes (their corners, in patient space).
MeshReport worldBounds(const LabelMap& labels, std::uint8_t label, bool ras = false) {
    MeshReport r;
    const Geometry& g = labels.geometry();
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                if (labels.at(i, j, k) != label) continue;
                for (int c = 0; c < 8; ++c) {
                    Vec3 p = g.voxelToPatient(
                        {i + (c & 1 ? 0.5 : -0.5), j + (c & 2 ? 0.5 : -0.5), k + (c & 4 ? 0.5 : -0.5)});
                    if (ras) p = {-p.x, -p.y, p.z};
                    for (int a = 0; a < 3; ++a) r.lo[a] = std::min(r.lo[a], p[a]), r.hi[a] = std::max(r.hi[a], p[a]);
                }
            }
    return r;
}

/// The checks every written surface must pass against the label it came from.
void expectFaithful(const MeshReport& got, const LabelMap& labels, std::uint8_t label, bool ras = false) {
    const Geometry& g = labels.geometry();
    const double voxelMm3 = g.spacing.x * g.spacing.y * g.spacing.z;
    const double expected = double(labels.count(label)) * voxelMm3;
    EXPECT_EQ(got.badEdges, 0u) << "not closed or not consistently oriented";
    EXPECT_GT(got.volume, 0) << "normals point inward";
    EXPECT_NEAR(got.volume / expected, 1.0, 0.03) << got.volume << " mm3 against " << expected << " mm3 of voxels";
    const MeshReport want = worldBounds(labels, label, ras);
    double worst = 0;  // in half voxels
    for (int w = 0; w < 3; ++w) {
        // Half of one voxel's extent along world axis w (half the spacing on a grid along the axes).
        double halfVoxel = 0;
        for (int a = 0; a < 3; ++a) halfVoxel += 0.5 * g.spacing[a] * std::abs(g.direction.at(w, a));
        EXPECT_NEAR(got.lo[w], want.lo[w], halfVoxel) << "axis " << w;
        EXPECT_NEAR(got.hi[w], want.hi[w], halfVoxel) << "axis " << w;
        worst = std::max(
            {worst, std::abs(got.lo[w] - want.lo[w]) / halfVoxel, std::abs(got.hi[w] - want.hi[w]) / halfVoxel});
    }
    std::printf("label %d: volume %.4f of its voxels', bounds within %.2f of half a voxel\n", label,
                got.volume / expected, worst);
}

/// Builds (unless given), writes as STL, reads back and checks; returns what was read.
MeshReport roundTripStl(const LabelMap& labels, std::uint8_t label, bool ras = false,
                        const SurfaceMesh* built = nullptr) {
    const TempDir dir;
    const std::string path = dir.file("surface.stl");
    writeSurfaceFile({{"s", label, built ? *built : buildLabelSurface(labels, label)}}, path, ras);
    const auto mesh = readBinaryStl(path);
    EXPECT_EQ(mesh.header.rfind(ras ? "SPACE=RAS" : "SPACE=LPS", 0), 0u) << mesh.header;
    const MeshReport got = analyse(mesh);
    expectFaithful(got, labels, label, ras);
    return got;
}

auto ball(Vec3 centre, double radius) {
    return [=](Vec3 p) { return norm(p - centre) <= radius; };
}
auto box(Vec3 lo, Vec3 hi) {
    return
        [=](Vec3 p) { return p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z; };
}

const Vec3 kAnisotropic{0.7, 0.9, 1.6};

}  // namespace

TEST(LabelSurface, BallOnAnAnisotropicGrid) {
    REQUIRE_VTK();
    const LabelMap labels = paint(grid({40, 36, 24}, kAnisotropic), 3, ball({14, 16, 18}, 11));
    roundTripStl(labels, 3);
}

TEST(LabelSurface, BoxOnAnAnisotropicGrid) {
    REQUIRE_VTK();
    const LabelMap labels = paint(grid({40, 36, 24}, kAnisotropic), 1, box({3, 4, 5}, {20, 22, 28}));
    roundTripStl(labels, 1);
}

TEST(LabelSurface, BallAndBoxOnAnObliqueGrid) {
    REQUIRE_VTK();
    const Geometry g = grid({40, 36, 24}, kAnisotropic, rotation({1, 2, 3}, 33));
    roundTripStl(paint(g, 1, ball({14, 16, 18}, 11)), 1);
    roundTripStl(paint(g, 2, box({3, 4, 5}, {20, 22, 28})), 2);
}

TEST(LabelSurface, LeftHandedGridStillWindsOutward) {
    REQUIRE_VTK();
    // Rows running anterior (as the real CT's MetaImage header says): determinant -1.
    const Mat3 flipY = Mat3::fromColumns({1, 0, 0}, {0, -1, 0}, {0, 0, 1});
    roundTripStl(paint(grid({40, 36, 24}, kAnisotropic, flipY), 1, ball({14, 16, 18}, 11)), 1);
    // An oblique left-handed grid: a rotation whose second column is turned over.
    const Mat3 r = rotation({0, 1, 1}, 20);
    const Mat3 obliqueFlipped = Mat3::fromColumns(r.col[0], r.col[1] * -1.0, r.col[2]);
    ASSERT_LT(obliqueFlipped.determinant(), 0);
    roundTripStl(paint(grid({40, 36, 24}, kAnisotropic, obliqueFlipped), 2, box({3, 4, 5}, {20, 22, 28})), 2);
}

TEST(LabelSurface, LabelTouchingTheVolumeBorderIsClosed) {
    REQUIRE_VTK();
    const Geometry g = grid({30, 20, 16}, kAnisotropic, rotation({0, 0, 1}, 15));
    // Every voxel of the first slices along x, y and z: the surface runs along three faces of the volume.
    const LabelMap labels = paint(g, 5, box({-1, -1, -1}, {12, 30, 8}));
    ASSERT_EQ(labels.at(0, 0, 0), 5);
    ASSERT_EQ(labels.at(17, 19, 5), 5);
    roundTripStl(labels, 5);
}

TEST(LabelSurface, RasNegatesXAndYAndKeepsTheWinding) {
    REQUIRE_VTK();
    const LabelMap labels = paint(grid({40, 36, 24}, kAnisotropic, rotation({1, 0, 1}, 10)), 1, ball({14, 16, 18}, 9));
    const MeshReport lps = roundTripStl(labels, 1, false);
    const MeshReport ras = roundTripStl(labels, 1, true);
    EXPECT_NEAR(ras.volume, lps.volume, 1e-6 * lps.volume);
    EXPECT_NEAR(ras.lo.x, -lps.hi.x, 1e-4);
    EXPECT_NEAR(ras.hi.y, -lps.lo.y, 1e-4);
    EXPECT_NEAR(ras.lo.z, lps.lo.z, 1e-4);
}

TEST(LabelSurface, MeshNormalsPointOutOfTheLabel) {
    REQUIRE_VTK();
    const Geometry g = grid({40, 36, 24}, kAnisotropic, rotation({2, 1, 0}, 40));
    const LabelMap labels = paint(g, 1, ball({14, 16, 18}, 11));
    const SurfaceMesh mesh = buildLabelSurface(labels, 1);
    ASSERT_EQ(mesh.normals.size(), mesh.points.size());
    const Vec3 centre = g.voxelToPatient({14 / kAnisotropic.x, 16 / kAnisotropic.y, 18 / kAnisotropic.z});
    for (std::size_t p = 0; p < mesh.pointCount(); ++p) {
        const Vec3 point{mesh.points[3 * p], mesh.points[3 * p + 1], mesh.points[3 * p + 2]};
        const Vec3 normal{mesh.normals[3 * p], mesh.normals[3 * p + 1], mesh.normals[3 * p + 2]};
        ASSERT_NEAR(norm(normal), 1.0, 1e-5);
        ASSERT_GT(dot(normal, normalized(point - centre)), 0.5) << "point " << p;
    }
}

TEST(LabelSurface, MergedStlAndGroupedObjCarryEveryLabel) {
    REQUIRE_VTK();
    const Geometry g = grid({48, 36, 24}, kAnisotropic, rotation({1, 1, 0}, 25));
    LabelMap labels = paint(g, 2, ball({12, 16, 18}, 9));
    labels = paint(g, 7, box({22, 4, 5}, {31, 22, 28}), labels);
    LabelTable table;
    table.ensure(2).name = "left kidney";
    const auto surfaces = buildLabelSurfaces(labels, table);
    ASSERT_EQ(surfaces.size(), 2u);
    EXPECT_EQ(surfaces[0].label, 2);
    EXPECT_EQ(surfaces[1].name, "Label 7");

    const TempDir dir;
    writeSurfaceFile(surfaces, dir.file("both.stl"));
    const MeshReport merged = analyse(readBinaryStl(dir.file("both.stl")));
    EXPECT_EQ(merged.badEdges, 0u);
    const double voxels = double(labels.count(2) + labels.count(7)) * g.spacing.x * g.spacing.y * g.spacing.z;
    EXPECT_NEAR(merged.volume / voxels, 1.0, 0.03);

    writeSurfaceFile(surfaces, dir.file("both.obj"), true);
    const auto groups = readObj(dir.file("both.obj"));
    ASSERT_EQ(groups.size(), 2u);
    ASSERT_TRUE(groups.count("left_kidney") && groups.count("Label_7"));
    EXPECT_EQ(groups.at("Label_7").header.rfind("# SPACE=RAS", 0), 0u);
    expectFaithful(analyse(groups.at("left_kidney")), labels, 2, true);
    expectFaithful(analyse(groups.at("Label_7")), labels, 7, true);
}

TEST(LabelSurface, RealBrainMaskGivesAClosedSurfaceOfItsVolume) {
    REQUIRE_VTK();
    LUCENT_REAL_DATA_OR_SKIP(path, "itk/KmeansTest_T1RawSkullStrip.nii.gz");
    const LabelMap strip = readLabelMapFile(path);
    LabelMap mask(strip.geometry());
    for (std::size_t i = 0; i < strip.voxelCount(); ++i) mask[i] = strip[i] ? 1 : 0;
    ASSERT_GT(mask.count(1), 10000u);
    const MeshReport got = roundTripStl(mask, 1);
    std::printf("ITK T1 brain mask: %zu voxels, %.1f mL of voxels, surface %.1f mL\n", mask.count(1),
                mask.count(1) * mask.geometry().voxelVolumeMl(), got.volume / 1000.0);
}

TEST(LabelSurface, RealCtSkullGivesAClosedSurface) {
    REQUIRE_VTK();
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    // Bone (>= 300 HU) of the real head CT: thin plates, holes and many components, on a
    // left-handed grid (rows run anterior).
    const Volume ct = readVolumeFile(path);
    LabelMap bone(ct.geometry());
    for (std::size_t i = 0; i < bone.voxelCount(); ++i) bone[i] = ct.int16Data()[i] >= 300 ? 1 : 0;
    const auto start = std::chrono::steady_clock::now();
    const SurfaceMesh mesh = buildLabelSurface(bone, 1);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("CT skull: %zu voxels, %zu triangles in %.0f ms\n", bone.count(1), mesh.triangleCount(), ms);
    roundTripStl(bone, 1, false, &mesh);
}

TEST(LabelSurface, ProgressEndsAtTheTotalAndCancelStops) {
    REQUIRE_VTK();
    const LabelMap labels = paint(grid({40, 36, 24}, kAnisotropic), 1, ball({14, 16, 18}, 11));
    std::vector<std::size_t> seen;
    buildLabelSurface(labels, 1, {}, [&](std::size_t done, std::size_t total) {
        EXPECT_EQ(total, 1000u);
        seen.push_back(done);
        return true;
    });
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.back(), 1000u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    // Cancelling while the scan runs, and once contouring has begun (past 150 thousandths).
    for (const std::size_t stopAt : {std::size_t(0), std::size_t(151)}) {
        EXPECT_THROW(buildLabelSurface(labels, 1, {}, [&](std::size_t done, std::size_t) { return done < stopAt; }),
                     Cancelled);
    }
}

TEST(LabelSurface, EmptyLabelAndBackgroundAreErrors) {
    REQUIRE_VTK();
    const LabelMap labels = paint(grid({20, 20, 10}, kAnisotropic), 1, ball({7, 7, 8}, 4));
    try {
        buildLabelSurface(labels, 9);
        ADD_FAILURE() << "an empty label gave a surface";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("label 9"), std::string::npos) << e.what();
    }
    EXPECT_THROW(buildLabelSurface(labels, 0), IoError);
    EXPECT_THROW(buildLabelSurfaces(labels, LabelTable{}, {1, 9}), IoError);
}

TEST(LabelSurface, LabelFileExportWritesTheChosenLabelsAsSurfaces) {
    REQUIRE_VTK();
    const Geometry g = grid({48, 36, 24}, kAnisotropic, rotation({1, 0, 2}, 12));
    LabelMap labels = paint(g, 2, ball({12, 16, 18}, 9));
    labels = paint(g, 4, box({22, 4, 5}, {31, 22, 28}), labels);
    LabelTable table;
    table.ensure(4).name = "box";
    const TempDir dir;
    LabelExportOptions options;
    options.labels = {4};
    options.ras = true;
    writeLabelFile(labels, table, dir.file("box.obj"), options);
    const auto groups = readObj(dir.file("box.obj"));
    ASSERT_EQ(groups.size(), 1u);
    ASSERT_EQ(groups.count("box"), 1u);
    expectFaithful(analyse(groups.at("box")), labels, 4, true);

    writeLabelFile(labels, table, dir.file("all.stl"), {});
    const auto all = readBinaryStl(dir.file("all.stl"));
    EXPECT_EQ(all.header.rfind("SPACE=LPS", 0), 0u);
    const MeshReport merged = analyse(all);
    EXPECT_EQ(merged.badEdges, 0u);
    EXPECT_NEAR(merged.volume / (double(labels.count(2) + labels.count(4)) * g.spacing.x * g.spacing.y * g.spacing.z),
                1.0, 0.03);
}

TEST(LabelSurface, WithoutVtkBuildingSaysSoInsteadOfAnEmptySurface) {
    if (surfacesAvailable()) GTEST_SKIP() << "this build has VTK (the no-VTK build runs this)";
    const LabelMap labels = paint(grid({20, 20, 10}, kAnisotropic), 1, ball({7, 7, 8}, 4));
    try {
        const SurfaceMesh mesh = buildLabelSurface(labels, 1);
        ADD_FAILURE() << "a build without VTK returned a surface of " << mesh.triangleCount() << " triangles";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("this build has no VTK: surfaces cannot be written"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(buildLabelSurfaces(labels, LabelTable{}), IoError);
    // The export says why and leaves no file behind.
    const TempDir dir;
    try {
        writeLabelFile(labels, LabelTable{}, dir.file("mask.stl"), {});
        ADD_FAILURE() << "a build without VTK wrote a surface file";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("this build has no VTK"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// The writers need no VTK: a unit tetrahedron written by hand checks them in every build.
TEST(SurfaceFile, TetrahedronRoundTripsThroughStlAndObj) {
    NamedSurface tet{"tet", 1, {}};
    tet.mesh.points = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    tet.mesh.triangles = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};  // outward
    const TempDir dir;
    for (const bool ras : {false, true}) {
        writeSurfaceFile({tet}, dir.file("tet.stl"), ras);
        const MeshReport stl = analyse(readBinaryStl(dir.file("tet.stl")));
        EXPECT_EQ(stl.badEdges, 0u);
        EXPECT_NEAR(stl.volume, 1.0 / 6.0, 1e-7);
        EXPECT_EQ(stl.hi.x, ras ? 0.0 : 1.0);
        EXPECT_EQ(stl.lo.y, ras ? -1.0 : 0.0);
        writeSurfaceFile({tet}, dir.file("tet.obj"), ras);
        const auto groups = readObj(dir.file("tet.obj"));
        ASSERT_EQ(groups.count("tet"), 1u);
        EXPECT_NEAR(analyse(groups.at("tet")).volume, 1.0 / 6.0, 1e-7);
    }
    EXPECT_EQ(std::filesystem::file_size(dir.file("tet.stl")), 84u + 4 * 50);
}

TEST(SurfaceFile, FailuresLeaveNoFileAndKeepTheOldOne) {
    NamedSurface tet{"tet", 1, {}};
    tet.mesh.points = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    tet.mesh.triangles = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    const TempDir dir;
    try {
        writeSurfaceFile({tet}, dir.file("missing/out.stl"));
        ADD_FAILURE() << "wrote into a missing folder";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("out.stl"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
    writeSurfaceFile({tet}, dir.file("keep.stl"));
    const auto before = lucent::testing::fileBytes(dir.file("keep.stl"));
    NamedSurface broken = tet;
    broken.mesh.triangles.back() = 4;  // a point it does not have
    EXPECT_THROW(writeSurfaceFile({broken}, dir.file("keep.stl")), IoError);
    EXPECT_THROW(writeSurfaceFile({}, dir.file("keep.stl")), IoError);
    EXPECT_THROW(writeSurfaceFile({tet}, dir.file("keep.ply")), IoError);
    EXPECT_EQ(lucent::testing::fileBytes(dir.file("keep.stl")), before);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

// The oracle itself: an open mesh and a face turned over are both caught.
TEST(SurfaceFile, CheckerCatchesHolesAndFlippedFaces) {
    lucent::testing::ReadMesh tet;
    tet.points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    tet.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
    EXPECT_EQ(analyse(tet).badEdges, 0u);
    auto flipped = tet;
    flipped.triangles[3] = {1, 3, 2};
    EXPECT_GT(analyse(flipped).badEdges, 0u);
    auto open = tet;
    open.triangles.pop_back();
    EXPECT_GT(analyse(open).badEdges, 0u);
    auto inward = tet;
    for (auto& t : inward.triangles) std::swap(t[1], t[2]);
    EXPECT_EQ(analyse(inward).badEdges, 0u);
    EXPECT_LT(analyse(inward).volume, 0);
}
