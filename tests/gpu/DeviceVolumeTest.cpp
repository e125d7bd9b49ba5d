/// @brief Device-resident volumes: upload/download round trip and GPU min/max equal to the CPU's.
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/DeviceVolume.h"

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
