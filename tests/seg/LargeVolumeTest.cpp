/// @brief Volumes of 2^32 voxels and more on the CPU engines: exact 64-bit index arithmetic, the index-width
/// rule, the 64-bit path forced on small volumes equal to the 32-bit one voxel for voxel, and (with
/// LUCENT_LARGE_TESTS=1 where memory allows) every CPU engine on 2^32 + 2^26 voxels, a ball across index 2^32.
#include "LargeVolumeScene.h"

#include "lucent/core/seg/FuzzyCMeansCpu.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/core/seg/SnakeCpu.h"
#include "lucent/core/VoxelBuffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

using namespace lucent;
using namespace lucent::testing;

namespace {

#define SKIP_UNLESS_LARGE_RUN(bytes)                                                   \
    if (const auto why = whyNoLargeCpuRun(bytes)) GTEST_SKIP() << *why;                \
    const auto volume = largeVolume();                                                 \
    if (!volume) GTEST_SKIP() << "this machine does not lend 8.7 GB of address space"; \
    const Volume& v = *volume

/// 100 with walls of 20 that have holes, and Gaussian noise: one region of many layers around the
/// centre whose 26-connected fronts on 150 x 140 x 90 are wide enough to be split across threads.
Volume blobs(std::array<int, 3> dims, PixelType type, unsigned seed) {
    Geometry g;
    g.dims = dims;
    Volume v(g, type);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, 12);
    for (int k = 0; k < dims[2]; ++k)
        for (int j = 0; j < dims[1]; ++j)
            for (int i = 0; i < dims[0]; ++i) {
                const bool wall = (i % 13 == 0 && j % 11 < 8) || (k % 17 == 0 && i % 7 < 5);
                const double value = (wall ? 20 : 100) + noise(rng);
                v.setValue(g.index(i, j, k), type == PixelType::Int16 ? std::round(value) : value * 0.37 + 0.013);
            }
    return v;
}

/// The reports of a run stepped `perStep` iterations a call, and its labels.
struct SteppedRun {
    std::vector<StepReport> reports;
    LabelMap labels;
};

SteppedRun stepped(Segmenter& engine, const SegmentationRequest& r, int perStep) {
    SteppedRun out;
    engine.start(r);
    do out.reports.push_back(engine.step(perStep));
    while (!out.reports.back().finished);
    engine.result(out.labels);
    return out;
}

/// The same iterations and changed boxes after every step; with `convergence`, the same figure too
/// (region growing's front may list a voxel claimed by two threads twice, so its size varies by run).
void expectSameReports(const SteppedRun& a, const SteppedRun& b, bool convergence, const std::string& what) {
    ASSERT_EQ(a.reports.size(), b.reports.size()) << what;
    for (std::size_t s = 0; s < a.reports.size(); ++s) {
        EXPECT_EQ(a.reports[s].iterations, b.reports[s].iterations) << what << ", step " << s;
        if (convergence) {
            EXPECT_EQ(a.reports[s].convergence, b.reports[s].convergence) << what << ", step " << s;
        }
        ASSERT_EQ(a.reports[s].changed.has_value(), b.reports[s].changed.has_value()) << what << ", step " << s;
        if (a.reports[s].changed) {
            EXPECT_EQ(a.reports[s].changed->lo, b.reports[s].changed->lo) << what << ", step " << s;
            EXPECT_EQ(a.reports[s].changed->hi, b.reports[s].changed->hi) << what << ", step " << s;
        }
    }
}

std::size_t differing(const LabelMap& a, const LabelMap& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) n += a[i] != b[i];
    return n;
}

