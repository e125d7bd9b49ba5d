/// @brief Region growing: exactly the seeds' component of the threshold mask (by construction or by a
/// breadth-first search written here); connectivity, ROI, mask, threads.
#include "SyntheticVolumes.h"

#include "lucent/core/seg/RegionGrowingCpu.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <queue>
#include <random>

using namespace lucent;
using lucent::testing::shapeVolume;

namespace {

LabelMap grow(const Volume& v, std::vector<VoxelIndex> seeds, double lo, double hi, int connectivity = 6,
              unsigned threads = 0, int perStep = 64) {
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = std::move(seeds);
    r.regionGrowing = {lo, hi, connectivity};
    r.threads = threads;
    RegionGrowingCpu engine;
    engine.start(r);
    engine.run(perStep);
    LabelMap out;
    engine.result(out);
    return out;
}

bool same(const LabelMap& a, const LabelMap& b) {
    return a.voxelCount() == b.voxelCount() && std::memcmp(a.data(), b.data(), a.voxelCount()) == 0;
}

/// The true answer: the seeds' component of {lo <= value <= hi}, breadth first over 6 (faces) or 26
/// (faces, edges, corners) neighbours.
LabelMap component(const Volume& v, const std::vector<VoxelIndex>& seeds, double lo, double hi, int connectivity) {
    const Geometry& g = v.geometry();
    LabelMap out(g);
    auto take = [&](int i, int j, int k) {
        return g.contains(i, j, k) && !out.at(i, j, k) && v.value(i, j, k) >= lo && v.value(i, j, k) <= hi;
    };
    std::queue<std::array<int, 3>> q;
    for (const auto& s : seeds)
        if (take(s.i, s.j, s.k)) {
            out.at(s.i, s.j, s.k) = 1;
            q.push({s.i, s.j, s.k});
        }
    while (!q.empty()) {
        const auto [i, j, k] = q.front();
        q.pop();
        for (int dk = -1; dk <= 1; ++dk)
            for (int dj = -1; dj <= 1; ++dj)
                for (int di = -1; di <= 1; ++di) {
                    const int steps = std::abs(di) + std::abs(dj) + std::abs(dk);
                    if (steps == 0 || (connectivity == 6 && steps > 1) || !take(i + di, j + dj, k + dk)) continue;
                    out.at(i + di, j + dj, k + dk) = 1;
                    q.push({i + di, j + dj, k + dk});
                }
    }
    return out;
}

/// Voxels with value in [lo, hi].
std::size_t maskCount(const Volume& v, double lo, double hi) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < v.geometry().voxelCount(); ++i) n += v.value(i) >= lo && v.value(i) <= hi;
    return n;
}

}  // namespace

TEST(RegionGrowing, NoisySphereExactlyAndNotItsTwin) {
    // Two spheres of the same intensity; only the seeded one may grow. Noise (+-20) never crosses
    // the interval edge (50): the answer is exactly the seeded sphere.
    LabelMap truth;
    auto sphereA = [](int i, int j, int k) {
        return (i - 14) * (i - 14) + (j - 16) * (j - 16) + (k - 12) * (k - 12) <= 81;
    };
    auto sphereB = [](int i, int j, int k) {
        return (i - 40) * (i - 40) + (j - 16) * (j - 16) + (k - 12) * (k - 12) <= 64;
    };
    const Volume v = shapeVolume(
        {56, 32, 24}, [&](int i, int j, int k) { return sphereA(i, j, k) || sphereB(i, j, k); }, 100, 0, 20, nullptr);
    const LabelMap got = grow(v, {{14, 16, 12}}, 50, 200);
    std::size_t wrong = 0;
    for (int k = 0; k < 24; ++k)
        for (int j = 0; j < 32; ++j)
            for (int i = 0; i < 56; ++i) wrong += got.at(i, j, k) != (sphereA(i, j, k) ? 1 : 0);
    EXPECT_EQ(wrong, 0u);
}

TEST(RegionGrowing, BentTubeFollowedToItsEnd) {
    // A tube that turns twice: reached only through 6-connected steps along its axis.
    auto tube = [](int i, int j, int k) {
        const bool leg1 = k < 20 && (i - 8) * (i - 8) + (j - 8) * (j - 8) <= 4;
        const bool leg2 = k >= 18 && k <= 22 && (j - 8) * (j - 8) + (k - 20) * (k - 20) <= 4 && i >= 8 && i <= 30;
        const bool leg3 = i >= 28 && i <= 32 && k <= 22 && (i - 30) * (i - 30) + (j - 8) * (j - 8) <= 4 && k >= 2;
        return leg1 || leg2 || leg3;
    };
    LabelMap truth;
    const Volume v = shapeVolume({40, 16, 26}, tube, 300, 0, 40, &truth);
    EXPECT_TRUE(same(grow(v, {{8, 8, 0}}, 200, 400), truth));
}

