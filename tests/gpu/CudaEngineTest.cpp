/// @brief CUDA engines against the CPU reference engines on the same inputs: identical voxels for
/// region growing and identical quantised connectivity for fuzzy connectedness, on random,
/// adversarial (serpentines across many tiles, checkerboards, odd sizes, corner seeds) and real
/// volumes, step by step and after parameter changes; GPU faults fall back to the CPU. Skipped
/// without a CUDA device.
#include "SyntheticVolumes.h"

#include "lucent/core/Errors.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/DeviceVolume.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <algorithm>
#include <random>

using namespace lucent;

namespace {

bool haveDevice() { return !gpu::listDevices().empty(); }

#define REQUIRE_DEVICE() \
    if (!haveDevice()) GTEST_SKIP() << "no CUDA device"

Volume noiseVolume(std::array<int, 3> dims, PixelType type, unsigned seed, double sigma = 30) {
    Geometry g;
    g.dims = dims;
    Volume v(g, type);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, sigma);
    for (int k = 0; k < dims[2]; ++k)
        for (int j = 0; j < dims[1]; ++j)
            for (int i = 0; i < dims[0]; ++i) {
                const double base = (i + 2 * j + 3 * k) % 40 < 22 ? 100 : 20;
                double value = base + noise(rng);
                if (type == PixelType::Float32) value = value * 0.37 + 0.013;
                else value = std::round(value);
                v.setValue(g.index(i, j, k), value);
            }
    return v;
}

/// One path winding through the whole volume: rows alternate direction in each slice (walls of
/// 0 between rows), slices join at alternating ends. The only way along is every row in turn,
/// so the front crosses tile borders thousands of times.
Volume serpentine(std::array<int, 3> dims) {
    Geometry g;
    g.dims = dims;
    Volume v(g, PixelType::Int16);
    for (int k = 0; k < dims[2]; ++k) {
        if (k % 2) continue;  // odd slices are walls but for one connecting voxel
        for (int j = 0; j < dims[1]; j += 2) {
            for (int i = 0; i < dims[0]; ++i) v.setValue(g.index(i, j, k), 100 + (i * 7 + j * 3 + k) % 23);
            const int row = j / 2, turn = row % 2 ? 0 : dims[0] - 1;  // joins row j and j + 2
            if (j + 2 < dims[1]) v.setValue(g.index(turn, j + 1, k), 100 + (j % 11));
        }
        if (k + 2 < dims[2]) {
            const int lastRow = (dims[1] - 1) / 2 * 2;
            v.setValue(g.index((k / 2) % 2 ? 0 : dims[0] - 1, (k / 2) % 2 ? 0 : lastRow, k + 1), 105);
        }
    }
    return v;
}

struct Outcome {
    LabelMap labels;
    std::vector<Volume> soft;
    std::string backend;
    int steps = 0;
};

Outcome run(Method method, gpu::Backend backend, const SegmentationRequest& r, int perStep = 64) {
    auto engine = gpu::createSegmenter(method, backend);
    engine->start(r);
    Outcome out;
    for (StepReport rep; !rep.finished; ++out.steps) rep = engine->step(perStep);
    engine->result(out.labels);
    out.soft = engine->softMaps();
    out.backend = engine->backend();
    return out;
}

std::size_t differing(const LabelMap& a, const LabelMap& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) n += a[i] != b[i];
    return n;
}

std::size_t differing(const Volume& a, const Volume& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) n += a.float32Data()[i] != b.float32Data()[i];
    return n;
}

void expectSameRegion(const SegmentationRequest& r, const std::string& what) {
    const Outcome cpu = run(Method::RegionGrowing, gpu::Backend::Cpu, r);
    const Outcome cuda = run(Method::RegionGrowing, gpu::Backend::Cuda, r);
    EXPECT_EQ(cuda.backend, "cuda");
    EXPECT_GT(cpu.labels.count(1), 0u) << what;
    EXPECT_EQ(differing(cpu.labels, cuda.labels), 0u) << what << ": " << cpu.labels.count(1) << " voxels on the CPU";
}

void expectSameConnectivity(const SegmentationRequest& r, const std::string& what) {
    const Outcome cpu = run(Method::FuzzyConnectedness, gpu::Backend::Cpu, r);
    const Outcome cuda = run(Method::FuzzyConnectedness, gpu::Backend::Cuda, r);
    ASSERT_EQ(cpu.soft.size(), 1u);
    ASSERT_EQ(cuda.soft.size(), 1u);
    EXPECT_EQ(differing(cpu.soft[0], cuda.soft[0]), 0u) << what;
    EXPECT_EQ(differing(cpu.labels, cuda.labels), 0u) << what;
}

