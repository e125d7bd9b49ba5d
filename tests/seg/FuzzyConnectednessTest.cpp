/// @brief Fuzzy connectedness against an independent reference (FuzzyReference.h: paper 001's
/// equations with std::exp, a Bellman-Ford max-min) and hand-made cases with closed-form strengths;
/// the threshold object equals the seeds' component over edges of affinity >= T; ROI respected.
#include "FuzzyReference.h"
#include "SyntheticVolumes.h"

#include "lucent/core/seg/FuzzyConnectednessCpu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <queue>
#include <random>

using namespace lucent;
namespace ref = lucent::testing::fuzzy;

namespace {

Volume randomVolume(std::array<int, 3> dims, PixelType type, unsigned seed, double sigma = 12) {
    Geometry g;
    g.dims = dims;
    Volume v(g, type);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, sigma);
    for (int k = 0; k < dims[2]; ++k)
        for (int j = 0; j < dims[1]; ++j)
            for (int i = 0; i < dims[0]; ++i) {
                const double base = (i + j < dims[0]) ? 100 : 40;
                v.setValue(g.index(i, j, k), base + noise(rng));
            }
    return v;
}

/// A volume of `dims` holding `values` in index order (x fastest).
Volume handMade(std::array<int, 3> dims, const std::vector<double>& values) {
    Geometry g;
    g.dims = dims;
    Volume v(g, PixelType::Int16);
    for (std::size_t n = 0; n < values.size(); ++n) v.setValue(n, values[n]);
    return v;
}

std::vector<std::uint16_t> engineMap(const SegmentationRequest& r) {
    FuzzyConnectednessCpu engine;
    engine.start(r);
    engine.run(1);
    return engine.connectivity();
}

/// A closed-form strength exp(x) on the 16-bit scale, checked to lie away from a rounding boundary
/// (so the float steps of the quantisation cannot move it).
std::uint16_t strength(double x) {
    const double scaled = std::exp(x) * 65535.0;
    EXPECT_GT(std::abs(scaled - std::floor(scaled) - 0.5), 0.02) << "x " << x;
    return ref::quantised(std::exp(x));
}

void expectParams(const AffinityParams& got, const ref::Params& want, const char* what) {
    EXPECT_NEAR(got.mean, want.mean, 1e-9 * std::abs(want.mean)) << what;
    EXPECT_NEAR(got.objectSigma, want.objectSigma, 1e-9 * want.objectSigma) << what;
    EXPECT_NEAR(got.diffSigma, want.diffSigma, 1e-9 * want.diffSigma) << what;
}

}  // namespace

class FuzzyOracle : public ::testing::TestWithParam<PixelType> {};

TEST_P(FuzzyOracle, MapAndEstimateEqualTheIndependentReference) {
    // Seeds on borders and corners (clipped cubes) and close together (overlapping cubes).
    const std::vector<std::vector<VoxelIndex>> seedSets = {
        {{1, 1, 1}, {2, 3, 5}}, {{0, 0, 0}}, {{10, 8, 6}, {9, 8, 6}}, {{5, 0, 3}, {0, 8, 6}, {6, 4, 3}}};
    for (unsigned seed = 1; seed <= 3; ++seed)
        for (const auto& seeds : seedSets)
            for (int radius : {1, 2, 3}) {
                const Volume v = randomVolume({11, 9, 7}, GetParam(), seed);
                SegmentationRequest r;
                r.volume = &v;
                r.seeds = seeds;
                r.fuzzyConnectedness.estimateRadius = radius;
                FuzzyConnectednessCpu engine;
                engine.start(r);
                engine.run(1);
                const ref::Params want = ref::estimate(v, seeds, radius);
                expectParams(engine.affinity(), want, "estimate");
                ASSERT_EQ(engine.connectivity(), ref::connectivity(v, want, seeds))
                    << "volume " << seed << ", radius " << radius << ", first seed " << seeds[0].i << "," << seeds[0].j
                    << "," << seeds[0].k;
            }
}

