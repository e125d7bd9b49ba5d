/// @brief Grow from seeds on CUDA against the CPU engine, voxel for voxel: noise with many ties
/// (the smallest-label rule decides), grids that are no multiple of a tile, a path that winds
/// through every tile, ROI and mask, a stroke added after a run (updated on the device, its step
/// boxes holding every change), float volumes falling back to the CPU, and the CT head.
#include "GrowCutInputs.h"

#include "lucent/core/seg/GrowCutCpu.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

using namespace lucent;
using lucent::testing::growcut::randomSeeds;
using lucent::testing::growcut::request;

namespace {

#define REQUIRE_DEVICE() \
    if (gpu::listDevices().empty()) GTEST_SKIP() << "no CUDA device"

Volume noise(std::array<int, 3> dims, unsigned seed, int lo, int hi) {
    Geometry g;
    g.dims = dims;
    Volume v(g, PixelType::Int16);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> value(lo, hi);
    for (std::size_t n = 0; n < v.voxelCount(); ++n) v.setValue(n, value(rng));
    return v;
}

LabelMap run(Segmenter& engine, const SegmentationRequest& r, int perStep = 64) {
    engine.start(r);
    engine.run(perStep);
    LabelMap out;
    engine.result(out);
    return out;
}

std::size_t differing(const LabelMap& a, const LabelMap& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) n += a.data()[i] != b.data()[i];
    return n;
}

void expectSame(const SegmentationRequest& r, const std::string& what, int labels) {
    GrowCutCpu cpu;
    const auto cuda = gpu::createSegmenter(Method::GrowCut, gpu::Backend::Cuda);
    const LabelMap want = run(cpu, r), got = run(*cuda, r, 4);
    EXPECT_EQ(std::string(cuda->backend()), "cuda");
    for (int l = 1; l <= labels; ++l) EXPECT_GT(want.count(std::uint8_t(l)), 0u) << what << " label " << l;
    EXPECT_EQ(differing(want, got), 0u) << what;
    const MethodFigures f = cuda->figures(), c = cpu.figures();
    EXPECT_EQ(f.labelVoxels, c.labelVoxels) << what;
}

}  // namespace

TEST(CudaGrowCut, EqualsTheCpuEngineVoxelForVoxel) {
    REQUIRE_DEVICE();
    const Volume wide = noise({70, 45, 37}, 1, -1000, 1000);
    expectSame(request(wide, randomSeeds(wide.geometry(), 2, 12, 4)), "wide noise", 4);
    const Volume ties = noise({67, 33, 29}, 3, 0, 2);  // equal distances everywhere: the label rule decides
    expectSame(request(ties, randomSeeds(ties.geometry(), 4, 20, 5)), "values 0..2", 5);
    const Volume flat = noise({40, 17, 9}, 5, 7, 7);
    expectSame(request(flat, randomSeeds(flat.geometry(), 6, 6, 3)), "flat", 3);
}

// One corridor through every row of every slice: the front crosses tile borders thousands of times.
TEST(CudaGrowCut, AWindingCorridorEqualsTheCpu) {
    REQUIRE_DEVICE();
    Geometry g;
    g.dims = {80, 24, 12};
    Volume v(g, PixelType::Int16);
    for (std::size_t n = 0; n < v.voxelCount(); ++n) v.setValue(n, 3000);  // walls: a step costs about 3000
    for (int k = 0; k < 12; k += 2)
        for (int j = 0; j < 24; j += 2) {
            for (int i = 0; i < 80; ++i) v.setValue(g.index(i, j, k), (i * 7 + j * 3 + k) % 23);
            if (j + 2 < 24) v.setValue(g.index(j / 2 % 2 ? 0 : 79, j + 1, k), 5);
        }
    for (int k = 0; k + 2 < 12; k += 2) v.setValue(g.index(k / 2 % 2 ? 0 : 79, k / 2 % 2 ? 0 : 22, k + 1), 5);
    LabelMap seeds(g);
    seeds.data()[g.index(0, 0, 0)] = 1;
    seeds.data()[g.index(40, 22, 10)] = 2;
    expectSame(request(v, seeds), "corridor", 2);
}

TEST(CudaGrowCut, RoiAndMaskAsTheCpu) {
    REQUIRE_DEVICE();
    const Volume v = noise({50, 40, 20}, 7, 0, 300);
    const Geometry& g = v.geometry();
    const LabelMap seeds = randomSeeds(g, 8, 10, 3);
    LabelMap mask(g);
    for (int k = 0; k < 20; ++k)
        for (int j = 0; j < 40; ++j)
            for (int i = 0; i < 50; ++i) mask.data()[g.index(i, j, k)] = (i + 2 * j + k) % 7 != 0;
    SegmentationRequest r = request(v, seeds);
    r.mask = &mask;
    expectSame(r, "mask", 3);
    r.mask = nullptr;
    r.roi = VoxelBox{{3, 5, 2}, {44, 37, 17}};
    GrowCutCpu cpu;
    const auto cuda = gpu::createSegmenter(Method::GrowCut, gpu::Backend::Cuda);
    EXPECT_EQ(differing(run(cpu, r), run(*cuda, r)), 0u) << "roi";
}

