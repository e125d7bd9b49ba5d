/// @brief Island tools on maps with known components: sizes, 6-connectivity (edges and corners do
/// not connect), ties broken by memory order, other labels untouched; and the real ITK label map.
#include "lucent/core/LabelIslands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

using namespace lucent;

namespace {

LabelMap grid(int nx, int ny, int nz) {
    Geometry g;
    g.dims = {nx, ny, nz};
    return LabelMap(g);
}

void fillBox(LabelMap& m, std::array<int, 3> lo, std::array<int, 3> hi, std::uint8_t v) {
    for (int k = lo[2]; k <= hi[2]; ++k)
        for (int j = lo[1]; j <= hi[1]; ++j)
            for (int i = lo[0]; i <= hi[0]; ++i) m.at(i, j, k) = v;
}

/// Label 1: a 3x3x3 cube (27), a 2x2x2 cube (8), a single voxel touching the big cube only by a
/// corner (1) and a 1x1x2 rod touching it only by edges (2); label 2: a 4x4x1 slab (16).
LabelMap sample() {
    LabelMap m = grid(20, 12, 8);
    fillBox(m, {1, 1, 1}, {3, 3, 3}, 1);
    fillBox(m, {10, 1, 1}, {11, 2, 2}, 1);
    m.at(4, 4, 4) = 1;                    // corner neighbour of (3,3,3)
    fillBox(m, {4, 4, 1}, {4, 4, 2}, 1);  // shares only edges with the cube's (3,3,1)..(3,3,2)
    fillBox(m, {14, 6, 5}, {17, 9, 5}, 2);
    return m;
}

}  // namespace

TEST(LabelIslands, ComponentsAreFaceConnectedWithExactSizes) {
    LabelMap m = sample();
    const LabelComponents c(m, 1);
    // First voxels in memory order: cube (1,1,1), small cube (10,1,1), rod (4,4,1), single (4,4,4).
    ASSERT_EQ(c.count(), 4u);
    EXPECT_EQ(c.sizes(), (std::vector<std::size_t>{27, 8, 2, 1})) << "numbered by first voxel in memory order";
    EXPECT_EQ(c.largest(), 1u);
    EXPECT_EQ(c.componentOf(m.geometry().index(2, 2, 2)), 1u);
    EXPECT_EQ(c.componentOf(m.geometry().index(0, 0, 0)), 0u);
    const LabelComponents c2(m, 2);
    ASSERT_EQ(c2.count(), 1u);
    EXPECT_EQ(c2.size(1), 16u);
}

TEST(LabelIslands, KeepLargestClearsTheOthersAndLeavesOtherLabels) {
    LabelMap m = sample();
    EXPECT_EQ(keepLargestIsland(m, 1), 2u + 8u + 1u);
    EXPECT_EQ(m.count(1), 27u);
    EXPECT_EQ(m.count(2), 16u);
    EXPECT_EQ(m.at(10, 1, 1), 0);
    EXPECT_EQ(m.at(2, 2, 2), 1);
    EXPECT_EQ(keepLargestIsland(m, 1), 0u) << "idempotent";
    EXPECT_EQ(keepLargestIsland(m, 7), 0u) << "an absent label changes nothing";
}

TEST(LabelIslands, TiesKeepTheFirstInMemoryOrder) {
    LabelMap m = grid(10, 4, 4);
    fillBox(m, {6, 0, 0}, {7, 1, 0}, 3);  // 4 voxels, first voxel index 6
    fillBox(m, {0, 2, 0}, {1, 3, 0}, 3);  // 4 voxels, first voxel index 20
    keepLargestIsland(m, 3);
    EXPECT_EQ(m.count(3), 4u);
    EXPECT_EQ(m.at(6, 0, 0), 3);
    EXPECT_EQ(m.at(0, 2, 0), 0);
}

TEST(LabelIslands, RemoveSmallerThanN) {
    LabelMap m = sample();
    EXPECT_EQ(removeSmallIslands(m, 1, 8), 2u + 1u) << "8 voxels is not smaller than 8";
    EXPECT_EQ(m.count(1), 35u);
    EXPECT_EQ(removeSmallIslands(m, 1, 28), 35u);
    EXPECT_EQ(m.count(1), 0u);
    EXPECT_EQ(m.count(2), 16u);
}

