/// @brief A live run's soft map overlay without an engine or GL: the device path first, else the host
/// map quantised to a byte a voxel; a map the run lacks shows nothing; hiding empties the heat texture.
#include "lucent/ui/SoftMapOverlay.h"

#include <gtest/gtest.h>

namespace lucent::ui {
namespace {

/// A run with `maps` host maps of 4 voxels; `device` says whether the device path takes a map.
struct FakeMaps {
    std::vector<Volume> maps;
    bool device = false;
    int hostReads = 0, deviceTries = 0, redraws = 0;
    std::vector<std::vector<std::uint8_t>> uploads;

    explicit FakeMaps(int count) {
        Geometry g;
        g.dims = {4, 1, 1};
        for (int m = 0; m < count; ++m) {
            Volume v(g, PixelType::Float32);
            const double values[] = {-0.5, 0.0, 0.5 + 0.1 * m, 1.5};
            for (std::size_t i = 0; i < 4; ++i) v.setValue(i, values[i]);
            maps.push_back(std::move(v));
        }
    }
    SoftMapSource source() {
        SoftMapSource s;
        s.hostMaps = [this] {
            ++hostReads;
            return maps;
        };
        s.copyFromDevice = [this](int) {
            ++deviceTries;
            return device;
        };
        s.uploadHeat = [this](const std::vector<std::uint8_t>& v) { uploads.push_back(v); };
        s.redraw = [this] { ++redraws; };
        return s;
    }
};

TEST(SoftMapOverlay, TheHostMapIsShownAsAByteAVoxelClampedToZeroToOne) {
    FakeMaps fake(2);
    SoftMapOverlay overlay(fake.source());
    ASSERT_TRUE(overlay.show(1));
    EXPECT_EQ(overlay.shown(), 1);
    EXPECT_FALSE(overlay.fromDevice());
    EXPECT_EQ(fake.deviceTries, 1) << "the device path is tried first";
    ASSERT_EQ(fake.uploads.size(), 1u);
    EXPECT_EQ(fake.uploads[0], (std::vector<std::uint8_t>{0, 0, 153, 255}));  // 0.6 * 255 = 153
    EXPECT_EQ(fake.redraws, 1);
}

TEST(SoftMapOverlay, TheDevicePathMakesNoHostCopy) {
    FakeMaps fake(1);
    fake.device = true;
    SoftMapOverlay overlay(fake.source());
    ASSERT_TRUE(overlay.show(0));
    EXPECT_TRUE(overlay.fromDevice());
    EXPECT_EQ(overlay.shown(), 0);
    EXPECT_EQ(fake.hostReads, 0);
    EXPECT_TRUE(fake.uploads.empty());
    EXPECT_EQ(fake.redraws, 1);
}

TEST(SoftMapOverlay, AMapTheRunLacksShowsNothingAndHidingEmptiesTheHeatTexture) {
    FakeMaps fake(1);
    SoftMapOverlay overlay(fake.source());
    EXPECT_FALSE(overlay.show(1)) << "fuzzy connectedness has one map";
    EXPECT_EQ(overlay.shown(), -1);
    EXPECT_TRUE(fake.uploads.empty());
    ASSERT_TRUE(overlay.show(0));
    overlay.hide();
    EXPECT_EQ(overlay.shown(), -1);
    ASSERT_EQ(fake.uploads.size(), 2u);
    EXPECT_TRUE(fake.uploads.back().empty()) << "an empty heat texture hides the map";
    EXPECT_EQ(fake.deviceTries, 2) << "hiding asks no device";
    overlay.hide();
    EXPECT_EQ(fake.uploads.size(), 2u) << "nothing shown: nothing to hide";
}

TEST(SoftMapOverlay, HeatValuesRoundToTheNearestStep) {
    Geometry g;
    g.dims = {3, 1, 1};
    Volume v(g, PixelType::Float32);
    v.setValue(0, 0.5);
    v.setValue(1, 1.0 / 255.0);
    v.setValue(2, 0.999);
    EXPECT_EQ(SoftMapOverlay::heatValues(v), (std::vector<std::uint8_t>{128, 1, 255}));
}

}  // namespace
}  // namespace lucent::ui