/// The requests both width tests run: plain, 26-connected, in an ROI, in a mask.
std::vector<std::pair<std::string, SegmentationRequest>> cases(const Volume& v, const LabelMap& mask) {
    const auto& d = v.geometry().dims;
    SegmentationRequest plain;
    plain.volume = &v;
    plain.seeds = {{d[0] / 2, d[1] / 2, d[2] / 2}, {3, 4, 5}};
    plain.regionGrowing = {60, 200, 6};
    plain.fuzzyConnectedness.threshold = 0.3;
    auto all = std::vector<std::pair<std::string, SegmentationRequest>>{{"plain", plain}};
    auto r26 = plain;
    r26.regionGrowing.connectivity = 26;
    all.emplace_back("26-connected", r26);
    auto roi = plain;
    roi.roi = VoxelBox{{2, 3, 4}, {d[0] - 9, d[1] - 5, d[2] - 3}};
    all.emplace_back("roi", roi);
    auto masked = plain;
    masked.mask = &mask;
    all.emplace_back("mask", masked);
    return all;
}

LabelMap stripeMask(const Geometry& g) {
    LabelMap mask(g);
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) mask[i] = (i / 11) % 7 != 0;
    return mask;
}

}  // namespace

TEST(LargeVolume, IndicesPastTwoToTheThirtyTwoAreExact) {
    const Geometry g = largeGeometry();
    // Computed here in 64 bits from the definition (x fastest), not by Geometry.
    const std::uint64_t last = (std::uint64_t(1039) * 2048 + 2047) * 2048 + 2047;
    EXPECT_EQ(g.voxelCount(), std::uint64_t(2048) * 2048 * 1040);
    EXPECT_GT(g.voxelCount(), std::uint64_t(1) << 32);
    EXPECT_EQ(g.index(2047, 2047, 1039), last);
    EXPECT_EQ(g.index(0, 0, 1024), std::uint64_t(1) << 32);
    EXPECT_EQ(g.sliceSize() * 1040, g.voxelCount());
    // The scene of the tests below: a ball across slice 1024 (index 2^32), its ROI inside the grid.
    EXPECT_LT(ballBox().lo[2], 1024);
    EXPECT_GT(ballBox().hi[2], 1024);
    EXPECT_TRUE(g.contains(ballRoi().lo[0], ballRoi().lo[1], ballRoi().lo[2]));
    EXPECT_TRUE(g.contains(ballRoi().hi[0], ballRoi().hi[1], ballRoi().hi[2]));
}

TEST(LargeVolume, SixtyFourBitIndicesFromTheFirstVolumeWhoseLastIndexPasses32Bits) {
    const std::size_t twoTo32 = std::size_t(1) << 32;
    EXPECT_FALSE(needsWideIndices(0));
    EXPECT_FALSE(needsWideIndices(twoTo32));  // last index 2^32 - 1 still fits
    EXPECT_TRUE(needsWideIndices(twoTo32 + 1));
    EXPECT_TRUE(needsWideIndices(largeGeometry().voxelCount()));
    EXPECT_TRUE(wideIndices(IndexWidth::Wide, 8));
    EXPECT_FALSE(wideIndices(IndexWidth::Fit, 8));
    auto wide = emptyIndexLists<VoxelIndexList>(true);
    pushIndex(wide, twoTo32 + 5);
    ASSERT_TRUE(holdsWideIndices(wide));
    EXPECT_EQ(std::get<1>(wide).at(0), twoTo32 + 5);
    EXPECT_FALSE(holdsWideIndices(emptyIndexLists<VoxelIndexList>(false)));
    EXPECT_TRUE(holdsWideIndices(emptyIndexLists<VoxelIndexBuckets>(true)));

    const Volume v = blobs({20, 18, 9}, PixelType::Int16, 1);
    LabelMap mask;
    const auto r = cases(v, mask).front().second;
    RegionGrowingCpu srg, srgWide(IndexWidth::Wide);
    FuzzyConnectednessCpu fc, fcWide(IndexWidth::Wide);
    srg.start(r);
    srgWide.start(r);
    fc.start(r);
    fcWide.start(r);
    EXPECT_FALSE(srg.wideIndices());
    EXPECT_TRUE(srgWide.wideIndices());
    EXPECT_FALSE(fc.wideIndices());
    EXPECT_TRUE(fcWide.wideIndices());
}

