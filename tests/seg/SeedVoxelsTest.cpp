/// @brief The seed voxels a map's box holds, gathered on all cores (what the CUDA grow from seeds
/// uploads), against a plain loop: rows that are no multiple of a word, boxes clipped to the grid,
/// empty boxes; the check that a map holds a seed, down to its last byte; and a map's value counts
/// (the viewer's labels present), sparse and dense, against a plain count.
#include "lucent/core/seg/SeedVoxels.h"

#include <gtest/gtest.h>

#include <random>

using namespace lucent;

namespace {

LabelMap sparseMap(std::array<int, 3> dims, unsigned seed, double density) {
    Geometry g;
    g.dims = dims;
    LabelMap m(g);
    std::mt19937 rng(seed);
    std::bernoulli_distribution painted(density);
    std::uniform_int_distribution<int> label(1, 255);
    for (std::size_t n = 0; n < m.voxelCount(); ++n)
        if (painted(rng)) m[n] = std::uint8_t(label(rng));
    return m;
}

std::vector<std::uint64_t> plainLoop(const LabelMap& m, const VoxelBox& box) {
    std::vector<std::uint64_t> out;
    const Geometry& g = m.geometry();
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i)
                if (box.contains(i, j, k) && m.at(i, j, k)) out.push_back(packSeedVoxel(g.index(i, j, k), m.at(i, j, k)));
    return out;
}

}  // namespace

TEST(SeedVoxels, GatheredAsAPlainLoopFindsThemInIndexOrder) {
    const LabelMap m = sparseMap({37, 19, 11}, 1, 0.05);
    for (const VoxelBox& box : {VoxelBox{{0, 0, 0}, {36, 18, 10}}, VoxelBox{{3, 2, 1}, {20, 17, 9}}, VoxelBox{{9, 0, 4}, {9, 18, 4}},
                                VoxelBox{{-5, -5, -5}, {100, 100, 100}}, VoxelBox{{30, 10, 5}, {29, 10, 5}}}) {
        const auto got = gatherSeedVoxels(m, box, 3);
        EXPECT_EQ(got, plainLoop(m, box)) << box.lo[0] << "," << box.lo[1] << "," << box.lo[2];
        for (const std::uint64_t v : got) EXPECT_EQ(m[seedVoxelIndex(v)], seedVoxelLabel(v));
    }
    EXPECT_FALSE(plainLoop(m, {{0, 0, 0}, {36, 18, 10}}).empty());
}

TEST(SeedVoxels, AMapHoldsASeedDownToItsLastByte) {
    Geometry g;
    g.dims = {1031, 1024, 5};  // more than one task of the check, and no multiple of a word
    LabelMap m(g);
    EXPECT_FALSE(holdsSeed(m, 4));
    m[m.voxelCount() - 1] = 7;
    EXPECT_TRUE(holdsSeed(m, 4));
    m[m.voxelCount() - 1] = 0;
    m[0] = 1;
    EXPECT_TRUE(holdsSeed(m, 1));
}

TEST(SeedVoxels, ValueCountsEqualAPlainCountSparseOrDense) {
    for (const double density : {0.001, 0.3, 1.0}) {
        const LabelMap m = sparseMap({1031, 67, 71}, 7, density);  // several tasks, no multiple of a word
        std::array<std::size_t, 256> want{};
        for (std::size_t n = 0; n < m.voxelCount(); ++n) ++want[m[n]];
        EXPECT_EQ(valueCounts(m, 3), want) << density;
        EXPECT_EQ(valueCounts(m, 1), want) << density;
    }
}
