/// @brief Grids holding the same voxels in another axis order or direction are matched and reordered exactly.
#include "lucent/core/GridMatch.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace lucent;

namespace {

Geometry oblique() {
    Geometry g;
    g.dims = {9, 6, 4};
    g.spacing = {0.7, 0.9, 2.5};
    g.origin = {-40.5, 12.25, 30.0};
    const double a = 0.3;
    const Vec3 r{std::cos(a), std::sin(a), 0}, c{-std::sin(a), std::cos(a), 0};
    g.direction = Mat3::fromColumns(r, c, cross(r, c));
    return g;
}

LabelMap numbered(const Geometry& g) {
    LabelMap m(g);
    for (std::size_t i = 0; i < m.voxelCount(); ++i) m[i] = std::uint8_t(i % 251 + 1);
    return m;
}

/// The same voxels as `g` with axes (1, 0, 2) swapped and the new first axis reversed.
Geometry permutedReversed(const Geometry& g) {
    Geometry p;
    p.dims = {g.dims[1], g.dims[0], g.dims[2]};
    p.spacing = {g.spacing.y, g.spacing.x, g.spacing.z};
    p.direction = Mat3::fromColumns(g.direction.col[1] * -1.0, g.direction.col[0], g.direction.col[2]);
    p.origin = g.voxelToPatient({0, double(g.dims[1] - 1), 0});
    return p;
}

}  // namespace

TEST(GridMatch, SameGridIsTheIdentity) {
    const Geometry g = oblique();
    const auto map = matchGrid(g, g, sameVoxelsToleranceMm(g));
    ASSERT_TRUE(map);
    EXPECT_TRUE(map->identity());
}

TEST(GridMatch, ReversedRowsPutEveryVoxelBackAtItsPosition) {
    const Geometry g = oblique();
    const LabelMap m = numbered(g);
    const LabelMap flipped = reverseRows(m);
    // Same world position for every voxel: the value at a patient point is unchanged.
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const Vec3 p = g.voxelToPatient({double(i), double(j), double(k)});
                const Vec3 q = flipped.geometry().patientToVoxel(p);
                ASSERT_EQ(flipped.at(int(std::lround(q.x)), int(std::lround(q.y)), int(std::lround(q.z))), m.at(i, j, k));
            }
    const auto map = matchGrid(flipped.geometry(), g, sameVoxelsToleranceMm(g));
    ASSERT_TRUE(map);
    EXPECT_FALSE(map->identity());
    const LabelMap back = remapLabels(flipped, g, *map);
    EXPECT_TRUE(std::equal(back.data(), back.data() + back.voxelCount(), m.data()));
}

TEST(GridMatch, PermutedAxesAreReorderedExactly) {
    const Geometry g = oblique();
    const Geometry p = permutedReversed(g);
    LabelMap src(p);
    for (int k = 0; k < p.dims[2]; ++k)
        for (int j = 0; j < p.dims[1]; ++j)
            for (int i = 0; i < p.dims[0]; ++i) {
                // Give each voxel its reference index so the reordering can be checked voxel by voxel.
                const Vec3 q = g.patientToVoxel(p.voxelToPatient({double(i), double(j), double(k)}));
                src.at(i, j, k) = std::uint8_t(g.index(int(std::lround(q.x)), int(std::lround(q.y)), int(std::lround(q.z))) % 256);
            }
    const auto map = matchGrid(p, g, sameVoxelsToleranceMm(g));
    ASSERT_TRUE(map);
    const LabelMap back = remapLabels(src, g, *map);
    for (std::size_t n = 0; n < back.voxelCount(); ++n) ASSERT_EQ(back[n], std::uint8_t(n % 256)) << n;
}

TEST(GridMatch, AnotherGridIsRefusedWithTheDifference) {
    const Geometry g = oblique();
    Geometry shifted = g;
    shifted.origin.x += 0.3;  // under half a voxel, over the tolerance
    EXPECT_FALSE(matchGrid(shifted, g, sameVoxelsToleranceMm(g)));
    EXPECT_NE(describeGridDifference(shifted, g).find("first voxel"), std::string::npos);
    Geometry other = g;
    other.dims = {9, 6, 5};
    EXPECT_FALSE(matchGrid(other, g, sameVoxelsToleranceMm(g)));
    EXPECT_EQ(describeGridDifference(other, g), "dimensions 9x6x5 against 9x6x4");
    Geometry spacing = g;
    spacing.spacing.z = 2.0;
    EXPECT_FALSE(matchGrid(spacing, g, sameVoxelsToleranceMm(g)));
    Geometry tiny = g;
    tiny.origin.y += 0.01;  // float rounding of an affine: still the same voxels
    EXPECT_TRUE(matchGrid(tiny, g, sameVoxelsToleranceMm(g)));
}