TEST(CudaGrowCut, AStrokeGoesOnFromTheDeviceKeysToTheCpuResult) {
    REQUIRE_DEVICE();
    const Volume v = noise({90, 70, 40}, 9, 0, 500);
    const Geometry& g = v.geometry();
    LabelMap seeds = randomSeeds(g, 10, 6, 2);
    const auto cuda = gpu::createSegmenter(Method::GrowCut, gpu::Backend::Cuda);
    LabelMap shown = run(*cuda, request(v, seeds));
    for (int i = 10; i < 60; ++i) seeds.data()[g.index(i, 30, 20)] = 3;  // the stroke, painted into the same map
    ASSERT_EQ(cuda->update(request(v, seeds)), UpdateOutcome::Continued);
    for (StepReport r; !r.finished;) {
        r = cuda->step(2);
        if (r.changed) cuda->writeLabels(LabelSink::host(shown), &*r.changed);
    }
    GrowCutCpu cpu;
    const LabelMap want = run(cpu, request(v, seeds));
    EXPECT_GT(want.count(3), 50u);
    EXPECT_EQ(differing(want, shown), 0u) << "the step boxes after the stroke";
    LabelMap all;
    cuda->result(all);
    EXPECT_EQ(differing(want, all), 0u);
}

// The viewer's update: only the box the strokes changed is uploaded and compared with the device's seeds.
TEST(CudaGrowCut, AnUpdateInTheBoxTheSeedsChangedInEqualsTheCpu) {
    REQUIRE_DEVICE();
    const Volume v = noise({75, 41, 23}, 12, 0, 400);
    const Geometry& g = v.geometry();
    LabelMap seeds = randomSeeds(g, 13, 8, 3);
    const auto cuda = gpu::createSegmenter(Method::GrowCut, gpu::Backend::Cuda);
    run(*cuda, request(v, seeds));
    VoxelBox stroke = VoxelBox::none();
    for (int j = 3; j < 38; ++j) {
        seeds.data()[g.index(40, j, 11)] = 4;
        stroke.add(40, j, 11);
    }
    SegmentationRequest r = request(v, seeds);
    r.growCut.changedBox = stroke;
    ASSERT_EQ(cuda->update(r), UpdateOutcome::Continued);
    cuda->run(4);
    GrowCutCpu cpu;
    EXPECT_EQ(differing(run(cpu, request(v, seeds)), [&] {
                  LabelMap out;
                  cuda->result(out);
                  return out;
              }()),
              0u);
    EXPECT_EQ(cuda->figures().labelVoxels, cpu.figures().labelVoxels);
    r.growCut.changedBox = VoxelBox{{0, 0, 0}, {1, 1, 1}};  // nothing new there
    EXPECT_EQ(cuda->update(r), UpdateOutcome::Continued);
    EXPECT_TRUE(cuda->finished());
    seeds.data()[g.index(40, 3, 11)] = 0;  // erased inside the box
    r.growCut.changedBox = VoxelBox{{40, 3, 11}, {40, 3, 11}};
    EXPECT_EQ(cuda->update(r), UpdateOutcome::Restarted);
    cuda->run(4);
    seeds.data()[g.index(40, 4, 11)] = 1;  // relabelled, the whole map compared
    r.growCut.changedBox.reset();
    EXPECT_EQ(cuda->update(r), UpdateOutcome::Restarted);
    cuda->run(4);
    LabelMap out;
    cuda->result(out);
    EXPECT_EQ(differing(run(cpu, request(v, seeds)), out), 0u);
}

TEST(CudaGrowCut, FloatVolumesRunOnTheCpuEngine) {
    REQUIRE_DEVICE();
    Geometry g;
    g.dims = {20, 20, 20};
    Volume v(g, PixelType::Float32);
    for (std::size_t n = 0; n < v.voxelCount(); ++n) v.float32Data()[n] = float(n % 13) * 0.37f;
    const LabelMap seeds = randomSeeds(g, 11, 4, 2);
    const auto cuda = gpu::createSegmenter(Method::GrowCut, gpu::Backend::Cuda);
    EXPECT_ANY_THROW(cuda->start(request(v, seeds)));
    const auto autoEngine = gpu::createSegmenter(Method::GrowCut, gpu::Backend::Auto);
    GrowCutCpu cpu;
    EXPECT_EQ(differing(run(cpu, request(v, seeds)), run(*autoEngine, request(v, seeds))), 0u);
    EXPECT_EQ(std::string(autoEngine->backend()), "cpu");
}

TEST(CudaGrowCut, RealCtHeadEqualsCpu) {
    REQUIRE_DEVICE();
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume ct = io::readVolumeFile(path);
    const Geometry& g = ct.geometry();
    LabelMap seeds(g);
    for (int d = -1; d <= 1; ++d) {
        seeds.data()[g.index(66 + d, 128, 54)] = 1;   // skull
        seeds.data()[g.index(128 + d, 128, 54)] = 2;  // brain
        seeds.data()[g.index(10 + d, 10, 54)] = 3;    // air
    }
    expectSame(request(ct, seeds), "CT head", 3);
}
