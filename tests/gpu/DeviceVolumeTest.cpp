/// @brief Device-resident volumes: upload/download round trip and GPU min/max equal to the CPU's.
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/DeviceVolume.h"

#include <gtest/gtest.h>

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