SegmentationRequest srg(const Volume& v, std::vector<VoxelIndex> seeds, double lo, double hi, int connectivity = 6) {
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = std::move(seeds);
    r.regionGrowing = {lo, hi, connectivity};
    return r;
}

SegmentationRequest fc(const Volume& v, std::vector<VoxelIndex> seeds, double threshold = 0.5) {
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = std::move(seeds);
    r.fuzzyConnectedness.threshold = threshold;
    return r;
}

}  // namespace

TEST(CudaRegionGrowing, RandomVolumesOddSizesBothConnectivities) {
    REQUIRE_DEVICE();
    for (unsigned seed = 1; seed <= 4; ++seed)
        for (int conn : {6, 26}) {
            const std::array<int, 3> dims{37 + 29 * int(seed), 45 + 7 * int(seed), 13 + 11 * int(seed)};
            const Volume v = noiseVolume(dims, PixelType::Int16, seed);
            const VoxelIndex s{dims[0] / 2, dims[1] / 2, dims[2] / 2};
            const double centre = v.value(s.i, s.j, s.k);
            expectSameRegion(srg(v, {s}, centre - 60, centre + 60, conn),
                             "seed " + std::to_string(seed) + " connectivity " + std::to_string(conn));
        }
}

TEST(CudaRegionGrowing, SerpentineAcrossThousandsOfTileBorders) {
    REQUIRE_DEVICE();
    const Volume v = serpentine({70, 66, 21});
    const auto r = srg(v, {{0, 0, 0}}, 90, 200);
    const Outcome cpu = run(Method::RegionGrowing, gpu::Backend::Cpu, r);
    // Every path voxel is reached: the serpentine is one component.
    std::size_t path = 0;
    for (std::size_t i = 0; i < v.voxelCount(); ++i) path += v.value(i) >= 90;
    EXPECT_EQ(cpu.labels.count(1), path);
    expectSameRegion(r, "serpentine 6");
    expectSameRegion(srg(v, {{0, 0, 0}}, 90, 200, 26), "serpentine 26");
}

TEST(CudaRegionGrowing, CheckerboardSeparatesFacesJoinsCorners) {
    REQUIRE_DEVICE();
    Geometry g;
    g.dims = {65, 33, 34};
    Volume v(g, PixelType::Int16);
    for (int k = 0; k < 34; ++k)
        for (int j = 0; j < 33; ++j)
            for (int i = 0; i < 65; ++i) v.setValue(g.index(i, j, k), (i + j + k) % 2 ? 0 : 50);
    const auto six = srg(v, {{0, 0, 0}}, 40, 60, 6);
    EXPECT_EQ(run(Method::RegionGrowing, gpu::Backend::Cuda, six).labels.count(1), 1u);
    expectSameRegion(srg(v, {{64, 32, 33}, {0, 0, 0}}, 40, 60, 26), "checkerboard 26");
}

TEST(CudaRegionGrowing, SeedsOnCornersAndFacesRoiMaskFloat) {
    REQUIRE_DEVICE();
    const Volume v = noiseVolume({97, 40, 33}, PixelType::Int16, 9, 5);
    const std::vector<VoxelIndex> corners{{0, 0, 0}, {96, 39, 32}, {96, 0, 0}, {0, 39, 32}, {48, 0, 16}, {96, 20, 16}};
    std::vector<VoxelIndex> seeds;
    for (const auto& s : corners)
        if (v.value(s.i, s.j, s.k) > 60) seeds.push_back(s);
    ASSERT_FALSE(seeds.empty());
    expectSameRegion(srg(v, seeds, 60, 200), "corner seeds");
    auto withRoi = srg(v, seeds, 60, 200);
    withRoi.roi = VoxelBox{{0, 0, 0}, {70, 35, 30}};
    withRoi.seeds = {seeds.front()};
    expectSameRegion(withRoi, "roi");
    // A mask that cuts every row into runs: the seed lies inside it (the mask's first voxels are
    // out, and so is the corner seed at index 0), so the masked kernel is compared, not skipped.
    LabelMap mask(v.geometry());
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) mask[i] = (i / 7) % 5 != 0;
    const auto inMask = std::find_if(seeds.begin(), seeds.end(),
                                     [&](const VoxelIndex& s) { return mask[v.geometry().index(s.i, s.j, s.k)] != 0; });
    ASSERT_NE(inMask, seeds.end()) << "no seed inside the mask";
    auto withMask = srg(v, {*inMask}, 60, 200);
    withMask.mask = &mask;
    const Outcome masked = run(Method::RegionGrowing, gpu::Backend::Cpu, withMask);
    const Outcome unmasked = run(Method::RegionGrowing, gpu::Backend::Cpu, srg(v, {*inMask}, 60, 200));
    ASSERT_LT(masked.labels.count(1), unmasked.labels.count(1)) << "the mask must change the region";
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) ASSERT_FALSE(masked.labels[i] && !mask[i]) << "voxel " << i;
    expectSameRegion(withMask, "mask");
    const Volume f = noiseVolume({50, 61, 29}, PixelType::Float32, 3);
    const double centre = f.value(25, 30, 14);
    expectSameRegion(srg(f, {{25, 30, 14}}, centre - 20.5, centre + 20.5, 26), "float");
}