INSTANTIATE_TEST_SUITE_P(Types, FuzzyOracle, ::testing::Values(PixelType::Int16, PixelType::Float32));

TEST(FuzzyConnectedness, EstimateOfAKnownCube) {
    // A 90 / 110 checkerboard: the corner seed's cube (radius 1, clipped to 2x2x2) holds four of each,
    // so M = 100, S = 10, and each of its 12 face differences is +-20, so D = 20.
    Geometry g;
    g.dims = {6, 6, 6};
    Volume v(g, PixelType::Int16);
    for (int k = 0; k < 6; ++k)
        for (int j = 0; j < 6; ++j)
            for (int i = 0; i < 6; ++i) v.setValue(g.index(i, j, k), (i + j + k) % 2 ? 110 : 90);
    const AffinityParams p = FuzzyConnectednessCpu::estimate(v, {{0, 0, 0}}, 1, v.range());
    EXPECT_DOUBLE_EQ(p.mean, 100);
    EXPECT_DOUBLE_EQ(p.objectSigma, 10);
    EXPECT_DOUBLE_EQ(p.diffSigma, 20);
    // A flat seed region in a volume spanning 0..1000: both sigmas floored at 0.1 % of the range.
    const Volume flat = lucent::testing::shapeVolume(
        {8, 8, 8}, [](int i, int, int) { return i == 7; }, 1000, 0, 0);
    const AffinityParams f = FuzzyConnectednessCpu::estimate(flat, {{1, 1, 1}}, 1, flat.range());
    EXPECT_DOUBLE_EQ(f.mean, 0);
    EXPECT_DOUBLE_EQ(f.objectSigma, 1.0);
    EXPECT_DOUBLE_EQ(f.diffSigma, 1.0);
}

TEST(FuzzyConnectedness, HandMadeStrengthsInClosedForm) {
    // M = 100, S = 10, D = 20: mu(100, 100 + 2t) = exp(-(t^2/200 + 4t^2/800) / 2) = exp(-t^2 / 200).
    SegmentationRequest r;
    r.fuzzyConnectedness.objectMean = 100;
    r.fuzzyConnectedness.objectSigma = 10;
    r.fuzzyConnectedness.diffSigma = 20;
    // A line: strength is the weakest link from the seed, mu(100,130) = e^-1.125, mu(100,60) = e^-2.
    const Volume line = handMade({5, 1, 1}, {100, 100, 130, 100, 60});
    r.volume = &line;
    r.seeds = {{0, 0, 0}};
    const std::uint16_t s130 = strength(-1.125);
    EXPECT_EQ(engineMap(r), (std::vector<std::uint16_t>{65535, 65535, s130, s130, strength(-2.0)}));
    // Three routes from the seed (left) to the target (right): through 160 (e^-4.5), 120 above
    // (e^-0.5) or 125 below (e^-0.78125). The target takes the best route; the centre its own edge.
    const Volume routes = handMade({3, 3, 1}, {100, 120, 100, 100, 160, 100, 100, 125, 100});
    r.volume = &routes;
    r.seeds = {{0, 1, 0}};
    const std::vector<std::uint16_t> map = engineMap(r);
    EXPECT_EQ(map[5], strength(-0.5)) << "target";
    EXPECT_EQ(map[7], strength(-0.78125)) << "below";
    EXPECT_EQ(map[4], strength(-4.5)) << "centre";
    EXPECT_EQ(map[2], strength(-0.5)) << "top right";
}

