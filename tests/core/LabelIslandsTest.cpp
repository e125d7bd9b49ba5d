/// @brief Island tools on maps with known components: sizes, 6-connectivity (edges and corners do
/// not connect), ties broken by memory order, other labels untouched; and the real ITK label map.
#include "lucent/core/LabelIslands.h"

#include <gtest/gtest.h>

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