TEST(CudaRegionGrowing, StepsGrowMonotonicallyInsideTheirChangedBoxes) {
    REQUIRE_DEVICE();
    const Volume v = serpentine({70, 66, 9});
    auto engine = gpu::createSegmenter(Method::RegionGrowing, gpu::Backend::Cuda);
    engine->start(srg(v, {{0, 0, 0}}, 90, 200));
    LabelMap before, after;
    engine->result(before);
    int steps = 0;
    for (StepReport rep; !rep.finished; ++steps) {
        rep = engine->step(1);
        engine->result(after);
        for (std::size_t i = 0; i < v.voxelCount(); ++i) {
            ASSERT_GE(after[i], before[i]) << "a voxel left the region";
            if (after[i] != before[i]) {
                ASSERT_TRUE(rep.changed.has_value());
                const Geometry& g = v.geometry();
                const int x = int(i % g.dims[0]), y = int(i / g.dims[0] % g.dims[1]), z = int(i / g.sliceSize());
                ASSERT_TRUE(rep.changed->contains(x, y, z)) << "change outside the reported box";
            }
        }
        before = after;
    }
    EXPECT_GT(steps, 10);
    EXPECT_EQ(differing(after, run(Method::RegionGrowing, gpu::Backend::Cpu, srg(v, {{0, 0, 0}}, 90, 200)).labels), 0u);
}

TEST(CudaRegionGrowing, WiderIntervalAndNewSeedGrowOnLikeAFreshRun) {
    REQUIRE_DEVICE();
    const Volume v = noiseVolume({90, 70, 40}, PixelType::Int16, 5);
    for (const char* backend : {"cpu", "cuda"}) {
        auto engine = gpu::createSegmenter(Method::RegionGrowing, gpu::parseBackend(backend));
        auto r = srg(v, {{45, 35, 20}}, 60, 140);
        engine->start(r);
        engine->run();
        r.regionGrowing.lower = 30;
        r.regionGrowing.upper = 170;
        r.seeds.push_back({1, 1, 1});
        ASSERT_EQ(engine->update(r), UpdateOutcome::Continued) << backend;
        engine->run();
        LabelMap grown;
        engine->result(grown);
        EXPECT_EQ(differing(grown, run(Method::RegionGrowing, gpu::Backend::Cpu, r).labels), 0u) << backend;
        r.regionGrowing.lower = 50;  // narrower, still holding the first seed: a new run
        r.regionGrowing.upper = 160;
        EXPECT_EQ(engine->update(r), UpdateOutcome::Restarted) << backend;
    }
}

TEST(CudaRegionGrowing, WritesTheContextLabelBufferOnTheDevice) {
    REQUIRE_DEVICE();
    const Volume v = noiseVolume({64, 64, 32}, PixelType::Int16, 2);
    auto context = std::make_shared<gpu::GpuContext>(v);
    auto engine = gpu::createSegmenter(Method::RegionGrowing, gpu::Backend::Cuda, context);
    const auto r = srg(v, {{32, 32, 16}}, v.value(32, 32, 16) - 50, v.value(32, 32, 16) + 50);
    engine->start(r);
    engine->run();
    engine->writeLabels(context->labelSink());
    LabelMap onDevice;
    context->downloadLabels(onDevice);
    EXPECT_EQ(differing(onDevice, run(Method::RegionGrowing, gpu::Backend::Cpu, r).labels), 0u);
    EXPECT_FALSE(engine->figures().msUpload.has_value()) << "the given context was used, nothing re-uploaded";
}

