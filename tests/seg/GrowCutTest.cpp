/// @brief Grow from seeds on the CPU against independent references (GrowCutReference.h: a plain
/// priority-queue Dijkstra, Bellman-Ford, every simple path), the Dice of touching regions on a
/// ramp that no threshold separates, incremental strokes equal to a fresh run, steps whose boxes
/// hold every change, ROI and mask, and the CT head.
#include "GrowCutInputs.h"
#include "GrowCutReference.h"
#include "SyntheticVolumes.h"

#include "lucent/core/seg/GrowCutCpu.h"
#include "lucent/core/seg/GrowCutKey.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

using namespace lucent;
namespace ref = lucent::testing::growcut;
using lucent::testing::growcut::randomSeeds;
using lucent::testing::growcut::request;

namespace {

Geometry grid(std::array<int, 3> dims) {
    Geometry g;
    g.dims = dims;
    return g;
}

/// Uniform noise on `type` voxels: values in [lo, hi] (int16: integers).
Volume noise(std::array<int, 3> dims, PixelType type, unsigned seed, double lo, double hi) {
    Volume v(grid(dims), type);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> value(lo, hi);
    for (std::size_t n = 0; n < v.voxelCount(); ++n) v.setValue(n, type == PixelType::Int16 ? std::round(value(rng)) : value(rng));
    return v;
}

LabelMap run(GrowCutCpu& engine, const SegmentationRequest& r) {
    engine.start(r);
    engine.run(1);
    LabelMap out;
    engine.result(out);
    return out;
}

double engineDistance(std::uint64_t key, bool isFloat) {
    if (key == kGrowCutUnreached) return std::numeric_limits<double>::infinity();
    return isFloat ? double(growCutFloatDistance(key)) : double(growCutDistance(key));
}

void expectEqualsReference(const Volume& v, const LabelMap& seeds, const char* what) {
    GrowCutCpu engine;
    const LabelMap labels = run(engine, request(v, seeds));
    const ref::Result want = ref::dijkstra(v, seeds);
    const bool isFloat = v.pixelType() == PixelType::Float32;
    std::size_t wrongLabels = 0, wrongDistances = 0;
    for (std::size_t n = 0; n < v.voxelCount(); ++n) {
        wrongLabels += labels.data()[n] != want.label[n];
        wrongDistances += engineDistance(engine.keys()[n], isFloat) != want.distance[n];
    }
    EXPECT_EQ(wrongLabels, 0u) << what;
    EXPECT_EQ(wrongDistances, 0u) << what;
}

/// Three touching regions of means 0, 60 and 120 (a box beside a ball, in a background) with noise,
/// on a ramp of 300 along x that lifts the ball (right) over the box (left): no threshold separates
/// them. Labels 1 (background), 2 (ball), 3 (box).
struct RampScene {
    Volume volume;
    LabelMap truth, seeds;
};

RampScene rampScene(PixelType type) {
    const std::array<int, 3> dims{72, 56, 40};
    const Geometry g = grid(dims);
    RampScene s{Volume(g, type), LabelMap(g), LabelMap(g)};
    std::mt19937 rng(46);
    std::normal_distribution<double> noise(0.0, 8.0);
    for (int k = 0; k < dims[2]; ++k)
        for (int j = 0; j < dims[1]; ++j)
            for (int i = 0; i < dims[0]; ++i) {
                const std::size_t n = g.index(i, j, k);
                const double di = i - 34.0, dj = j - 28.0, dk = k - 20.0;
                std::uint8_t label = 1;
                if (di * di + dj * dj + dk * dk <= 14.0 * 14.0) label = 2;
                else if (i >= 4 && i <= 20 && j >= 14 && j < 42 && k >= 8 && k < 32) label = 3;  // touches the ball at i = 20
                s.truth.data()[n] = label;
                const double mean = label == 1 ? 0.0 : label == 2 ? 60.0 : 120.0;
                const double value = mean + 300.0 * i / (dims[0] - 1) + noise(rng);
                s.volume.setValue(n, type == PixelType::Int16 ? std::round(value) : value);
            }
    // Strokes: a blob in each object, and background strokes around them (DESIGN.md 7: seeds only in
    // a corner let the objects leak into the background).
    auto blob = [&](int ci, int cj, int ck, int r, std::uint8_t label) {
        for (int k = ck - r; k <= ck + r; ++k)
            for (int j = cj - r; j <= cj + r; ++j)
                for (int i = ci - r; i <= ci + r; ++i)
                    if (g.contains(i, j, k) && (i - ci) * (i - ci) + (j - cj) * (j - cj) + (k - ck) * (k - ck) <= r * r)
                        s.seeds.data()[g.index(i, j, k)] = label;
    };
    blob(34, 28, 20, 3, 2);
    blob(12, 28, 20, 3, 3);
    for (int i = 4; i < dims[0] - 4; i += 6) {
        blob(i, 4, 20, 1, 1);
        blob(i, dims[1] - 5, 20, 1, 1);
        blob(i, 28, 3, 1, 1);
        blob(i, 28, dims[2] - 4, 1, 1);
    }
    return s;
}

}  // namespace