TEST(RegionGrowing, CornerContactNeeds26Connectivity) {
    Geometry g;
    g.dims = {4, 4, 4};
    Volume v(g, PixelType::Int16);
    v.setValue(g.index(1, 1, 1), 10);
    v.setValue(g.index(2, 2, 2), 10);  // touches (1,1,1) only by a corner
    EXPECT_EQ(grow(v, {{1, 1, 1}}, 5, 20, 6).count(1), 1u);
    EXPECT_EQ(grow(v, {{1, 1, 1}}, 5, 20, 26).count(1), 2u);
}

TEST(RegionGrowing, ThreadsAndStepSizesGiveTheComponent) {
    auto pattern = [](int i, int j, int k) { return (i * 7 + j * 3 + k * 5) % 11 < 7; };
    const Volume v = shapeVolume({48, 48, 40}, pattern, 100, 0, 10);
    const LabelMap truth = component(v, {{0, 0, 0}}, 50, 150, 6);
    ASSERT_GT(truth.count(1), 1000u);
    EXPECT_TRUE(same(grow(v, {{0, 0, 0}}, 50, 150, 6, 1, 1000), truth));
    EXPECT_TRUE(same(grow(v, {{0, 0, 0}}, 50, 150, 6, 4, 1), truth));
    EXPECT_TRUE(same(grow(v, {{0, 0, 0}}, 50, 150, 6, 2, 3), truth));
    // A whole plane of seeds: fronts of over 32768 voxels, the size from which the engine splits
    // them between threads.
    const Volume wide = shapeVolume({240, 240, 8}, pattern, 100, 0, 10);
    std::vector<VoxelIndex> plane;
    for (int j = 0; j < 240; ++j)
        for (int i = 0; i < 240; ++i) plane.push_back({i, j, 0});
    const LabelMap wideTruth = component(wide, plane, 50, 150, 6);
    ASSERT_GT(wideTruth.count(1), 4u * 32768u);
    for (int connectivity : {6, 26}) {
        const LabelMap t = connectivity == 6 ? wideTruth : component(wide, plane, 50, 150, 26);
        EXPECT_TRUE(same(grow(wide, plane, 50, 150, connectivity, 1, 1), t)) << connectivity;
        EXPECT_TRUE(same(grow(wide, plane, 50, 150, connectivity, 4, 1), t)) << connectivity;
    }
}

TEST(RegionGrowing, NothingWrapsAroundTheVolumesEdges) {
    // A checkerboard on the volume's side faces: no two mask voxels are face neighbours, but with even
    // dimensions a step off the +x face onto the next row (or off +y onto the next slice) would land
    // on a mask voxel. Each seed must stay alone.
    auto board = [](int i, int j, int k) { return (i == 0 || i == 7 || j == 0 || j == 5) && (i + j + k) % 2 == 0; };
    const Volume v = shapeVolume({8, 6, 4}, board, 100, 0, 0);
    const std::vector<VoxelIndex> seeds = {{7, 1, 0}, {7, 2, 1}, {0, 2, 0}, {0, 1, 1}, {2, 5, 1}, {3, 0, 1}};
    const LabelMap truth = component(v, seeds, 50, 150, 6);
    EXPECT_EQ(truth.count(1), seeds.size());
    EXPECT_TRUE(same(grow(v, seeds, 50, 150, 6), truth));
}

TEST(RegionGrowing, WideFrontsOfThinColumnsLoseNothing) {
    // Columns along z, isolated in x-y by a checkerboard and seeded on slice 0: over 32768 seeds, so
    // the front is split between threads, and each column grows only through its own front voxel.
    const Volume v = shapeVolume(
        {260, 260, 5}, [](int i, int j, int) { return (i + j) % 2 == 0; }, 100, 0, 10);
    std::vector<VoxelIndex> plane;
    for (int j = 0; j < 260; ++j)
        for (int i = 0; i < 260; ++i) plane.push_back({i, j, 0});
    const LabelMap truth = component(v, plane, 50, 150, 6);
    ASSERT_EQ(truth.count(1), 260u * 130u * 5u);
    EXPECT_TRUE(same(grow(v, plane, 50, 150, 6, 1), truth));
    EXPECT_TRUE(same(grow(v, plane, 50, 150, 6, 4), truth));
}