TEST(CudaFuzzyConnectedness, EqualMapsOnRandomVolumes) {
    REQUIRE_DEVICE();
    for (unsigned seed = 1; seed <= 3; ++seed)
        for (PixelType type : {PixelType::Int16, PixelType::Float32}) {
            const std::array<int, 3> dims{33 + 17 * int(seed), 19 + 13 * int(seed), 9 + 8 * int(seed)};
            const Volume v = noiseVolume(dims, type, seed + 10);
            expectSameConnectivity(fc(v, {{dims[0] / 3, dims[1] / 3, dims[2] / 3}, {0, 0, 0}}),
                                   std::string(pixelTypeName(type)) + " seed " + std::to_string(seed));
        }
}

TEST(CudaFuzzyConnectedness, SerpentineRoiMaskAndGivenParameters) {
    REQUIRE_DEVICE();
    const Volume s = serpentine({70, 34, 11});
    expectSameConnectivity(fc(s, {{0, 0, 0}}), "serpentine");
    const Volume v = noiseVolume({81, 47, 26}, PixelType::Int16, 4);
    auto r = fc(v, {{40, 20, 13}}, 0.3);
    r.roi = VoxelBox{{5, 3, 2}, {70, 40, 20}};
    r.fuzzyConnectedness.objectMean = 90;
    r.fuzzyConnectedness.objectSigma = 25;
    r.fuzzyConnectedness.diffSigma = 15;
    expectSameConnectivity(r, "roi and given M, S, D");
    LabelMap mask(v.geometry());
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) mask[i] = (i / 3) % 7 != 0;
    auto m = fc(v, {{40, 20, 13}}, 0.3);
    m.mask = &mask;
    // Compared always: the seed lies inside the mask, and the mask changes the object (else the
    // masked kernel would be compared on nothing it does).
    ASSERT_NE(mask[v.geometry().index(40, 20, 13)], 0) << "the seed must lie inside the mask";
    const Outcome masked = run(Method::FuzzyConnectedness, gpu::Backend::Cpu, m);
    const Outcome unmasked = run(Method::FuzzyConnectedness, gpu::Backend::Cpu, fc(v, {{40, 20, 13}}, 0.3));
    ASSERT_GT(masked.labels.count(1), 0u);
    ASSERT_LT(masked.labels.count(1), unmasked.labels.count(1)) << "the mask must change the object";
    expectSameConnectivity(m, "mask");
}

TEST(CudaFuzzyConnectedness, NewThresholdRelabelsTheStoredMap) {
    REQUIRE_DEVICE();
    const Volume v = noiseVolume({64, 48, 40}, PixelType::Int16, 8);
    auto engine = gpu::createSegmenter(Method::FuzzyConnectedness, gpu::Backend::Cuda);
    auto r = fc(v, {{30, 20, 20}});
    engine->start(r);
    engine->run();
    const int rounds = *engine->figures().rounds;
    for (double t : {0.1, 0.35, 0.6, 0.9}) {
        r.fuzzyConnectedness.threshold = t;
        ASSERT_EQ(engine->update(r), UpdateOutcome::Relabelled);
        EXPECT_TRUE(engine->finished());
        LabelMap labels;
        engine->result(labels);
        EXPECT_EQ(differing(labels, run(Method::FuzzyConnectedness, gpu::Backend::Cpu, r).labels), 0u) << t;
    }
    EXPECT_EQ(*engine->figures().rounds, rounds) << "no round ran for a new threshold";
}

namespace {

/// FCM on the CPU and on CUDA: the same labels, memberships within 1e-5, centres within 1e-6.
void expectSameFcm(const SegmentationRequest& r, const std::string& what) {
    auto cpu = gpu::createSegmenter(Method::FuzzyCMeans, gpu::Backend::Cpu);
    auto cuda = gpu::createSegmenter(Method::FuzzyCMeans, gpu::Backend::Cuda);
    cpu->start(r);
    cuda->start(r);
    const StepReport a = cpu->run(), b = cuda->run(7);  // other step sizes: the same sequence
    EXPECT_EQ(a.iterations, b.iterations) << what;
    const auto ca = cpu->figures().centres, cb = cuda->figures().centres;
    ASSERT_EQ(ca.size(), cb.size());
    for (std::size_t k = 0; k < ca.size(); ++k) EXPECT_NEAR(ca[k], cb[k], 1e-6 * (1 + std::abs(ca[k]))) << what;
    EXPECT_EQ(cpu->figures().samples, cuda->figures().samples) << what;
    LabelMap la, lb;
    cpu->result(la);
    cuda->result(lb);
    EXPECT_EQ(differing(la, lb), 0u) << what;
    // Each cluster's voxels: the labels counted, on both engines.
    std::vector<std::size_t> counted(ca.size(), 0);
    for (std::size_t i = 0; i < la.voxelCount(); ++i)
        if (la.data()[i]) ++counted[la.data()[i] - 1];
    EXPECT_EQ(cpu->figures().clusterVoxels, counted) << what;
    EXPECT_EQ(cuda->figures().clusterVoxels, counted) << what;
    const auto ua = cpu->softMaps(), ub = cuda->softMaps();
    ASSERT_EQ(ua.size(), ub.size());
    double worst = 0;
    for (std::size_t k = 0; k < ua.size(); ++k)
        for (std::size_t i = 0; i < ua[k].voxelCount(); ++i)
            worst = std::max(worst, double(std::abs(ua[k].float32Data()[i] - ub[k].float32Data()[i])));
    EXPECT_LT(worst, 1e-5) << what;
}

struct FcmRunOnCpu {
    LabelMap labels;
    std::vector<Volume> maps;
};

FcmRunOnCpu fcmOnCpu(const SegmentationRequest& r) {
    auto cpu = gpu::createSegmenter(Method::FuzzyCMeans, gpu::Backend::Cpu);
    cpu->start(r);
    cpu->run();
    FcmRunOnCpu out;
    cpu->result(out.labels);
    out.maps = cpu->softMaps();
    return out;
}

SegmentationRequest fcmRequest(const Volume& v, int clusters) {
    SegmentationRequest r;
    r.volume = &v;
    r.fuzzyCMeans.clusters = clusters;
    return r;
}

}  // namespace