TEST(LabelIslands, KeepTheClickedOne) {
    LabelMap m = sample();
    EXPECT_EQ(keepIslandAt(m, m.geometry().index(11, 2, 2)), 27u + 2u + 1u);
    EXPECT_EQ(m.count(1), 8u);
    EXPECT_EQ(m.at(10, 1, 1), 1);
    EXPECT_EQ(keepIslandAt(m, m.geometry().index(0, 0, 0)), 0u) << "background: nothing";
    EXPECT_EQ(m.count(2), 16u);
}

TEST(LabelIslands, ComponentSizesSumToTheLabelCount) {
    // A checkerboard in 3D: no two voxels of a colour share a face, so every voxel is an island.
    LabelMap m = grid(7, 5, 3);
    for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 5; ++j)
            for (int i = 0; i < 7; ++i) m.at(i, j, k) = (i + j + k) % 2 ? 1 : 2;
    const LabelComponents c(m, 1);
    EXPECT_EQ(c.count(), m.count(1));
    const LabelComponents d(m, 2);
    EXPECT_EQ(d.count(), m.count(2));
    EXPECT_EQ(removeSmallIslands(m, 2, 2), m.voxelCount() - m.count(1));
}

namespace {

/// `value` on the shell of the box lo..hi (one voxel thick), nothing inside.
void hollowBox(LabelMap& m, std::array<int, 3> lo, std::array<int, 3> hi, std::uint8_t v) {
    fillBox(m, lo, hi, v);
    fillBox(m, {lo[0] + 1, lo[1] + 1, lo[2] + 1}, {hi[0] - 1, hi[1] - 1, hi[2] - 1}, 0);
}

}  // namespace

TEST(LabelIslands, FillHolesFillsAnEnclosedCavity) {
    // Two hollow cubes of label 1: 5^3 with a 3^3 cavity and 4^3 with a 2^3 cavity.
    LabelMap m = grid(16, 9, 9);
    hollowBox(m, {1, 1, 1}, {5, 5, 5}, 1);
    hollowBox(m, {9, 2, 2}, {12, 5, 5}, 1);
    EXPECT_EQ(fillHoles(m, 1), 27u + 8u);
    EXPECT_EQ(m.count(1), 125u + 64u) << "both cubes are solid";
    EXPECT_EQ(m.at(0, 0, 0), 0) << "the outside stays background";
    EXPECT_EQ(fillHoles(m, 1), 0u) << "idempotent";
}

TEST(LabelIslands, FillHolesLeavesCavitiesOpenToTheBorder) {
    // A cup: a solid block of label 1 with a well that reaches the volume's bottom face (k = 0).
    LabelMap m = grid(8, 8, 8);
    fillBox(m, {1, 1, 0}, {6, 6, 6}, 1);
    fillBox(m, {3, 3, 0}, {4, 4, 4}, 0);
    // A closed room joined to the outside background by a one-voxel channel: not a hole either.
    LabelMap n = grid(9, 9, 9);
    hollowBox(n, {1, 1, 1}, {6, 6, 6}, 1);
    n.at(6, 3, 3) = 0;
    const LabelMap cup = m, room = n;
    EXPECT_EQ(fillHoles(m, 1), 0u);
    EXPECT_EQ(fillHoles(n, 1), 0u);
    EXPECT_TRUE(std::equal(m.data(), m.data() + m.voxelCount(), cup.data()));
    EXPECT_TRUE(std::equal(n.data(), n.data() + n.voxelCount(), room.data()));
}

TEST(LabelIslands, FillHolesKeepsCavitiesHoldingAnotherLabel) {
    // Label 1's cube A holds a voxel of label 2 in its 3^3 cavity; cube B's cavity is empty.
    LabelMap m = grid(16, 8, 8);
    hollowBox(m, {1, 1, 1}, {5, 5, 5}, 1);
    m.at(3, 3, 3) = 2;
    hollowBox(m, {8, 1, 1}, {12, 5, 5}, 1);
    EXPECT_EQ(fillHoles(m, 1), 27u) << "only cube B's cavity";
    EXPECT_EQ(m.at(3, 3, 3), 2) << "the other label is not overwritten";
    EXPECT_EQ(m.count(2), 1u);
    EXPECT_EQ(m.at(2, 2, 2), 0) << "nor is the background around it";
    EXPECT_EQ(m.count(1), 98u + 125u);
    EXPECT_EQ(fillHoles(m, 2), 0u) << "a single voxel has no hole";
}
