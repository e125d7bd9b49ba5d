/// @brief The 3D pane's coarse volume: block means counted by hand (edge blocks included), int16
/// rounding, the cells' grid in patient space, and a factor of 1 that copies.
#include "lucent/core/VolumeReduction.h"

#include <gtest/gtest.h>

using namespace lucent;

namespace {
/// 5 x 2 x 2, value i + 10 j + 100 k: blocks of 2 hold known sums.
Volume ramp(PixelType type) {
    Geometry g;
    g.dims = {5, 2, 2};
    g.spacing = {1.0, 2.0, 3.0};
    g.origin = {10, 20, 30};
    Volume v(g, type);
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 5; ++i) v.setValue(g.index(i, j, k), i + 10 * j + 100 * k);
    return v;
}
}  // namespace

TEST(VolumeReduction, CellsAreTheirBlocksMeans) {
    const Volume fine = ramp(PixelType::Float32);
    const LabelReduction plan = planLabelReduction(fine.geometry().dims, 3);  // factor 2: 3 x 1 x 1 cells
    ASSERT_EQ(plan.factor, 2);
    const Volume coarse = reduceVolume(fine, plan);
    ASSERT_EQ(coarse.geometry().dims, (std::array<int, 3>{3, 1, 1}));
    // Block (0..1, 0..1, 0..1): i mean 0.5, j mean 0.5 -> 5, k mean 0.5 -> 50.
    EXPECT_FLOAT_EQ(coarse.value(0, 0, 0), 55.5f);
    EXPECT_FLOAT_EQ(coarse.value(1, 0, 0), 57.5f);
    EXPECT_FLOAT_EQ(coarse.value(2, 0, 0), 59.0f) << "the edge block holds x = 4 alone";
    EXPECT_EQ(coarse.pixelType(), PixelType::Float32);
}

TEST(VolumeReduction, Int16MeansRoundToNearest) {
    const Volume coarse = reduceVolume(ramp(PixelType::Int16), planLabelReduction({5, 2, 2}, 3));
    EXPECT_EQ(coarse.value(0, 0, 0), 56) << "55.5 rounds away from zero";
    EXPECT_EQ(coarse.value(2, 0, 0), 59);
}

TEST(VolumeReduction, TheCellsLieWhereTheirBlocksAre) {
    const Volume fine = ramp(PixelType::Int16);
    const Volume coarse = reduceVolume(fine, planLabelReduction({5, 2, 2}, 3));
    const Vec3 cell = coarse.geometry().voxelToPatient({1, 0, 0});
    const Vec3 block = fine.geometry().voxelToPatient({2.5, 0.5, 0.5});
    EXPECT_DOUBLE_EQ(cell.x, block.x);
    EXPECT_DOUBLE_EQ(cell.y, block.y);
    EXPECT_DOUBLE_EQ(cell.z, block.z);
}

TEST(VolumeReduction, AFactorOfOneCopies) {
    const Volume fine = ramp(PixelType::Int16);
    const Volume same = reduceVolume(fine, planLabelReduction({5, 2, 2}, 1000));
    ASSERT_EQ(same.voxelCount(), fine.voxelCount());
    for (std::size_t i = 0; i < fine.voxelCount(); ++i) EXPECT_EQ(same.value(i), fine.value(i));
}