TEST(CudaFuzzyCMeans, EqualToCpuOnRandomTinyTwoLevelAndRoiVolumes) {
    REQUIRE_DEVICE();
    for (unsigned seed = 1; seed <= 3; ++seed) {
        const Volume v = noiseVolume({31 + 20 * int(seed), 17 + 9 * int(seed), 5 + 7 * int(seed)}, PixelType::Int16, seed + 20, 20);
        for (int c : {2, 3, 5}) expectSameFcm(fcmRequest(v, c), "random " + std::to_string(seed) + " c=" + std::to_string(c));
    }
    const Volume tiny = noiseVolume({3, 2, 1}, PixelType::Int16, 1, 40);
    expectSameFcm(fcmRequest(tiny, 2), "tiny");
    Geometry g;
    g.dims = {33, 9, 7};
    Volume two(g, PixelType::Int16);
    for (std::size_t i = 0; i < two.voxelCount(); ++i) two.setValue(i, i % 3 ? -1000 : 400);
    expectSameFcm(fcmRequest(two, 2), "two levels");
    auto cpuTwo = gpu::createSegmenter(Method::FuzzyCMeans, gpu::Backend::Cuda);
    EXPECT_THROW(cpuTwo->start(fcmRequest(two, 3)), std::invalid_argument) << "two values cannot make three clusters";
    const Volume v = noiseVolume({70, 50, 30}, PixelType::Int16, 9, 25);
    auto roi = fcmRequest(v, 3);
    roi.roi = VoxelBox{{5, 4, 3}, {60, 44, 25}};
    expectSameFcm(roi, "roi");
    LabelMap mask(v.geometry());
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) mask[i] = (i / 5) % 3 != 0;
    auto masked = fcmRequest(v, 4);
    masked.mask = &mask;
    expectSameFcm(masked, "mask");
}

TEST(CudaFuzzyCMeans, FloatVolumesAndThePerVoxelPathStayOnTheCpu) {
    REQUIRE_DEVICE();
    const Volume f = noiseVolume({20, 20, 10}, PixelType::Float32, 2);
    auto cuda = gpu::createSegmenter(Method::FuzzyCMeans, gpu::Backend::Cuda);
    EXPECT_THROW(cuda->start(fcmRequest(f, 3)), GpuError);
    auto automatic = gpu::createSegmenter(Method::FuzzyCMeans, gpu::Backend::Auto);
    automatic->start(fcmRequest(f, 3));
    automatic->run();
    EXPECT_STREQ(automatic->backend(), "cpu");
    EXPECT_NE(gpu::fallbackNotice(*automatic).find("int16"), std::string::npos);
}