TEST(FuzzyConnectedness, GivenParametersDriveTheMap) {
    const Volume v = randomVolume({10, 10, 10}, PixelType::Int16, 3);
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{1, 1, 1}};
    const auto estimated = engineMap(r);
    // Only the mean given: the sigmas are still estimated.
    r.fuzzyConnectedness.objectMean = 60;
    ref::Params want = ref::estimate(v, r.seeds, 2);
    want.mean = 60;
    const auto meanGiven = engineMap(r);
    EXPECT_EQ(meanGiven, ref::connectivity(v, want, r.seeds));
    EXPECT_NE(meanGiven, estimated);
    r.fuzzyConnectedness.objectSigma = 15;
    r.fuzzyConnectedness.diffSigma = 9;
    EXPECT_EQ(engineMap(r), ref::connectivity(v, {60, 15, 9}, r.seeds));
    r.fuzzyConnectedness.diffSigma = -1;
    FuzzyConnectednessCpu engine;
    EXPECT_THROW(engine.start(r), std::invalid_argument);
}

TEST(FuzzyConnectedness, ObjectIsTheComponentOverStrongEdges) {
    const Volume v = randomVolume({24, 20, 12}, PixelType::Int16, 7);
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{3, 3, 3}};
    FuzzyConnectednessCpu engine;
    engine.start(r);
    engine.run();
    const ref::Params p = ref::estimate(v, r.seeds, 2);
    const Geometry& g = v.geometry();
    for (double t : {0.2, 0.5, 0.8, 0.95}) {
        r.fuzzyConnectedness.threshold = t;
        ASSERT_EQ(engine.update(r), UpdateOutcome::Relabelled);
        LabelMap object;
        engine.result(object);
        // BFS from the seed over face edges whose reference affinity reaches T on the 16-bit scale.
        const auto tq = static_cast<std::uint16_t>(static_cast<float>(t) * 65535.0f + 0.5f);
        LabelMap reach(g);
        std::queue<std::size_t> q;
        const std::size_t s0 = g.index(3, 3, 3);
        reach[s0] = 1;
        q.push(s0);
        while (!q.empty()) {
            const std::size_t a = q.front();
            q.pop();
            const int i = int(a % g.dims[0]), j = int((a / g.dims[0]) % g.dims[1]), k = int(a / g.sliceSize());
            for (std::size_t b : ref::faceNeighbours(g, i, j, k))
                if (!reach[b] && ref::affinity(v.value(a), v.value(b), p) >= tq) {
                    reach[b] = 1;
                    q.push(b);
                }
        }
        if (t <= 0.5) {
            EXPECT_GT(reach.count(1), 100u) << "threshold " << t << ": the object must grow";
        }
        EXPECT_EQ(lucent::testing::dice(object, reach), 1.0) << "threshold " << t;
        EXPECT_EQ(object.count(1), reach.count(1)) << "threshold " << t;
    }
}

