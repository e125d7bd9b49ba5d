/// @brief Volumes that stay on the device (Resident.h; not the viewer's ui::ResidentVolume):
/// borrowed device memory read where it lies (voxels, windows, the sample grid), and engine runs over
/// it whose labels stay in device memory, equal to the CPU engines' with no volume uploaded or labels
/// downloaded.
#include "lucent/core/seg/SeedInterval.h"
#include "lucent/core/ValueHistogram.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/DeviceVolume.h"
#include "lucent/gpu/EngineRun.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/Resident.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace lucent;

namespace {
bool haveDevice() { return !gpu::listDevices().empty(); }

/// Smooth structures of both signs (regions to grow, classes to find) on an odd-sized grid.
Volume waves(PixelType type) {
    Geometry g;
    g.dims = {83, 71, 45};
    Volume v(g, type);
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const double x = 900 * std::sin(i / 9.0) * std::cos(j / 11.0) + 250 * std::sin(k / 6.0);
                v.setValue(g.index(i, j, k), type == PixelType::Int16 ? std::round(x) : x + 0.25);
            }
    return v;
}
}  // namespace

TEST(BorrowedDeviceVolume, BorrowedVoxelsAreReadWhereTheyLie) {
    if (!haveDevice()) GTEST_SKIP() << "no CUDA device";
    for (PixelType type : {PixelType::Int16, PixelType::Float32}) {
        const Volume v = waves(type);
        const Geometry& g = v.geometry();
        const gpu::DeviceVolume owner(v);
        const gpu::DeviceVolume d(g, type, owner.devicePointer());
        EXPECT_EQ(d.devicePointer(), owner.devicePointer());
        EXPECT_EQ(d.range(), v.range());
        for (std::size_t index : {std::size_t(0), std::size_t(4321), g.voxelCount() - 1}) EXPECT_EQ(d.value(index), v.value(index));
        const VoxelBox box{{3, 60, 40}, {9, 70, 44}};
        const Volume w = d.window(box);
        ASSERT_EQ(w.geometry().dims, (std::array<int, 3>{7, 11, 5}));
        for (int k = box.lo[2]; k <= box.hi[2]; ++k)
            for (int j = box.lo[1]; j <= box.hi[1]; ++j)
                for (int i = box.lo[0]; i <= box.hi[0]; ++i)
                    ASSERT_EQ(w.value(i - box.lo[0], j - box.lo[1], k - box.lo[2]), v.value(i, j, k));
        const Volume s = d.sampleGrid(4);
        ASSERT_EQ(s.geometry().dims, (std::array<int, 3>{21, 18, 12}));
        for (int k = 0; k < 12; ++k)
            for (int j = 0; j < 18; ++j)
                for (int i = 0; i < 21; ++i) ASSERT_EQ(s.value(i, j, k), v.value(4 * i, 4 * j, 4 * k));
        // The sampled grid alone gives the volume's histogram (what the seed interval reads).
        const auto [lo, hi] = v.range();
        EXPECT_EQ(gridSampleHistogram(d.sampleGrid(gridSampleStep(g.dims, 5000)), lo, hi, 64, 5000).counts,
                  gridSampleHistogram(v, lo, hi, 64, 5000).counts);
    }
}

TEST(BorrowedDeviceVolume, RunsEqualTheCpuEnginesWithoutHostTransfers) {
    if (!haveDevice()) GTEST_SKIP() << "no CUDA device";
    for (PixelType type : {PixelType::Int16, PixelType::Float32}) {
        const Volume v = waves(type);
        const Geometry& g = v.geometry();
        const gpu::DeviceVolume owner(v);  // stands for a caller's device array
        const Volume named = gpu::residentVolume(g, type);
        ASSERT_FALSE(gpu::hasHostVoxels(named));
        const std::vector<Method> methods = type == PixelType::Int16
                                                ? std::vector<Method>{Method::RegionGrowing, Method::FuzzyConnectedness,
                                                                      Method::FuzzyCMeans}
                                                : std::vector<Method>{Method::RegionGrowing, Method::FuzzyConnectedness};
        for (Method method : methods) {
            SCOPED_TRACE(std::string(methodName(method)) + (type == PixelType::Int16 ? " int16" : " float32"));
            SegmentationRequest host;
            host.volume = &v;
            host.seeds = {{20, 3, 10}, {60, 40, 30}};
            auto context = std::make_shared<gpu::GpuContext>(named, gpu::DeviceVolume(g, type, owner.devicePointer()));
            if (method == Method::RegionGrowing) {  // the interval estimated at the first seed, on both sides
                const RegionGrowingParams p = seedInterval(v, host.seeds, v.range());
                const RegionGrowingParams r = gpu::residentSeedInterval(*context, host.seeds);
                EXPECT_EQ(r.lower, p.lower);
                EXPECT_EQ(r.upper, p.upper);
                host.regionGrowing.lower = p.lower;
                host.regionGrowing.upper = p.upper;
            }
            const gpu::EngineRun cpu = gpu::runEngine(method, Backend::Cpu, host);
            ASSERT_GT(cpu.voxels, 0u);
            SegmentationRequest resident = host;
            resident.volume = &named;
            gpu::DeviceLabels labels(g.voxelCount());
            const gpu::HostTransfers before = gpu::hostTransfers();
            const gpu::EngineRun r = gpu::runEngine(method, Backend::Cuda, resident,
                                                    {.countVoxels = false, .context = context, .deviceLabels = labels.data()});
            const gpu::HostTransfers after = gpu::hostTransfers();
            EXPECT_EQ(after.volumeUploadBytes, before.volumeUploadBytes);
            EXPECT_EQ(after.labelDownloadBytes, before.labelDownloadBytes);
            EXPECT_EQ(r.labels.voxelCount(), 0u) << "the labels stay in device memory";
            std::vector<std::uint8_t> got(g.voxelCount());
            labels.copyTo(got.data());
            EXPECT_EQ(0, std::memcmp(got.data(), cpu.labels.data(), got.size()));
        }
    }
}

TEST(BorrowedDeviceVolume, DeviceLabelsNeedACudaEngineAndTheirContext) {
    if (!haveDevice()) GTEST_SKIP() << "no CUDA device";
    const Volume v = waves(PixelType::Int16);
    gpu::DeviceLabels labels(v.voxelCount());
    SegmentationRequest r;
    r.volume = &v;
    EXPECT_THROW(gpu::runEngine(Method::FuzzyCMeans, Backend::Cpu, r, {.deviceLabels = labels.data()}),
                 std::invalid_argument);
    auto context = std::make_shared<gpu::GpuContext>(v);
    EXPECT_THROW(gpu::runEngine(Method::FuzzyCMeans, Backend::Cpu, r, {.context = context, .deviceLabels = labels.data()}),
                 std::invalid_argument);
}