TEST(CudaFuzzyCMeans, PerVoxelPathEqualsCpuPerVoxelAndTheHistogramPath) {
    REQUIRE_DEVICE();
    const Volume v = noiseVolume({61, 43, 19}, PixelType::Int16, 31, 25);
    for (int c : {2, 3, 4, 8}) {
        auto r = fcmRequest(v, c);
        r.fuzzyCMeans.perVoxel = true;
        expectSameFcm(r, "per-voxel c=" + std::to_string(c));
    }
    // The per-voxel device path against the histogram device path: the same fixed point.
    auto perVoxel = fcmRequest(v, 3);
    perVoxel.fuzzyCMeans.perVoxel = true;
    const auto a = run(Method::FuzzyCMeans, gpu::Backend::Cuda, perVoxel), b = run(Method::FuzzyCMeans, gpu::Backend::Cuda, fcmRequest(v, 3));
    EXPECT_EQ(differing(a.labels, b.labels), 0u);
    auto roi = fcmRequest(v, 3);
    roi.fuzzyCMeans.perVoxel = true;
    roi.roi = VoxelBox{{5, 4, 3}, {50, 38, 15}};
    expectSameFcm(roi, "per-voxel roi");
    LabelMap mask(v.geometry());
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) mask[i] = (i / 7) % 3 != 0;
    auto masked = fcmRequest(v, 4);
    masked.fuzzyCMeans.perVoxel = true;
    masked.mask = &mask;
    expectSameFcm(masked, "per-voxel mask");
    Geometry g;
    g.dims = {33, 9, 7};
    Volume two(g, PixelType::Int16);  // voxels equal to a centre: membership exactly 1
    for (std::size_t i = 0; i < two.voxelCount(); ++i) two.setValue(i, i % 3 ? -1000 : 400);
    auto twoLevels = fcmRequest(two, 2);
    twoLevels.fuzzyCMeans.perVoxel = true;
    expectSameFcm(twoLevels, "per-voxel two levels");
}

TEST(CudaFuzzyCMeans, FloatMembershipsStayOnTheDeviceWrittenWithTheLabels) {
    REQUIRE_DEVICE();
    for (bool roi : {false, true}) {
        const Volume v = noiseVolume({64, 40, 21}, PixelType::Int16, 44, 30);  // n a multiple of 8
        auto r = fcmRequest(v, 3);
        r.fuzzyCMeans.deviceMemberships = true;
        if (roi) r.roi = VoxelBox{{3, 2, 1}, {60, 30, 19}};
        const FcmRunOnCpu cpu = fcmOnCpu(r);
        auto context = std::make_shared<gpu::GpuContext>(v);
        auto cuda = gpu::createSegmenter(Method::FuzzyCMeans, gpu::Backend::Cuda, context);
        cuda->start(r);
        cuda->run();
        cuda->writeLabels(context->labelSink());  // one pass: labels and the float maps
        const float* maps = cuda->deviceSoftMaps();
        ASSERT_NE(maps, nullptr);
        const std::size_t n = v.voxelCount();
        std::vector<float> host(3 * n);
        context->download(host.data(), maps, host.size() * sizeof(float));
        LabelMap labels;
        context->downloadLabels(labels);
        EXPECT_EQ(differing(labels, cpu.labels), 0u) << "roi " << roi;
        double worst = 0, total = 0;
        for (int k = 0; k < 3; ++k)
            for (std::size_t i = 0; i < n; ++i) {
                worst = std::max(worst, double(std::abs(host[k * n + i] - cpu.maps[k].float32Data()[i])));
                total += host[k * n + i];
            }
        EXPECT_LT(worst, 1e-5) << "roi " << roi;
        // Memberships sum to 1 per included voxel (0 outside the ROI).
        const double included = roi ? 58.0 * 29 * 19 : double(n);
        EXPECT_NEAR(total, included, 1e-4 * included);
    }
}

TEST(CudaFuzzyCMeans, PerVoxelBeyondEightClustersFallsBackToTheCpu) {
    REQUIRE_DEVICE();
    const Volume v = noiseVolume({30, 20, 10}, PixelType::Int16, 5, 40);
    auto r = fcmRequest(v, 9);
    r.fuzzyCMeans.perVoxel = true;
    auto cuda = gpu::createSegmenter(Method::FuzzyCMeans, gpu::Backend::Cuda);
    EXPECT_THROW(cuda->start(r), GpuError);
    auto automatic = gpu::createSegmenter(Method::FuzzyCMeans, gpu::Backend::Auto);
    automatic->start(r);
    automatic->run();
    EXPECT_STREQ(automatic->backend(), "cpu");
    EXPECT_NE(gpu::fallbackNotice(*automatic).find("clusters"), std::string::npos) << gpu::fallbackNotice(*automatic);
}