TEST(LargeVolume, RegionGrowingWithSixtyFourBitIndicesEqualsThirtyTwoVoxelForVoxel) {
    // Fronts of more than 32768 voxels (26-connected) split across threads on both paths.
    for (const PixelType type : {PixelType::Int16, PixelType::Float32}) {
        const Volume v = blobs({150, 140, 90}, type, type == PixelType::Int16 ? 2 : 3);
        const LabelMap mask = stripeMask(v.geometry());
        for (auto [what, r] : cases(v, mask)) {
            if (type == PixelType::Float32) r.regionGrowing = {60 * 0.37, 200 * 0.37, r.regionGrowing.connectivity};
            RegionGrowingCpu narrow, wide(IndexWidth::Wide);
            const SteppedRun a = stepped(narrow, r, 3), b = stepped(wide, r, 3);
            ASSERT_TRUE(wide.wideIndices()) << what;
            expectSameReports(a, b, false, what);
            EXPECT_GT(a.labels.count(1), 10000u) << what;
            EXPECT_EQ(differing(a.labels, b.labels), 0u) << what;
            // A wider interval grows on from the region (update keeps the front's width).
            auto wider = r;
            wider.regionGrowing.lower -= type == PixelType::Int16 ? 40 : 40 * 0.37;
            ASSERT_EQ(narrow.update(wider), UpdateOutcome::Continued);
            ASSERT_EQ(wide.update(wider), UpdateOutcome::Continued);
            narrow.run(5);
            wide.run(5);
            EXPECT_TRUE(wide.wideIndices()) << what;
            LabelMap la, lb;
            narrow.result(la);
            wide.result(lb);
            EXPECT_GT(la.count(1), a.labels.count(1)) << what << ": the wider interval must grow";
            EXPECT_EQ(differing(la, lb), 0u) << what << ", grown on";
        }
    }
}

TEST(LargeVolume, FuzzyConnectednessWithSixtyFourBitIndicesEqualsThirtyTwoVoxelForVoxel) {
    for (const PixelType type : {PixelType::Int16, PixelType::Float32}) {
        const Volume v = blobs({70, 60, 40}, type, type == PixelType::Int16 ? 4 : 5);
        const LabelMap mask = stripeMask(v.geometry());
        for (const auto& [what, r] : cases(v, mask)) {
            FuzzyConnectednessCpu narrow, wide(IndexWidth::Wide);
            const SteppedRun a = stepped(narrow, r, 1), b = stepped(wide, r, 1);
            ASSERT_TRUE(wide.wideIndices()) << what;
            expectSameReports(a, b, true, what);
            ASSERT_GT(a.reports.size(), 1u) << what << ": several steps";
            EXPECT_GT(a.labels.count(1), 1000u) << what;
            EXPECT_EQ(narrow.connectivity(), wide.connectivity()) << what;
            EXPECT_EQ(differing(a.labels, b.labels), 0u) << what;
        }
    }
}

// The tests below need LUCENT_LARGE_TESTS=1 and the memory they name: each touches what its engine
// keeps per voxel, never the volume beyond the ball's slices. ROIs keep the propagation small.

TEST(LargeVolume, RegionGrowingPastTwoToTheThirtyTwoVoxelsGrowsTheBallAcrossIt) {
    const Geometry g = largeGeometry();
    SKIP_UNLESS_LARGE_RUN(g.voxelCount());  // the state byte per voxel, which becomes the labels
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {kBallCentre};
    r.regionGrowing = {100, 300, 6};
    r.roi = ballRoi();
    RegionGrowingCpu engine;
    engine.start(r);
    EXPECT_TRUE(engine.wideIndices());
    std::optional<VoxelBox> grown;
    for (StepReport s; !s.finished;) {
        s = engine.step(4);
        if (s.changed) grown = merge(grown, *s.changed);
    }
    ASSERT_TRUE(grown);
    EXPECT_EQ(grown->lo, ballBox().lo);  // the seed is the centre: the layers reach every face
    EXPECT_EQ(grown->hi, ballBox().hi);
    LabelMap labels;
    engine.takeResult(labels);
    EXPECT_EQ(labels.count(1), ballVoxels());
    EXPECT_EQ(ballMismatches(labels.data(), ballRoi(), 1, 0), 0u);
}