TEST(GrowCut, Int16EqualsAPriorityQueueDijkstra) {
    const Volume v = noise({23, 19, 11}, PixelType::Int16, 1, -1000, 1000);
    expectEqualsReference(v, randomSeeds(v.geometry(), 2, 9, 3), "3 labels, 9 seeds");
    // Few distinct values: many equal distances, so the smallest-label rule decides often.
    const Volume flat = noise({23, 19, 11}, PixelType::Int16, 3, 0, 2);
    expectEqualsReference(flat, randomSeeds(flat.geometry(), 4, 12, 4), "values 0..2, 4 labels");
}

TEST(GrowCut, Float32EqualsAPriorityQueueDijkstra) {
    const Volume v = noise({21, 17, 9}, PixelType::Float32, 5, -3.0, 3.0);
    expectEqualsReference(v, randomSeeds(v.geometry(), 6, 7, 3), "float noise");
    const Volume flat = noise({21, 17, 9}, PixelType::Float32, 7, 0.0, 0.0);
    expectEqualsReference(flat, randomSeeds(flat.geometry(), 8, 10, 5), "flat float");
}

// The claim core/README.md makes: rounded float addition is monotone, so Dijkstra and a
// Bellman-Ford fixed point give the same distances, the least left-folded float sum over all paths;
// values of very different magnitudes make the rounding matter (fold order changes the sums).
TEST(GrowCut, FloatDistancesAreTheLeastLeftFoldedSumOverEveryPath) {
    const Geometry g = grid({3, 3, 2});
    Volume v(g, PixelType::Float32);
    const float values[18] = {0.0f, 1e7f, 3.3f,   1.1f, 16777216.0f, 0.7f, 2.9f, 1e-3f, 5e6f,
                              7.1f, 1.0f, 1e7f + 1, 0.1f, 3e-7f,     9.9f, 4.0f, 1e6f,  2.2f};
    for (std::size_t n = 0; n < 18; ++n) v.float32Data()[n] = values[n];
    LabelMap seeds(g);
    seeds.data()[0] = 1;
    seeds.data()[17] = 2;
    GrowCutCpu engine;
    run(engine, request(v, seeds));
    const std::vector<float> paths = ref::everyPath(v, seeds), relaxed = ref::bellmanFord(v, seeds);
    const std::vector<double> exact = ref::everyPath<double>(v, seeds);
    int roundingMatters = 0;
    for (std::size_t n = 0; n < 18; ++n) {
        EXPECT_EQ(growCutFloatDistance(engine.keys()[n]), paths[n]) << "voxel " << n;
        EXPECT_EQ(relaxed[n], paths[n]) << "voxel " << n;
        roundingMatters += double(paths[n]) != exact[n];
    }
    EXPECT_GT(roundingMatters, 0);  // the float fold is not the exact sum here: rounding is exercised
    // The same on a larger random volume: Dijkstra (the engine) equals Bellman-Ford's fixed point.
    const Volume big = noise({15, 13, 7}, PixelType::Float32, 9, 0.0, 1e6);
    const LabelMap bigSeeds = randomSeeds(big.geometry(), 10, 5, 2);
    run(engine, request(big, bigSeeds));
    const std::vector<float> fixedPoint = ref::bellmanFord(big, bigSeeds);
    std::size_t differ = 0;
    for (std::size_t n = 0; n < big.voxelCount(); ++n) differ += growCutFloatDistance(engine.keys()[n]) != fixedPoint[n];
    EXPECT_EQ(differ, 0u);
}

