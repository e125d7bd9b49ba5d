/// @brief Fuzzy connectedness: equal to a brute-force max-min oracle; the threshold object equals the
/// seeds' component over edges of affinity >= T; parameters estimated or given; ROI respected.
#include "SyntheticVolumes.h"

#include "lucent/core/seg/FuzzyConnectednessCpu.h"

#include <gtest/gtest.h>

#include <queue>
#include <random>

using namespace lucent;

namespace {

Volume randomVolume(std::array<int, 3> dims, PixelType type, unsigned seed) {
    Geometry g;
    g.dims = dims;
    Volume v(g, type);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, 12);
    for (int k = 0; k < dims[2]; ++k)
        for (int j = 0; j < dims[1]; ++j)
            for (int i = 0; i < dims[0]; ++i) {
                const double base = (i + j < dims[0]) ? 100 : 40;
                v.setValue(g.index(i, j, k), base + noise(rng));
            }
    return v;
}

/// Affinity exactly as the engine defines it (same shared functions).
std::uint16_t oracleAffinity(const Volume& v, const AffinityParams& p, std::size_t a, std::size_t b) {
    return combineAffinity(affinityG1(v.value(a) + v.value(b), p), affinityG2(v.value(a) - v.value(b), p));
}

/// Bellman-Ford style: relax every edge until nothing changes. No queue, no order: an independent check.
std::vector<std::uint16_t> bruteForce(const Volume& v, const AffinityParams& p, const std::vector<VoxelIndex>& seeds) {
    const Geometry& g = v.geometry();
    std::vector<std::uint16_t> c(g.voxelCount(), 0);
    for (const auto& s : seeds) c[g.index(s.i, s.j, s.k)] = kFullStrength;
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < g.dims[2]; ++k)
            for (int j = 0; j < g.dims[1]; ++j)
                for (int i = 0; i < g.dims[0]; ++i) {
                    const std::size_t a = g.index(i, j, k);
                    const int n[6][3] = {{i - 1, j, k}, {i + 1, j, k}, {i, j - 1, k}, {i, j + 1, k}, {i, j, k - 1}, {i, j, k + 1}};
                    for (const auto& q : n) {
                        if (!g.contains(q[0], q[1], q[2])) continue;
                        const std::size_t b = g.index(q[0], q[1], q[2]);
                        const std::uint16_t s = std::min(c[b], oracleAffinity(v, p, a, b));
                        if (s > c[a]) {
                            c[a] = s;
                            changed = true;
                        }
                    }
                }
    }
    return c;
}

}  // namespace

class FuzzyOracle : public ::testing::TestWithParam<PixelType> {};

TEST_P(FuzzyOracle, MapEqualsBruteForceBitForBit) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        const Volume v = randomVolume({11, 9, 7}, GetParam(), seed);
        SegmentationRequest r;
        r.volume = &v;
        r.seeds = {{1, 1, 1}, {2, 3, 5}};
        FuzzyConnectednessCpu engine;
        engine.start(r);
        engine.run(1);
        EXPECT_EQ(engine.connectivity(), bruteForce(v, engine.affinity(), r.seeds)) << "seed " << seed;
    }
}

INSTANTIATE_TEST_SUITE_P(Types, FuzzyOracle, ::testing::Values(PixelType::Int16, PixelType::Float32));

TEST(FuzzyConnectedness, ObjectIsTheComponentOverStrongEdges) {
    const Volume v = randomVolume({24, 20, 12}, PixelType::Int16, 7);
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{3, 3, 3}};
    FuzzyConnectednessCpu engine;
    engine.start(r);
    engine.run();
    const Geometry& g = v.geometry();
    for (double t : {0.2, 0.5, 0.8, 0.95}) {
        r.fuzzyConnectedness.threshold = t;
        ASSERT_EQ(engine.update(r), UpdateOutcome::Relabelled);
        LabelMap object;
        engine.result(object);
        // BFS from the seed over face edges whose affinity is at least T (quantised).
        const std::uint16_t tq = quantiseStrength(float(t));
        LabelMap reach(g);
        std::queue<std::size_t> q;
        const std::size_t s0 = g.index(3, 3, 3);
        reach[s0] = 1;
        q.push(s0);
        while (!q.empty()) {
            const std::size_t a = q.front();
            q.pop();
            const int i = int(a % g.dims[0]), j = int((a / g.dims[0]) % g.dims[1]), k = int(a / g.sliceSize());
            const int n[6][3] = {{i - 1, j, k}, {i + 1, j, k}, {i, j - 1, k}, {i, j + 1, k}, {i, j, k - 1}, {i, j, k + 1}};
            for (const auto& c : n) {
                if (!g.contains(c[0], c[1], c[2])) continue;
                const std::size_t b = g.index(c[0], c[1], c[2]);
                if (!reach[b] && oracleAffinity(v, engine.affinity(), a, b) >= tq) {
                    reach[b] = 1;
                    q.push(b);
                }
            }
        }
        EXPECT_EQ(lucent::testing::dice(object, reach), 1.0) << "threshold " << t;
        EXPECT_EQ(object.count(1), reach.count(1)) << "threshold " << t;
    }
}

TEST(FuzzyConnectedness, SeparatesTouchingRegions) {
    // Two touching boxes, 100 and 160, Gaussian-ish noise: seeded in the first, the object stays there.
    LabelMap truth;
    const Volume v = lucent::testing::shapeVolume({40, 20, 16}, [](int i, int, int) { return i < 20; }, 100, 160, 8, &truth);
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{10, 10, 8}};
    r.fuzzyConnectedness.threshold = 0.3;
    FuzzyConnectednessCpu engine;
    engine.start(r);
    engine.run();
    LabelMap out;
    engine.result(out);
    EXPECT_GT(lucent::testing::dice(out, truth), 0.98);
    EXPECT_NEAR(engine.affinity().mean, 100, 3);
}

TEST(FuzzyConnectedness, GivenParametersOverrideTheEstimate) {
    const Volume v = randomVolume({10, 10, 10}, PixelType::Int16, 3);
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{1, 1, 1}};
    r.fuzzyConnectedness.objectMean = 90;
    r.fuzzyConnectedness.objectSigma = 15;
    r.fuzzyConnectedness.diffSigma = 9;
    FuzzyConnectednessCpu engine;
    engine.start(r);
    EXPECT_EQ(engine.affinity().mean, 90);
    EXPECT_EQ(engine.affinity().objectSigma, 15);
    EXPECT_EQ(engine.affinity().diffSigma, 9);
    r.fuzzyConnectedness.diffSigma = -1;
    EXPECT_THROW(engine.start(r), std::invalid_argument);
}

TEST(FuzzyConnectedness, RoiBoundsTheMapAndSoftMapIsScaled) {
    const Volume v = lucent::testing::shapeVolume({16, 16, 16}, [](int, int, int) { return true; }, 100, 0, 3);
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{4, 4, 4}};
    r.roi = VoxelBox{{0, 0, 0}, {7, 7, 7}};
    FuzzyConnectednessCpu engine;
    engine.start(r);
    engine.run();
    const auto maps = engine.softMaps();
    ASSERT_EQ(maps.size(), 1u);
    EXPECT_FLOAT_EQ(maps[0].float32Data()[v.geometry().index(4, 4, 4)], 1.0f);
    EXPECT_EQ(maps[0].float32Data()[v.geometry().index(9, 9, 9)], 0.0f);
    LabelMap out;
    engine.result(out);
    EXPECT_LE(out.count(1), 512u);
}