TEST(LargeVolume, FuzzyConnectednessPastTwoToTheThirtyTwoVoxelsSettlesTheBallAcrossIt) {
    const Geometry g = largeGeometry();
    SKIP_UNLESS_LARGE_RUN(2 * g.voxelCount());  // the 16-bit connectivity map
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {kBallCentre};
    r.roi = ballRoi();
    r.fuzzyConnectedness.threshold = 0.5;
    FuzzyConnectednessCpu engine;
    engine.start(r);
    EXPECT_TRUE(engine.wideIndices());
    engine.run();
    const auto& map = engine.connectivity();
    const std::uint16_t t = thresholdStrength(0.5);
    EXPECT_EQ(std::size_t(std::count_if(map.begin(), map.end(), [t](std::uint16_t c) { return c >= t; })), ballVoxels());
    // Labels of the ROI only, into untouched (calloc'ed) memory: the volume-wide labels would add 4.4 GB.
    VoxelBuffer labels = VoxelBuffer::zeroed(g.voxelCount());
    const VoxelBox box = ballRoi();
    engine.writeLabels({reinterpret_cast<std::uint8_t*>(labels.data()), g.voxelCount(), false}, &box);
    EXPECT_EQ(ballMismatches(reinterpret_cast<const std::uint8_t*>(labels.data()), box, 1, 0), 0u);
}

TEST(LargeVolume, FuzzyCMeansPastTwoToTheThirtyTwoVoxelsClustersTheBallInItsRoi) {
    const Geometry g = largeGeometry();
    SKIP_UNLESS_LARGE_RUN(g.voxelCount());  // the inclusion byte per voxel, which becomes the labels
    SegmentationRequest r;
    r.volume = &v;
    r.roi = ballRoi();
    r.fuzzyCMeans.clusters = 2;
    FuzzyCMeansCpu engine;
    engine.start(r);
    engine.run();
    LabelMap labels;
    engine.takeResult(labels);
    const VoxelBox roi = ballRoi();
    const std::size_t roiVoxels = std::size_t(roi.hi[0] - roi.lo[0] + 1) * (roi.hi[1] - roi.lo[1] + 1) * (roi.hi[2] - roi.lo[2] + 1);
    EXPECT_EQ(labels.count(2), ballVoxels());
    EXPECT_EQ(labels.count(1), roiVoxels - ballVoxels());
    EXPECT_EQ(ballMismatches(labels.data(), ballRoi(), 2, 1), 0u);
}

TEST(LargeVolume, SnakePastTwoToTheThirtyTwoVoxelsEqualsTheSameSliceAlone) {
    const Geometry g = largeGeometry();
    SKIP_UNLESS_LARGE_RUN(g.voxelCount());  // the labels
    const int slice = kBallCentre.k + 2;  // 4 slices past index 2^32
    SegmentationRequest r;
    r.volume = &v;
    r.snake.slice = slice;
    r.snake.rect = {kBallCentre.i - 16, kBallCentre.j - 16, kBallCentre.i + 16, kBallCentre.j + 16};
    r.snake.domain = std::array<int, 4>{kBallCentre.i - 30, kBallCentre.j - 30, kBallCentre.i + 30, kBallCentre.j + 30};
    // The reference: the same slice as a volume of its own, whose indices are small.
    Geometry one = g;
    one.dims[2] = 1;
    Volume alone(one, PixelType::Int16);
    std::copy_n(v.int16Data() + g.index(0, 0, slice), g.sliceSize(), alone.int16Data());
    auto ra = r;
    ra.volume = &alone;
    ra.snake.slice = 0;
    SnakeCpu reference;
    reference.start(ra);
    reference.run();
    LabelMap expected;
    reference.result(expected);
    ASSERT_GT(expected.count(1), 200u) << "the snake must find the ball's disc";
    SnakeCpu engine;
    engine.start(r);
    engine.run();
    EXPECT_EQ(engine.polygon(), reference.polygon());
    LabelMap labels;
    engine.result(labels);
    EXPECT_EQ(labels.count(1), expected.count(1));
    EXPECT_TRUE(std::equal(expected.data(), expected.data() + g.sliceSize(), labels.data() + g.index(0, 0, slice)));
}