TEST(GrowCut, TouchingRegionsOnARampReachDice95) {
    for (const PixelType type : {PixelType::Int16, PixelType::Float32}) {
        const RampScene s = rampScene(type);
        // No threshold separates the regions: their value ranges overlap pairwise.
        std::array<double, 4> lo{1e9, 1e9, 1e9, 1e9}, hi{-1e9, -1e9, -1e9, -1e9};
        for (std::size_t n = 0; n < s.volume.voxelCount(); ++n) {
            const int l = s.truth.data()[n];
            lo[l] = std::min(lo[l], s.volume.value(n));
            hi[l] = std::max(hi[l], s.volume.value(n));
        }
        for (int a = 1; a <= 3; ++a)
            for (int b = a + 1; b <= 3; ++b) EXPECT_TRUE(lo[a] < hi[b] && lo[b] < hi[a]) << a << " and " << b;
        GrowCutCpu engine;
        const LabelMap labels = run(engine, request(s.volume, s.seeds));
        for (std::uint8_t l = 1; l <= 3; ++l) {
            const double d = lucent::testing::dice(labels, s.truth, l);
            std::printf("%s label %d: Dice %.4f\n", pixelTypeName(type), l, d);
            EXPECT_GE(d, 0.95) << pixelTypeName(type) << " label " << int(l);
        }
        // Voxels per label, as figures() reports them, count the labels written.
        for (const auto& [label, voxels] : engine.figures().labelVoxels) EXPECT_EQ(voxels, labels.count(std::uint8_t(label)));
        EXPECT_EQ(engine.figures().labelVoxels.size(), 3u);
    }
}

TEST(GrowCut, AStrokeAddedGoesOnFromThePreviousDistancesToTheFreshResult) {
    const Volume v = noise({31, 27, 13}, PixelType::Int16, 11, 0, 400);
    LabelMap seeds = randomSeeds(v.geometry(), 12, 4, 2);
    GrowCutCpu engine;
    run(engine, request(v, seeds));
    const std::vector<std::uint64_t> before = engine.keys();
    // A stroke of label 3 along a row, painted into the same map (as the viewer paints).
    for (int i = 5; i < 20; ++i) seeds.data()[v.geometry().index(i, 9, 6)] = 3;
    ASSERT_EQ(engine.update(request(v, seeds)), UpdateOutcome::Continued);
    StepReport last;
    std::size_t changedInBoxes = 0;
    LabelMap shown(v.geometry());
    engine.writeLabels(LabelSink::host(shown));  // before any step: the previous result
    do {
        last = engine.step(1);
        if (last.changed) {
            engine.writeLabels(LabelSink::host(shown), &*last.changed);
            changedInBoxes += last.changed->voxelCount();
        }
    } while (!last.finished);
    GrowCutCpu fresh;
    const LabelMap want = run(fresh, request(v, seeds));
    EXPECT_EQ(engine.keys(), fresh.keys());
    EXPECT_EQ(std::memcmp(shown.data(), want.data(), want.voxelCount()), 0) << "the step boxes missed a change";
    std::size_t improved = 0;
    for (std::size_t n = 0; n < before.size(); ++n) {
        EXPECT_LE(engine.keys()[n], before[n]);
        improved += engine.keys()[n] != before[n];
    }
    EXPECT_GT(improved, 15u);
    EXPECT_LT(improved, v.voxelCount());  // only what the stroke improves changed
    // A seed removed or relabelled restarts; a float volume restarts.
    seeds.data()[v.geometry().index(5, 9, 6)] = 1;
    EXPECT_EQ(engine.update(request(v, seeds)), UpdateOutcome::Restarted);
    const Volume f = noise({9, 9, 9}, PixelType::Float32, 13, 0, 1);
    LabelMap fs = randomSeeds(f.geometry(), 14, 3, 2);
    run(engine, request(f, fs));
    fs.data()[0] = 2;
    fs.data()[1] = 2;
    EXPECT_EQ(engine.update(request(f, fs)), UpdateOutcome::Restarted);
}

// The viewer passes the box its strokes changed the layer in: only it is compared with the run's seeds.
TEST(GrowCut, AnUpdateComparesTheBoxTheSeedsChangedIn) {
    const Volume v = noise({33, 29, 17}, PixelType::Int16, 21, 0, 300);
    const Geometry& g = v.geometry();
    LabelMap seeds = randomSeeds(g, 22, 5, 2);
    GrowCutCpu engine;
    run(engine, request(v, seeds));
    VoxelBox stroke = VoxelBox::none();
    for (int i = 4; i < 25; ++i) {
        seeds.data()[g.index(i, 11, 8)] = 3;
        stroke.add(i, 11, 8);
    }
    SegmentationRequest r = request(v, seeds);
    r.growCut.changedBox = stroke;
    ASSERT_EQ(engine.update(r), UpdateOutcome::Continued);
    engine.run(1);
    GrowCutCpu fresh;
    run(fresh, request(v, seeds));
    EXPECT_EQ(engine.keys(), fresh.keys());
    // Nothing changed in the box: nothing to do.
    r.growCut.changedBox = VoxelBox{{0, 0, 0}, {2, 2, 2}};
    EXPECT_EQ(engine.update(r), UpdateOutcome::Continued);
    EXPECT_TRUE(engine.finished());
    // A seed erased or relabelled inside the box restarts.
    seeds.data()[g.index(4, 11, 8)] = 0;
    r.growCut.changedBox = VoxelBox{{4, 11, 8}, {4, 11, 8}};
    EXPECT_EQ(engine.update(r), UpdateOutcome::Restarted);
    engine.run(1);
    seeds.data()[g.index(5, 11, 8)] = 1;
    r.growCut.changedBox = VoxelBox{{0, 0, 0}, {32, 28, 16}};
    EXPECT_EQ(engine.update(r), UpdateOutcome::Restarted);
}