TEST(RegionGrowing, OnlyTheSeededComponentsOfARandomMask) {
    // A quarter of the voxels in the interval, at random: below the 6-neighbour percolation threshold
    // (0.31) the mask falls apart into many components, above the 26-neighbour one (0.10) most join.
    Geometry g;
    g.dims = {40, 36, 32};
    Volume v(g, PixelType::Int16);
    std::mt19937 rng(23);
    std::uniform_int_distribution<int> value(0, 199);
    for (std::size_t n = 0; n < g.voxelCount(); ++n) v.setValue(n, value(rng));
    const std::size_t mask = maskCount(v, 0, 49);
    for (int connectivity : {6, 26}) {
        // Seeds: the first two voxels (in index order from the centre) whose component has 20 voxels or more.
        std::vector<VoxelIndex> seeds;
        for (std::size_t n = g.voxelCount() / 2; n < g.voxelCount() && seeds.size() < 2; ++n) {
            const VoxelIndex s{int(n % 40), int((n / 40) % 36), int(n / (40 * 36))};
            if (component(v, {s}, 0, 49, connectivity).count(1) >= 20) seeds.push_back(s);
        }
        ASSERT_EQ(seeds.size(), 2u);
        const LabelMap truth = component(v, seeds, 0, 49, connectivity);
        EXPECT_LT(truth.count(1), mask) << "the mask must hold other components";
        EXPECT_TRUE(same(grow(v, seeds, 0, 49, connectivity), truth)) << connectivity;
        EXPECT_TRUE(same(grow(v, seeds, 0, 49, connectivity, 3, 2), truth)) << connectivity;
    }
}

TEST(RegionGrowing, RoiAndMaskLimitTheRegion) {
    const Volume v = shapeVolume(
        {20, 20, 20}, [](int, int, int) { return true; }, 100, 0, 0);
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{5, 5, 5}};
    r.regionGrowing = {50, 150, 6};
    r.roi = VoxelBox{{2, 2, 2}, {9, 9, 9}};
    RegionGrowingCpu engine;
    engine.start(r);
    engine.run();
    LabelMap out;
    engine.result(out);
    EXPECT_EQ(out.count(1), 8u * 8u * 8u);

    LabelMap mask(v.geometry());
    for (int k = 0; k < 20; ++k)
        for (int j = 0; j < 20; ++j)
            for (int i = 0; i < 10; ++i) mask.at(i, j, k) = 1;
    r.roi.reset();
    r.mask = &mask;
    engine.start(r);
    engine.run();
    engine.result(out);
    EXPECT_EQ(out.count(1), 10u * 20u * 20u);
}

TEST(RegionGrowing, BadRequestsAreClearErrors) {
    const Volume v = shapeVolume(
        {8, 8, 8}, [](int, int, int) { return false; }, 100, 0, 0);
    RegionGrowingCpu engine;
    SegmentationRequest r;
    r.volume = &v;
    r.regionGrowing = {50, 150, 6};
    EXPECT_THROW(engine.start(r), std::invalid_argument);  // no seed
    r.seeds = {{9, 0, 0}};
    EXPECT_THROW(engine.start(r), std::invalid_argument);  // outside
    r.seeds = {{1, 1, 1}};
    EXPECT_THROW(engine.start(r), std::invalid_argument);  // seed value 0 is outside [50, 150]
    r.regionGrowing = {50, 150, 8};
    EXPECT_THROW(engine.start(r), std::invalid_argument);  // connectivity
}

TEST(RegionGrowing, StepsShowTheFrontAdvancing) {
    const Volume v = shapeVolume(
        {30, 30, 30}, [](int, int, int) { return true; }, 100, 0, 0);
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{0, 0, 0}};
    r.regionGrowing = {50, 150, 6};
    RegionGrowingCpu engine;
    engine.start(r);
    const StepReport first = engine.step(1);
    EXPECT_EQ(first.iterations, 1);
    EXPECT_EQ(first.convergence, 3.0);  // the three face neighbours of a corner
    EXPECT_FALSE(first.finished);
    const StepReport last = engine.run(5);
    EXPECT_TRUE(last.finished);
    EXPECT_EQ(last.iterations, 3 * 29 + 1);  // the far corner is 87 steps away; one more finds nothing
}
