/// @brief The region growing interval estimated at the first seed (SeedInterval.h): flat, plate,
/// texture beside a background (expectations from the rule's definition), the real CT head's skull.
#include "SyntheticVolumes.h"

#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/core/seg/SeedInterval.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <random>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

using namespace lucent;
using lucent::testing::shapeVolume;

namespace {

LabelMap grow(const Volume& v, const VoxelIndex& seed, const RegionGrowingParams& p) {
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {seed};
    r.regionGrowing = p;
    RegionGrowingCpu engine;
    engine.start(r);
    engine.run();
    LabelMap out;
    engine.result(out);
    return out;
}

}  // namespace

/// A volume of three tissues known by construction, in slabs along i (Gaussian noise): a large
/// class at 30 (SD 12, i < 24), a shoulder at -80 (SD 15, i 24..27) with no valley of its own
/// between it and the large class, and a broad class spread evenly over 300..1500 (i >= 30) with
/// partial-volume voxels evenly over 30..300 between them (i 28, 29): the CT head's brain, fat and bone.
Volume threeTissues() {
    Geometry g;
    g.dims = {40, 40, 40};
    Volume v(g, PixelType::Int16);
    std::mt19937 rng(7);
    std::normal_distribution<double> soft(30, 12), fat(-80, 15);
    std::uniform_real_distribution<double> bone(300, 1500), partial(30, 300);
    for (int k = 0; k < 40; ++k)
        for (int j = 0; j < 40; ++j)
            for (int i = 0; i < 40; ++i) {
                const double x = i < 24 ? soft(rng) : i < 28 ? fat(rng) : i < 30 ? partial(rng) : bone(rng);
                v.setValue(g.index(i, j, k), std::round(x));
            }
    return v;
}

TEST(SeedInterval, ASeedInTheLargeClassLeavesOutTheShoulderBesideIt) {
    const Volume v = threeTissues();
    const auto p = seedInterval(v, {{10, 20, 20}}, v.range());
    // The shoulder's voxels lie below -35 (3 SD) nearly all: the class must stop above them, and
    // take the large class's own spread (30 +- 2.5 SD at least on the low side).
    EXPECT_GT(p.lower, -40) << p.lower << ".." << p.upper;
    EXPECT_LT(p.lower, 30 - 2 * 12) << p.lower << ".." << p.upper;
    EXPECT_GE(p.upper, 30 + 2 * 12);
    EXPECT_LT(p.upper, 300) << "bone is another class";
}

TEST(SeedInterval, ASeedInTheBroadClassTakesItAllFromWhereTheLargeClassEnds) {
    const Volume v = threeTissues();
    const VoxelIndex seed{35, 20, 20};
    const auto p = seedInterval(v, {seed}, v.range());
    EXPECT_EQ(p.upper, v.range().second) << "the broad class runs to the data's top";
    EXPECT_GT(p.lower, 30 + 3 * 12) << "not into the large class: " << p.lower;
    EXPECT_LT(p.lower, 320) << "from where the large class ends, all of the broad one: " << p.lower;
    // Grown, it is every bone voxel (i >= 30) and hardly any partial-volume one.
    const LabelMap grown = grow(v, seed, p);
    std::size_t bone = 0;
    for (int k = 0; k < 40; ++k)
        for (int j = 0; j < 40; ++j)
            for (int i = 30; i < 40; ++i) bone += grown.at(i, j, k);
    EXPECT_EQ(bone, 10u * 40 * 40);
    EXPECT_LT(grown.count(1), bone + 2u * 40 * 40 / 2) << "at most half the partial-volume slabs";
}

TEST(SeedInterval, TwoSeparateTissuesGiveTheSeedsTissueExactly) {
    LabelMap truth;
    auto plate = [](int, int, int k) { return k == 9 || k == 10; };
    const Volume noisy = shapeVolume({20, 20, 20}, plate, 1500, 40, 10, &truth);
    const auto q = seedInterval(noisy, {{10, 10, 10}}, noisy.range());
    EXPECT_GT(q.lower, 50);
    const LabelMap grown = grow(noisy, {10, 10, 10}, q);
    EXPECT_DOUBLE_EQ(lucent::testing::dice(grown, truth), 1.0);
    // A flat volume: its one value.
    const Volume flat = shapeVolume({8, 8, 8}, [](int, int, int) { return true; }, 100, 0, 0);
    const auto f = seedInterval(flat, {{1, 1, 1}}, flat.range());
    EXPECT_EQ(f.lower, 100);
    EXPECT_EQ(f.upper, 100);
}