TEST(GrowCut, StepBoxesHoldEveryChangeAndCancelKeepsTheStateReached) {
    const Volume v = noise({64, 48, 40}, PixelType::Int16, 15, 0, 50);
    const LabelMap seeds = randomSeeds(v.geometry(), 16, 6, 3);
    GrowCutCpu engine;
    engine.start(request(v, seeds));
    LabelMap shown(v.geometry());
    StepReport r;
    int steps = 0;
    do {
        r = engine.step(1);
        ++steps;
        if (r.changed) engine.writeLabels(LabelSink::host(shown), &*r.changed);
    } while (!r.finished);
    EXPECT_GT(steps, 1);  // 122,880 voxels: more than one step of 65,536
    LabelMap all;
    engine.result(all);
    EXPECT_EQ(std::memcmp(shown.data(), all.data(), all.voxelCount()), 0);
    engine.start(request(v, seeds));
    engine.step(1);
    engine.cancel();
    EXPECT_TRUE(engine.finished());
    LabelMap part;
    engine.result(part);
    const std::size_t labelled = part.voxelCount() - part.count(0);
    EXPECT_GT(labelled, 0u);
    EXPECT_LT(labelled, v.voxelCount());
    // A cancelled run dropped its front: a stroke after it starts again rather than going on.
    EXPECT_EQ(engine.update(request(v, seeds)), UpdateOutcome::Restarted);
    engine.run(1);
    LabelMap again;
    engine.result(again);
    EXPECT_EQ(std::memcmp(again.data(), all.data(), all.voxelCount()), 0);
}

TEST(GrowCut, RoiAndMaskLimitWhatIsLabelledAndCrossed) {
    const Volume v = noise({30, 20, 10}, PixelType::Int16, 17, 0, 100);
    const Geometry& g = v.geometry();
    LabelMap seeds(g), mask(g);
    seeds.data()[g.index(2, 10, 5)] = 1;
    seeds.data()[g.index(27, 10, 5)] = 2;
    // A mask wall at i = 15 with one hole: label 2's side is reached only through the hole.
    std::vector<bool> allowed(g.voxelCount());
    for (int k = 0; k < 10; ++k)
        for (int j = 0; j < 20; ++j)
            for (int i = 0; i < 30; ++i) {
                const bool open = i != 15 || (j == 3 && k == 3);
                mask.data()[g.index(i, j, k)] = open;
                allowed[g.index(i, j, k)] = open;
            }
    SegmentationRequest r = request(v, seeds);
    r.mask = &mask;
    GrowCutCpu engine;
    const LabelMap labels = run(engine, r);
    const ref::Result want = ref::dijkstra(v, seeds, &allowed);
    EXPECT_EQ(std::memcmp(labels.data(), want.label.data(), labels.voxelCount()), 0);
    EXPECT_EQ(labels.data()[g.index(15, 10, 5)], 0);
    // An ROI of i <= 20: nothing outside labelled; the seed at i = 27 is outside and ignored.
    r.mask = nullptr;
    r.roi = VoxelBox{{0, 0, 0}, {20, 19, 9}};
    const LabelMap inRoi = run(engine, r);
    EXPECT_EQ(inRoi.count(1), std::size_t(21 * 20 * 10));
    EXPECT_EQ(inRoi.count(2), 0u);
    r.roi = VoxelBox{{25, 0, 0}, {26, 19, 9}};
    EXPECT_THROW(engine.start(r), std::invalid_argument);  // every seed outside
}

TEST(GrowCut, RequestsWithoutUsableSeedsAreRefused) {
    const Volume v = noise({8, 8, 8}, PixelType::Int16, 19, 0, 10);
    LabelMap empty(v.geometry());
    GrowCutCpu engine;
    SegmentationRequest r = request(v, empty);
    EXPECT_THROW(engine.start(r), std::invalid_argument);
    r.growCut.seeds = nullptr;
    EXPECT_THROW(engine.start(r), std::invalid_argument);
    LabelMap other(grid({8, 8, 7}));
    other.data()[0] = 1;
    r.growCut.seeds = &other;
    EXPECT_THROW(engine.start(r), std::invalid_argument);
}