TEST(FuzzyConnectedness, SeparatesTouchingRegions) {
    // Two touching boxes, 100 and 160, Gaussian-ish noise: seeded in the first, the object stays there.
    LabelMap truth;
    const Volume v = lucent::testing::shapeVolume(
        {40, 20, 16}, [](int i, int, int) { return i < 20; }, 100, 160, 8, &truth);
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

TEST(FuzzyConnectedness, RoiBoundsTheMapAndSoftMapIsScaled) {
    const Volume v = lucent::testing::shapeVolume(
        {16, 16, 16}, [](int, int, int) { return true; }, 100, 0, 3);
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

TEST(FuzzyConnectedness, AnObjectOnlyRunEqualsTheMapsObjectWithoutAMap) {
    // objectOnly (the CLI's run when it writes no map): the seeds' component over edges of
    // affinity >= T, one byte a voxel. The same voxels as the map thresholded, for both pixel
    // types, several thresholds, an ROI and a mask, both index widths, and runs of many steps (a
    // 50,000-voxel volume: the search's queue is read and dropped in parts).
    for (PixelType type : {PixelType::Int16, PixelType::Float32})
        for (double t : {0.05, 0.3, 0.6, 0.9, 0.999}) {
            const Volume v = randomVolume({72, 64, 40}, type, 11, 4);
            const Geometry& g = v.geometry();
            LabelMap mask(g);
            std::mt19937 holes(5);
            std::bernoulli_distribution kept(0.92);
            for (std::size_t n = 0; n < mask.voxelCount(); ++n) mask[n] = kept(holes) ? 1 : 0;  // scattered holes
            SegmentationRequest r;
            r.volume = &v;
            r.seeds = {{3, 3, 3}, {30, 30, 20}, {71, 0, 0}};
            r.roi = VoxelBox{{0, 0, 0}, {68, 63, 39}};  // leaves the third seed out
            r.mask = &mask;
            r.fuzzyConnectedness.threshold = t;
            FuzzyConnectednessCpu mapped;
            mapped.start(r);
            mapped.run();
            LabelMap want;
            mapped.result(want);
            for (IndexWidth width : {IndexWidth::Fit, IndexWidth::Wide}) {
                r.fuzzyConnectedness.objectOnly = true;
                FuzzyConnectednessCpu object(width);
                object.start(r);
                EXPECT_TRUE(object.connectivity().empty()) << "no map is made";
                int steps = 0;
                while (!object.step(1).finished) ++steps;
                LabelMap got;
                object.takeResult(got);
                EXPECT_TRUE(object.softMaps().empty());
                ASSERT_EQ(got.voxelCount(), want.voxelCount());
                EXPECT_TRUE(std::equal(got.data(), got.data() + got.voxelCount(), want.data()))
                    << "threshold " << t << ", " << (type == PixelType::Int16 ? "int16" : "float") << ", "
                    << (width == IndexWidth::Wide ? "64" : "32") << "-bit";
                if (t <= 0.3) {
                    EXPECT_GT(want.count(1), 70000u) << "an object of more than one step's 65,536 voxels";
                    EXPECT_GT(steps, 0) << "grown over several steps";
                }
                r.fuzzyConnectedness.objectOnly = false;
            }
        }
}

TEST(FuzzyConnectedness, AnObjectOnlyRunFollowsAOneVoxelCorridorOverManySteps) {
    // A serpentine corridor one voxel wide, 131,000 voxels long: the search's front is one voxel,
    // so losing a queued voxel between steps would cut the object short.
    Geometry g;
    g.dims = {512, 512, 1};
    Volume v(g, PixelType::Int16);
    std::size_t corridor = 0;
    for (int j = 0; j < 512; ++j)
        for (int i = 0; i < 512; ++i) {
            // Even rows whole, joined at alternate ends by one voxel of the odd row between them.
            const bool inside = j % 2 == 0 || (j % 4 == 1 ? i == 511 : i == 0);
            v.setValue(g.index(i, j, 0), inside ? 100 : 40);
        }
    for (std::size_t n = 0; n < v.voxelCount(); ++n) corridor += v.int16Data()[n] == 100;
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{0, 0, 0}};
    r.fuzzyConnectedness.threshold = 0.5;
    r.fuzzyConnectedness.objectMean = 100;  // given: the seed's cube would mix corridor and wall
    r.fuzzyConnectedness.objectSigma = 5;
    r.fuzzyConnectedness.diffSigma = 5;
    FuzzyConnectednessCpu mapped;
    mapped.start(r);
    mapped.run();
    LabelMap want;
    mapped.result(want);
    EXPECT_GT(want.count(1), 100000u) << "the map's object follows the corridor";
    r.fuzzyConnectedness.objectOnly = true;
    FuzzyConnectednessCpu object;
    object.start(r);
    int steps = 0;
    while (!object.step(1).finished) ++steps;
    EXPECT_GT(steps, 0);
    LabelMap got;
    object.takeResult(got);
    EXPECT_EQ(got.count(1), want.count(1));
    EXPECT_TRUE(std::equal(got.data(), got.data() + got.voxelCount(), want.data()));
    EXPECT_EQ(want.count(1), corridor) << "the whole corridor";
}
