/// @brief CUDA = CPU on a volume of more than 2^32 voxels for every method: region growing, fuzzy
/// connectedness and fuzzy C-means on a ball across index 2^32, the snake on a slice past it; the full
/// label arrays compared. Skipped without a device or the memory it needs (it says which).
#include "LargeVolumeScene.h"

#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/SegmenterFactory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

using namespace lucent;
using namespace lucent::testing;

namespace {

struct Labelled {
    LabelMap labels;
    std::string backend;
};

Labelled runOn(Method method, gpu::Backend backend, const SegmentationRequest& r, std::shared_ptr<gpu::GpuContext> context) {
    auto engine = gpu::createSegmenter(method, backend, std::move(context));
    engine->start(r);
    engine->run();
    Labelled out;
    engine->result(out.labels);
    out.backend = engine->backend();
    return out;
}

/// Voxels whose labels differ (std::equal first: it is fast, and the count only matters on failure).
std::size_t differing(const LabelMap& a, const LabelMap& b) {
    if (a.voxelCount() != b.voxelCount()) return std::max(a.voxelCount(), b.voxelCount());
    if (std::equal(a.data(), a.data() + a.voxelCount(), b.data())) return 0;
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) n += a[i] != b[i];
    return n;
}

/// Runs `r` on the CPU and on CUDA (on `context`) and compares every voxel's label; returns the CPU's.
LabelMap expectSameLabels(Method method, const SegmentationRequest& r, std::shared_ptr<gpu::GpuContext> context) {
    Labelled cpu = runOn(method, gpu::Backend::Cpu, r, nullptr);
    const Labelled cuda = runOn(method, gpu::Backend::Cuda, r, std::move(context));
    EXPECT_EQ(cuda.backend, "cuda") << methodName(method);
    EXPECT_EQ(differing(cpu.labels, cuda.labels), 0u) << methodName(method) << ": " << cpu.labels.count(1) << " voxels of 1 on the CPU";
    return std::move(cpu.labels);
}

SegmentationRequest inBallRoi(const Volume& v) {
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {kBallCentre};
    r.roi = ballRoi();
    return r;
}

/// Why the test cannot run here: no device, or too little device or host memory for what it holds at once.
std::optional<std::string> whyNotHere() {
    const auto devices = gpu::listDevices();
    if (devices.empty()) return std::string("no CUDA device");
    const std::uint64_t n = largeGeometry().voxelCount();
    // Device: the volume (2 bytes a voxel), fuzzy connectedness' 16-bit map, the labels, and room.
    if (devices.front().freeMemory < 6 * n)
        return "needs " + gib(6 * n) + " of free device memory, " + gib(devices.front().freeMemory) + " is free";
    // Host: both runs' labels and the CPU engine's state (fuzzy connectedness: a 16-bit map).
    return whyNoRoom(4 * n);
}

}  // namespace

// One test, the methods in turn: as separate tests ctest would run them at once, and four volumes
// would not fit the device together.
TEST(LargeVolumeCuda, EveryMethodEqualsCpuPastTwoToTheThirtyTwoVoxels) {
    if (const auto why = whyNotHere()) GTEST_SKIP() << *why;
    const auto volume = largeVolume();
    if (!volume) GTEST_SKIP() << "this machine does not lend 8.7 GB of address space";
    const Volume& v = *volume;
    auto context = std::make_shared<gpu::GpuContext>(v);  // one upload for every engine
    const std::size_t ball = ballVoxels();
    {
        SCOPED_TRACE("region growing");
        auto r = inBallRoi(v);
        r.regionGrowing = {100, 300, 26};
        const LabelMap labels = expectSameLabels(Method::RegionGrowing, r, context);
        EXPECT_EQ(labels.count(1), ball);
    }
    {
        SCOPED_TRACE("fuzzy connectedness");
        auto r = inBallRoi(v);
        r.fuzzyConnectedness.threshold = 0.5;
        const LabelMap labels = expectSameLabels(Method::FuzzyConnectedness, r, context);
        EXPECT_EQ(labels.count(1), ball);
    }
    {
        SCOPED_TRACE("fuzzy C-means");  // the whole volume: 0 everywhere but the ball
        SegmentationRequest r;
        r.volume = &v;
        r.fuzzyCMeans.clusters = 2;
        const LabelMap labels = expectSameLabels(Method::FuzzyCMeans, r, context);
        EXPECT_EQ(labels.count(2), ball);
    }
    {
        SCOPED_TRACE("snake");
        SegmentationRequest r;
        r.volume = &v;
        r.snake.slice = kBallCentre.k + 2;  // 4 slices past index 2^32
        r.snake.rect = {kBallCentre.i - 16, kBallCentre.j - 16, kBallCentre.i + 16, kBallCentre.j + 16};
        const LabelMap labels = expectSameLabels(Method::Snake, r, context);
        EXPECT_GT(labels.count(1), 200u) << "the snake must find the ball's disc";
    }
}