// The CT head (int16 HU) with strokes as a user paints them on every 5th slice from 35 to 75: a
// cross in the brain, 16 blobs in the skull (where a ray from the slice's centre meets bone, at the
// densest voxel of its next 8), a blob in each corner's air. Summed intensity change accumulates the
// noise of long paths (about 20 HU a step in brain), so one small blob per structure is not enough:
// the skull's label then wins the brain's rim (core/README.md). Judged on those slices by HU.
TEST(GrowCut, CtHeadSkullBrainAndAirFromStrokes) {
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume ct = io::readVolumeFile(path);
    const Geometry& g = ct.geometry();
    LabelMap seeds(g);
    auto blob = [&](int ci, int cj, int ck, std::uint8_t label) {
        for (int k = ck - 1; k <= ck + 1; ++k)
            for (int j = cj - 1; j <= cj + 1; ++j)
                for (int i = ci - 1; i <= ci + 1; ++i) seeds.data()[g.index(i, j, k)] = label;
    };
    auto along = [](int r, double a) {
        return std::array<int, 2>{128 + int(std::lround(r * std::cos(a))), 128 + int(std::lround(r * std::sin(a)))};
    };
    int skullBlobs = 0;
    for (int k = 35; k <= 75; k += 5) {
        for (const auto& [i, j] : {std::pair{10, 10}, {245, 10}, {10, 245}, {245, 245}}) blob(i, j, k, 3);  // air
        for (int d = -40; d <= 40; d += 3) {  // brain: a cross
            blob(128 + d, 128, k, 2);
            blob(128, 128 + d, k, 2);
        }
        for (int ray = 0; ray < 16; ++ray) {
            const double a = ray * 0.39269908169872414;
            for (int r = 10; r < 120; ++r) {
                if (const auto p = along(r, a); ct.value(p[0], p[1], k) < 600) continue;
                std::array<int, 2> densest = along(r, a);
                for (int r2 = r; r2 < r + 8; ++r2)
                    if (const auto p = along(r2, a); ct.value(p[0], p[1], k) > ct.value(densest[0], densest[1], k)) densest = p;
                blob(densest[0], densest[1], k, 1);
                ++skullBlobs;
                break;
            }
        }
    }
    ASSERT_GE(skullBlobs, 100);
    GrowCutCpu engine;
    const LabelMap labels = run(engine, request(ct, seeds));
    std::array<std::size_t, 4> count{}, soft{}, dense{};
    std::size_t bone = 0, boneInSkull = 0, air = 0, airInAir = 0, airLabelAir = 0;
    for (int k = 35; k <= 75; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const std::size_t n = g.index(i, j, k);
                const int l = labels.data()[n];
                const double hu = ct.value(n);
                ++count[l];
                soft[l] += hu >= -100 && hu <= 150;
                dense[l] += hu >= 150;
                airLabelAir += l == 3 && hu <= -400;
                if (hu >= 600) ++bone, boneInSkull += l == 1;
                if (hu <= -900) ++air, airInAir += l == 3;
            }
    const double ml = g.voxelVolumeMl();
    auto share = [](std::size_t part, std::size_t whole) { return double(part) / double(std::max<std::size_t>(1, whole)); };
    std::printf("CT head, slices 35-75: skull %.1f ml, brain %.1f ml, air %.1f ml; dense bone in skull %.3f, air in air "
                "%.3f; brain label soft tissue %.3f, air label air %.3f, >= 150 HU skull %.3f brain %.3f\n",
                count[1] * ml, count[2] * ml, count[3] * ml, share(boneInSkull, bone), share(airInAir, air),
                share(soft[2], count[2]), share(airLabelAir, count[3]), share(dense[1], count[1]), share(dense[2], count[2]));
    EXPECT_EQ(engine.figures().labelVoxels.size(), 3u);
    EXPECT_GT(share(boneInSkull, bone), 0.9);        // the skull label holds the dense bone
    EXPECT_GT(share(airInAir, air), 0.95);           // and the air label the air
    EXPECT_GT(share(soft[2], count[2]), 0.9);        // the brain label is soft tissue
    EXPECT_GT(share(airLabelAir, count[3]), 0.95);   // the air label is air
    EXPECT_GT(share(dense[1], count[1]), 10 * share(dense[2], count[2]));  // bone goes to the skull, not the brain
    EXPECT_GT(count[2] * ml, 500.0);  // the brain, not a blob around its strokes
}