TEST(SeedInterval, StepsWidenAndNarrowAroundTheSeedByATenthOfEachSide) {
    RegionGrowingParams p;
    p.lower = -38;
    p.upper = 82;
    const auto wider = stepInterval(p, 22, 1, {-1024, 3000}, 1);
    EXPECT_EQ(wider.lower, -44);  // 60 below the seed: 6 further
    EXPECT_EQ(wider.upper, 88);   // 60 above: 6 further
    const auto narrower = stepInterval(p, 22, -1, {-1024, 3000}, 1);
    EXPECT_EQ(narrower.lower, -32);
    EXPECT_EQ(narrower.upper, 76);
    const auto floor = stepInterval(p, 22, -100, {-1024, 3000}, 1);
    EXPECT_EQ(floor.lower, 22) << "never past the seed";
    EXPECT_EQ(floor.upper, 22);
    const auto top = stepInterval(p, 22, 100, {-1024, 3000}, 1);
    EXPECT_EQ(top.lower, -1024) << "never outside the data";
    EXPECT_EQ(top.upper, 3000);
}

TEST(SeedInterval, NoSeedOrASeedOutsideIsAnError) {
    const Volume v = shapeVolume(
        {8, 8, 8}, [](int, int, int) { return true; }, 100, 0, 0);
    EXPECT_THROW(seedInterval(v, {}, {0, 100}), std::invalid_argument);
    EXPECT_THROW(seedInterval(v, {{8, 0, 0}}, {0, 100}), std::invalid_argument);
}

/// The seed's component of `mask` (6-connected), grown by the engine with a [1, 1] interval.
LabelMap componentOf(const LabelMap& mask, const VoxelIndex& seed) {
    Volume v(mask.geometry(), PixelType::Int16);
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) v.setValue(i, mask.data()[i]);
    RegionGrowingParams one;
    one.lower = one.upper = 1;
    return grow(v, seed, one);
}

TEST(SeedInterval, OnTheCtHeadABoneSeedGivesTheSkullAndABrainSeedTheBrainNotTheFat) {
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume ct = io::readVolumeFile(path);
    // The first voxel of at least 1200 HU along row 128 of slice 64, from the left: the skull's outer table.
    VoxelIndex seed{-1, 128, 64};
    for (int i = 0; i < ct.geometry().dims[0] && seed.i < 0; ++i)
        if (ct.value(i, 128, 64) >= 1200) seed.i = i;
    ASSERT_GE(seed.i, 0);
    const auto p = seedInterval(ct, {seed}, ct.range());
    const LabelMap grown = grow(ct, seed, p);
    // Issue 43 item 3's bar: >= 60 % of the seed's >= 300 HU component, >= 95 % of it bone (>= 300 HU).
    LabelMap bone(ct.geometry());
    for (std::size_t i = 0; i < ct.voxelCount(); ++i) bone.data()[i] = ct.value(i) >= 300;
    const LabelMap skull = componentOf(bone, seed);
    std::size_t inSkull = 0, boneVoxels = 0;
    for (std::size_t i = 0; i < ct.voxelCount(); ++i) {
        inSkull += grown.data()[i] && skull.data()[i];
        boneVoxels += grown.data()[i] && bone.data()[i];
    }
    std::printf("CT skull seed (%d, %d, %d) %.0f HU: interval %.0f..%.0f, %.0f %% of its component, %.1f %% bone\n",
                seed.i, seed.j, seed.k, ct.value(seed.i, seed.j, seed.k), p.lower, p.upper,
                100.0 * double(inSkull) / double(skull.count(1)), 100.0 * double(boneVoxels) / double(grown.count(1)));
    EXPECT_GE(double(inSkull), 0.60 * double(skull.count(1)));
    EXPECT_GE(double(boneVoxels), 0.95 * double(grown.count(1)));

    // Brain parenchyma beside the left ventricle: soft tissue (-30..150 HU: not fat, not bone), >= 95 %.
    const VoxelIndex brain{100, 150, 64};
    const auto b = seedInterval(ct, {brain}, ct.range());
    const LabelMap region = grow(ct, brain, b);
    std::size_t soft = 0;
    for (std::size_t i = 0; i < ct.voxelCount(); ++i) soft += region.data()[i] && ct.value(i) >= -30 && ct.value(i) <= 150;
    std::printf("CT brain seed %.0f HU: interval %.0f..%.0f, %zu voxels, %.1f %% soft tissue\n",
                ct.value(brain.i, brain.j, brain.k), b.lower, b.upper, region.count(1),
                100.0 * double(soft) / double(region.count(1)));
    EXPECT_GE(double(soft), 0.95 * double(region.count(1)));
    EXPECT_GT(region.count(1), 100000u) << "the brain, not a pocket of it";
}
