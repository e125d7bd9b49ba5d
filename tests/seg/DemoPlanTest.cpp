/// @brief `lucent --demo`'s plan (DemoPlan.h) grows a structure that is visible, never a lone bright
/// dot: a float volume whose brightest 5 % are scattered dots (issue 43: an MR's demo grew 1 voxel),
/// and the real CT head's skull.
#include "lucent/core/seg/DemoPlan.h"
#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>

using namespace lucent;

namespace {

LabelMap grow(const SegmentationRequest& request) {
    RegionGrowingCpu engine;
    engine.start(request);
    engine.run();
    LabelMap out;
    engine.result(out);
    return out;
}

std::size_t onSlice(const LabelMap& labels, int k) {
    const auto& d = labels.geometry().dims;
    std::size_t n = 0;
    for (int j = 0; j < d[1]; ++j)
        for (int i = 0; i < d[0]; ++i) n += labels[labels.geometry().index(i, j, k)] != 0;
    return n;
}

bool inBall(int i, int j, int k) { return (i - 32) * (i - 32) + (j - 32) * (j - 32) + (k - 20) * (k - 20) <= 144; }

}  // namespace

TEST(DemoPlan, ScatteredBrightDotsAreSkippedForTheVisibleStructureBelowThem) {
    // 64 x 64 x 36 floats: noise in [0, 100), 6 % of the background scattered dots in [200, 300) (the
    // brightest 5 %, each alone or in clumps of a few voxels), and a ball of 116.75 (4.9 %).
    Geometry g;
    g.dims = {64, 64, 36};
    Volume v(g, PixelType::Float32);
    std::mt19937 random(7);
    std::uniform_real_distribution<float> noise(0.f, 100.f), dot(200.f, 300.f), chance(0.f, 1.f);
    std::size_t ball = 0;
    for (int k = 0; k < 36; ++k)
        for (int j = 0; j < 64; ++j)
            for (int i = 0; i < 64; ++i) {
                const bool inside = inBall(i, j, k);
                ball += inside;
                const float background = chance(random) < 0.06f ? dot(random) : noise(random);
                v.setValue(g.index(i, j, k), inside ? 116.75 : double(background));
            }
    const DemoPlan plan = planDemo(v);
    ASSERT_EQ(plan.growing.seeds.size(), 1u);
    EXPECT_EQ(plan.growing.seeds[0].k, plan.snake.snake.slice) << "the seed lies on the slice the demo shows";
    EXPECT_DOUBLE_EQ(plan.growing.regionGrowing.lower, 116.75) << "the 90th percentile: the ball's value";
    const LabelMap grown = grow(plan.growing);
    std::size_t ballGrown = 0;
    for (int k = 0; k < 36; ++k)
        for (int j = 0; j < 64; ++j)
            for (int i = 0; i < 64; ++i) ballGrown += inBall(i, j, k) && grown[g.index(i, j, k)];
    EXPECT_EQ(ballGrown, ball) << "the ball is grown whole";
    EXPECT_GE(onSlice(grown, plan.snake.snake.slice), std::size_t(0.005 * 64 * 64)) << "visible on the demo's slice";
}

TEST(DemoPlan, AVolumeWhoseTopValuesAreOneStructureKeepsTheNinetyFifthPercentile) {
    // A plate of 1000 over a quarter of the volume in 0: the top 5 % is the plate, grown whole.
    Geometry g;
    g.dims = {32, 32, 18};
    Volume v(g, PixelType::Int16);
    for (int k = 0; k < 18; ++k)
        for (int j = 0; j < 32; ++j)
            for (int i = 0; i < 32; ++i) v.setValue(g.index(i, j, k), i < 8 ? 1000 : 0);
    const DemoPlan plan = planDemo(v);
    EXPECT_EQ(plan.growing.regionGrowing.lower, 1000);
    EXPECT_EQ(plan.growing.seeds[0].j, 16) << "on the middle row";
    EXPECT_EQ(grow(plan.growing).count(1), std::size_t(8 * 32 * 18));
}

TEST(DemoPlan, TheRealCtHeadGrowsItsSkullFromTheMiddleRow) {
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume ct = io::readVolumeFile(path);
    const DemoPlan plan = planDemo(ct);
    const VoxelIndex seed = plan.growing.seeds.at(0);
    EXPECT_EQ(seed.j, ct.geometry().dims[1] / 2);
    EXPECT_EQ(seed.k, 60);
    EXPECT_GE(ct.value(seed.i, seed.j, seed.k), 300) << "a seed in bone";
    const LabelMap skull = grow(plan.growing);
    EXPECT_GT(skull.count(1), 100000u) << "the skull, not a fragment";
}
