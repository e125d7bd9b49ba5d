/// @brief Device-resident volumes: upload/download round trip and GPU min/max equal to the CPU's;
/// labels back through the staging buffers, also after the device was released.
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/DeviceVolume.h"
#include "lucent/gpu/GpuContext.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

using namespace lucent;

namespace {
bool haveDevice() { return !gpu::listDevices().empty(); }

Volume sample(PixelType type) {
    Geometry g;
    g.dims = {97, 61, 33};
    Volume v(g, type);
    for (std::size_t i = 0; i < v.voxelCount(); ++i)
        v.setValue(i, type == PixelType::Int16 ? double(int((i * 7919) % 5000) - 1500) : (i % 977) * 0.37 - 12.5);
    return v;
}
}  // namespace

TEST(DeviceVolume, WithoutDeviceConstructionFailsClearly) {
    if (haveDevice()) GTEST_SKIP() << "a CUDA device is present";
    try {
        gpu::DeviceVolume d(sample(PixelType::Int16));
        ADD_FAILURE();
    } catch (const std::exception& e) {
        EXPECT_FALSE(std::string(e.what()).empty());
    }
}

TEST(DeviceVolume, RoundTripAndRangeMatchCpu) {
    if (!haveDevice()) GTEST_SKIP() << "no CUDA device";
    for (PixelType type : {PixelType::Int16, PixelType::Float32}) {
        const Volume v = sample(type);
        const gpu::DeviceVolume d(v);
        const Volume back = d.download();
        ASSERT_EQ(back.byteSize(), v.byteSize());
        EXPECT_EQ(0, std::memcmp(back.data(), v.data(), v.byteSize()));
        EXPECT_EQ(d.range(), v.range());
    }
}

TEST(DeviceVolume, RangeOfMoreThan2To32Voxels) {
    // The CUB reduction counts items in an int: 2^32 + 2^20 voxels, the extremes placed past 2^32.
    if (!haveDevice()) GTEST_SKIP() << "no CUDA device";
    const std::size_t n = (std::size_t(1) << 32) + (std::size_t(1) << 20);
    if (gpu::listDevices().front().freeMemory < 3 * n) GTEST_SKIP() << "the device has no room for 2^32 int16 voxels";
    Geometry g;
    g.dims = {1024, 1024, int(n / (1024 * 1024))};
    Volume v(g, PixelType::Int16);
    std::int16_t* p = v.int16Data();
    std::fill(p, p + n, std::int16_t(7));
    p[n - 5] = -1234;
    p[(std::size_t(1) << 30) + 9] = -2000;  // in the second of the reduction's chunks
    p[(std::size_t(1) << 32) + 17] = 4321;  // past 2^32
    const gpu::DeviceVolume d(v);
    EXPECT_EQ(d.range(), (std::pair<double, double>{-2000.0, 4321.0}));
}

namespace {
/// Labels on the device's buffer of a fresh context, read back whole, as whole slices from the middle
/// (the staged path) and as a box inside the slices (the pitched copy); each equal to what went up.
void checkLabelDownloads(const Volume& v, const LabelMap& up) {
    gpu::GpuContext context(v);
    context.uploadLabels(up);
    LabelMap whole;
    context.downloadLabels(whole);
    ASSERT_EQ(whole.voxelCount(), up.voxelCount());
    EXPECT_EQ(0, std::memcmp(whole.data(), up.data(), up.voxelCount()));
    const Geometry& g = v.geometry();
    for (const VoxelBox box : {VoxelBox{{0, 0, 3}, {g.dims[0] - 1, g.dims[1] - 1, g.dims[2] - 2}},
                               VoxelBox{{5, 1, 2}, {g.dims[0] - 3, g.dims[1] - 7, g.dims[2] - 4}}}) {
        LabelMap part(g);
        context.downloadLabels(part, &box);
        std::size_t wrong = 0;
        for (int k = 0; k < g.dims[2]; ++k)
            for (int j = 0; j < g.dims[1]; ++j)
                for (int i = 0; i < g.dims[0]; ++i)
                    wrong += part.at(i, j, k) != (box.contains(i, j, k) ? up.at(i, j, k) : 0);
        EXPECT_EQ(wrong, 0u) << "box from k = " << box.lo[2];
    }
}
}  // namespace

TEST(GpuContext, LabelsComeBackWholeAndInBoxesAlsoAfterTheDeviceWasReleased) {
    if (!haveDevice()) GTEST_SKIP() << "no CUDA device";
    // 75 M voxels: the staging buffers' 32 MiB three times over, and a partial last chunk.
    Geometry g;
    g.dims = {512, 389, 377};
    Volume v(g, PixelType::Int16);
    LabelMap up(g);
    for (std::size_t i = 0; i < up.voxelCount(); ++i) up[i] = std::uint8_t((i * 2654435761u) >> 27);
    checkLabelDownloads(v, up);
    // A new context and new staging buffers after the release: the device works as before.
    gpu::releaseDevice();
    checkLabelDownloads(v, up);
}
