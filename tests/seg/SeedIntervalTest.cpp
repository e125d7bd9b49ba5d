/// @brief The region growing interval estimated at the first seed (SeedInterval.h): flat, plate,
/// texture beside a background (expectations from the rule's definition), the real CT head's skull.
#include "SyntheticVolumes.h"

#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/core/seg/SeedInterval.h"
#include "lucent/io/VolumeFile.h"

#include <gtest/gtest.h>

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

TEST(SeedInterval, AFlatRegionGivesItsValuePlusMinusTwoPercentOfTheRange) {
    const Volume v = shapeVolume(
        {20, 20, 20}, [](int i, int, int) { return i < 12; }, 1000, 0, 0);
    const auto p = seedInterval(v, {{5, 10, 10}}, {0, 1100});
    EXPECT_EQ(p.lower, std::floor(1000 - 0.02 * 1100));
    EXPECT_EQ(p.upper, std::ceil(1000 + 0.02 * 1100));
}

TEST(SeedInterval, ASeedOnAThinPlateKeepsThePlateOnly) {
    // A plate of 1500, two voxels thick (k = 9, 10), in 40: the seed's cube is 2/5 plate, 3/5 background.
    auto plate = [](int, int, int k) { return k == 9 || k == 10; };
    const Volume v = shapeVolume({20, 20, 20}, plate, 1500, 40, 0);
    const auto p = seedInterval(v, {{10, 10, 10}}, {40, 1500});
    // Face differences are mostly 0 (no noise): only the seed's value is kept; half-width 2 % of 1460.
    EXPECT_EQ(p.lower, std::floor(1500 - 0.02 * 1460));
    EXPECT_EQ(p.upper, std::ceil(1500 + 0.02 * 1460));
    EXPECT_EQ(grow(v, {10, 10, 10}, p).count(1), 2u * 20 * 20);

    // With noise (+-10) the plate is still grown exactly, the background never.
    LabelMap truth;
    const Volume noisy = shapeVolume({20, 20, 20}, plate, 1500, 40, 10, &truth);
    const auto q = seedInterval(noisy, {{10, 10, 10}}, noisy.range());
    EXPECT_GT(q.lower, 50);
    const LabelMap grown = grow(noisy, {10, 10, 10}, q);
    EXPECT_EQ(grown.count(1), truth.count(1));
    EXPECT_DOUBLE_EQ(lucent::testing::dice(grown, truth), 1.0);
}

TEST(SeedInterval, ATextureBesideABackgroundGivesTheTexturesMeanPlusMinusTwoAndAHalfSigma) {
    // A 900/1100 checkerboard for i < 10, 0 beyond; the seed's cube (i = 7..11) has 3 textured
    // columns and 2 of background. Face differences: 170 of 200, 105 of 0, 25 across the edge, so
    // the median is 200, the noise 1.4826 * 200 / sqrt 2 = 210 and the cut (3 x 210) keeps the
    // texture's two values but not the 0s.
    Geometry g;
    g.dims = {20, 20, 20};
    Volume v(g, PixelType::Int16);
    for (int k = 0; k < 20; ++k)
        for (int j = 0; j < 20; ++j)
            for (int i = 0; i < 20; ++i) v.setValue(g.index(i, j, k), i >= 10 ? 0 : (i + j + k) % 2 ? 900 : 1100);
    const VoxelIndex seed{9, 10, 10};
    double sum = 0, sum2 = 0, n = 0;
    for (int k = 8; k <= 12; ++k)
        for (int j = 8; j <= 12; ++j)
            for (int i = 7; i <= 9; ++i) {
                const double x = v.value(i, j, k);
                sum += x, sum2 += x * x, ++n;
            }
    const double mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
    const auto p = seedInterval(v, {seed}, {0, 1100});
    EXPECT_EQ(p.lower, std::floor(mean - 2.5 * sd));
    EXPECT_EQ(p.upper, std::ceil(mean + 2.5 * sd));
    EXPECT_GT(p.lower, 0);
    EXPECT_LT(p.lower, 900);
    EXPECT_GT(p.upper, 1100);
    // 26-connected (the checkerboard's colours touch at edges), region growing takes the texture.
    auto q = p;
    q.connectivity = 26;
    EXPECT_EQ(grow(v, seed, q).count(1), 10u * 20 * 20);
}

TEST(SeedInterval, NoSeedOrASeedOutsideIsAnError) {
    const Volume v = shapeVolume(
        {8, 8, 8}, [](int, int, int) { return true; }, 100, 0, 0);
    EXPECT_THROW(seedInterval(v, {}, {0, 100}), std::invalid_argument);
    EXPECT_THROW(seedInterval(v, {{8, 0, 0}}, {0, 100}), std::invalid_argument);
}

TEST(SeedInterval, ASeedOnTheCtHeadsCorticalBoneGivesTheSkullNotTheHead) {
    const char* env = std::getenv("LUCENT_DATA");
    const std::string path = std::string(env ? env : "") + "/cranium/cranium.mhd";
    if (!env || !std::filesystem::exists(path)) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    const Volume ct = io::readVolumeFile(path);
    // The first voxel of at least 1200 HU along row 128 of slice 64, from the left: the skull's outer table.
    VoxelIndex seed{-1, 128, 64};
    for (int i = 0; i < ct.geometry().dims[0] && seed.i < 0; ++i)
        if (ct.value(i, 128, 64) >= 1200) seed.i = i;
    ASSERT_GE(seed.i, 0);
    const auto p = seedInterval(ct, {seed}, ct.range());
    const LabelMap bone = grow(ct, seed, p);
    const double ml = bone.count(1) * ct.geometry().voxelVolumeMl();
    std::printf("CT skull seed (%d, %d, %d) %.0f HU: interval %.0f..%.0f, %.1f ml\n", seed.i, seed.j, seed.k,
                ct.value(seed.i, seed.j, seed.k), p.lower, p.upper, ml);
    EXPECT_GT(p.lower, 300);
    EXPECT_LT(ml, 500.0);
    EXPECT_GT(ml, 0.0);
}