TEST(CudaFuzzyCMeans, SoftMapsWithoutRoomForTheFloatMapsComeFromTheHost) {
    REQUIRE_DEVICE();
    const Volume v = noiseVolume({128, 128, 64}, PixelType::Int16, 8, 30);  // 2 MiB; 3 float maps: 12 MiB
    const auto r = fcmRequest(v, 3);
    auto context = std::make_shared<gpu::GpuContext>(v);
    auto cuda = gpu::createSegmenter(Method::FuzzyCMeans, gpu::Backend::Cuda, context);
    cuda->start(r);
    cuda->run();
    ::setenv("LUCENT_GPU_MEMORY_LIMIT_MB", "8", 1);
    std::vector<Volume> maps;
    try {
        maps = cuda->softMaps();
    } catch (...) {
        ::unsetenv("LUCENT_GPU_MEMORY_LIMIT_MB");
        throw;
    }
    ::unsetenv("LUCENT_GPU_MEMORY_LIMIT_MB");
    const FcmRunOnCpu cpu = fcmOnCpu(r);
    ASSERT_EQ(maps.size(), 3u);
    double worst = 0;
    for (int k = 0; k < 3; ++k)
        for (std::size_t i = 0; i < v.voxelCount(); ++i)
            worst = std::max(worst, double(std::abs(maps[k].float32Data()[i] - cpu.maps[k].float32Data()[i])));
    EXPECT_LT(worst, 1e-5);
}

TEST(GpuContext, UploadReportsProgressAndCanBeCancelled) {
    REQUIRE_DEVICE();
    const Volume v = noiseVolume({256, 256, 300}, PixelType::Int16, 3);  // 37.5 MiB: two staging chunks
    std::vector<std::size_t> seen;
    gpu::GpuContext context(v, [&](std::size_t done, std::size_t total) {
        EXPECT_EQ(total, v.byteSize());
        seen.push_back(done);
        return true;
    });
    ASSERT_GE(seen.size(), 2u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_EQ(seen.back(), v.byteSize());
    EXPECT_EQ(context.deviceVolume().range(), v.range());
    EXPECT_THROW(gpu::GpuContext(v, [](std::size_t, std::size_t) { return false; }), Cancelled);
}

TEST(CudaEngines, SmallCasesForTheSanitizers) {
    // What device-check.sh runs under compute-sanitizer (memcheck, racecheck): every kernel, a few
    // tiles, partial tiles on every axis, a seed on a tile face, ROI and mask paths.
    REQUIRE_DEVICE();
    const Volume v = noiseVolume({45, 37, 19}, PixelType::Int16, 6);
    const Volume f = noiseVolume({40, 9, 10}, PixelType::Float32, 7);
    const VoxelIndex s{31, 16, 8};
    const double centre = v.value(s.i, s.j, s.k);
    expectSameRegion(srg(v, {s}, centre - 70, centre + 70, 6), "small 6");
    expectSameRegion(srg(v, {s}, centre - 70, centre + 70, 26), "small 26");
    auto roi = srg(v, {s}, centre - 70, centre + 70, 6);
    roi.roi = VoxelBox{{2, 2, 2}, {40, 30, 15}};
    expectSameRegion(roi, "small roi");
    expectSameConnectivity(fc(v, {s}), "small fc");
    expectSameConnectivity(fc(f, {{8, 7, 7}}), "small float fc");
    expectSameFcm(fcmRequest(v, 3), "small fcm");
    auto perVoxel = fcmRequest(v, 3);
    perVoxel.fuzzyCMeans.perVoxel = true;
    perVoxel.roi = VoxelBox{{1, 2, 3}, {40, 30, 15}};
    expectSameFcm(perVoxel, "small per-voxel fcm with an roi");
}

TEST(CudaEngines, RealCtHeadEqualsCpu) {
    REQUIRE_DEVICE();
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume v = io::readVolumeFile(path);
    expectSameRegion(srg(v, {{66, 128, 54}}, 300, 3100, 6), "CT bone (6)");  // in the skull, 1045 HU
    expectSameRegion(srg(v, {{66, 128, 54}}, 300, 3100, 26), "CT bone (26)");
    expectSameRegion(srg(v, {{128, 200, 54}}, -1100, -400, 6), "CT air");  // outside the head
    expectSameConnectivity(fc(v, {{66, 128, 54}}, 0.3), "CT bone fc");
    expectSameFcm(fcmRequest(v, 4), "CT fcm");
    auto perVoxel = fcmRequest(v, 4);
    perVoxel.fuzzyCMeans.perVoxel = true;
    expectSameFcm(perVoxel, "CT fcm per voxel");
    const std::string t1 = lucent::testing::realData("itk/KmeansTest_T1UCharRaw.nii.gz");
    const std::string strip = lucent::testing::realData("itk/KmeansTest_T1RawSkullStrip.nii.gz");
    if (!t1.empty() && !strip.empty()) {
        const Volume brain = io::readVolumeFile(t1);
        const LabelMap mask = io::readLabelMapFile(strip);
        auto r = fcmRequest(brain, 3);
        r.mask = &mask;
        expectSameFcm(r, "ITK T1 brain in its skull-strip mask");
        r.fuzzyCMeans.perVoxel = true;
        expectSameFcm(r, "ITK T1 brain in its skull-strip mask, per voxel");
    }
}

/// Sets an environment variable for a scope (the memory cap is read at every allocation).
struct ScopedEnv {
    const char* name;
    ScopedEnv(const char* n, const char* value) : name(n) { ::setenv(n, value, 1); }
    void set(const char* value) const { ::setenv(name, value, 1); }
    ~ScopedEnv() { ::unsetenv(name); }
};

TEST(GpuMemoryLimit, ARefusedAllocationNamesItAndItsSizesAndOneWithinTheCapWorks) {
    REQUIRE_DEVICE();
    const Volume v = noiseVolume({128, 128, 128}, PixelType::Int16, 4);  // 4 MiB resident
    const double centre = v.value(64, 64, 64);
    const auto r = srg(v, {{64, 64, 64}}, centre - 40, centre + 40);
    {
        ScopedEnv cap("LUCENT_GPU_MEMORY_LIMIT_MB", "2");
        try {
            gpu::GpuContext refused(v);
            ADD_FAILURE() << "a 2 MiB cap cannot hold a 4 MiB volume";
        } catch (const GpuError& e) {
            // The same words as a real cudaMalloc failure: what, how much, how much is free of what.
            EXPECT_NE(std::string(e.what()).find("GPU out of memory: the volume needs 4.0 MiB"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("of 2.0 MiB are free"), std::string::npos) << e.what();
        }
    }
    auto context = std::make_shared<gpu::GpuContext>(v);  // no cap: the refused volume's bytes were never taken
    ScopedEnv cap("LUCENT_GPU_MEMORY_LIMIT_MB", "4.1");   // the volume fits, a run's 256 KiB of bits do not
    auto cuda = gpu::createSegmenter(Method::RegionGrowing, gpu::Backend::Cuda, context);
    try {
        cuda->start(r);
        ADD_FAILURE() << "the run's first allocation passes a cap of 4.1 MiB";
    } catch (const GpuError& e) {
        EXPECT_NE(std::string(e.what()).find("GPU out of memory: the region-growing mask bits needs 0."), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("of 4.1 MiB are free"), std::string::npos) << e.what();
    }
    cap.set("16");  // room again: the same context runs, and equals the CPU
    auto again = gpu::createSegmenter(Method::RegionGrowing, gpu::Backend::Cuda, context);
    again->start(r);
    again->run();
    EXPECT_STREQ(again->backend(), "cuda");
    LabelMap labels;
    again->result(labels);
    const Outcome cpu = run(Method::RegionGrowing, gpu::Backend::Cpu, r);
    EXPECT_GT(cpu.labels.count(1), 0u);
    EXPECT_EQ(differing(labels, cpu.labels), 0u);
}

TEST(CudaEngines, OutOfMemoryFallsBackToTheCpuWithTheReason) {
    REQUIRE_DEVICE();
    const Volume v = noiseVolume({128, 128, 128}, PixelType::Int16, 1);  // 4 MiB
    ::setenv("LUCENT_GPU_MEMORY_LIMIT_MB", "1", 1);
    const auto r = srg(v, {{64, 64, 64}}, v.value(64, 64, 64) - 40, v.value(64, 64, 64) + 40);
    auto automatic = gpu::createSegmenter(Method::RegionGrowing, gpu::Backend::Auto);
    automatic->start(r);
    automatic->run();
    EXPECT_STREQ(automatic->backend(), "cpu");
    EXPECT_NE(gpu::fallbackNotice(*automatic).find("out of memory"), std::string::npos) << gpu::fallbackNotice(*automatic);
    auto forced = gpu::createSegmenter(Method::FuzzyConnectedness, gpu::Backend::Cuda);
    try {
        forced->start(fc(v, {{64, 64, 64}}));
        ADD_FAILURE() << "a 1 MiB cap cannot hold a 4 MiB volume";
    } catch (const GpuError& e) {
        EXPECT_NE(std::string(e.what()).find("MiB"), std::string::npos) << e.what();
    }
    ::unsetenv("LUCENT_GPU_MEMORY_LIMIT_MB");
    LabelMap labels;
    automatic->result(labels);
    EXPECT_EQ(differing(labels, run(Method::RegionGrowing, gpu::Backend::Cuda, r).labels), 0u);
}
