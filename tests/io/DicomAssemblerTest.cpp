/// @brief Series assembly from header records alone (no DCMTK): order, gaps, splits, tilt.
#include "lucent/io/DicomRecords.h"

#include <gtest/gtest.h>

using namespace lucent;
using namespace lucent::io;

namespace {
DicomFrameHeader frame(const std::string& uid, double z, int instance) {
    DicomFrameHeader f;
    f.file = std::string("f").append(std::to_string(instance));
    f.seriesUid = uid;
    f.rows = 4;
    f.columns = 5;
    f.hasPosition = f.hasOrientation = f.hasPixelSpacing = true;
    f.position = {1, 2, z};
    f.instanceNumber = instance;
    f.transferSyntaxName = "Little Endian Explicit";
    return f;
}
bool warned(const DicomSeries& s, const std::string& needle) {
    for (const auto& w : s.info.warnings)
        if (w.find(needle) != std::string::npos) return true;
    return false;
}
}  // namespace

TEST(DicomAssembler, SortsByPositionNotInstanceNumber) {
    const auto series = assembleDicomSeries({frame("a", 6, 1), frame("a", 0, 3), frame("a", 3, 2)});
    ASSERT_EQ(series.size(), 1u);
    EXPECT_EQ(series[0].slices[0].file, "f3");
    EXPECT_EQ(series[0].slices[2].file, "f1");
    EXPECT_DOUBLE_EQ(series[0].info.geometry.spacing.z, 3.0);
    EXPECT_DOUBLE_EQ(series[0].info.geometry.origin.z, 0.0);
    EXPECT_TRUE(series[0].info.warnings.empty());
}

TEST(DicomAssembler, FillsTwoMissingSlices) {
    const auto series = assembleDicomSeries({frame("a", 0, 1), frame("a", 2, 2), frame("a", 8, 3), frame("a", 10, 4)});
    ASSERT_EQ(series.size(), 1u);
    EXPECT_EQ(series[0].info.geometry.dims[2], 6);
    EXPECT_TRUE(series[0].slices[2].filler && series[0].slices[3].filler);
    EXPECT_DOUBLE_EQ(series[0].info.geometry.spacing.z, 2.0);
    EXPECT_TRUE(warned(series[0], "missing slice"));
}

TEST(DicomAssembler, SplitsSeriesByImageSize) {
    auto big = frame("a", 0, 1);
    auto small = frame("a", 5, 2);
    small.rows = 2;
    const auto series = assembleDicomSeries({big, frame("a", 1, 3), small});
    ASSERT_EQ(series.size(), 2u);
    EXPECT_EQ(series[0].info.id, "a#1");
    EXPECT_EQ(series[0].info.geometry.dims[2], 2);
    EXPECT_EQ(series[1].info.id, "a#2");
}

TEST(DicomAssembler, ReportsGantryTilt) {
    std::vector<DicomFrameHeader> frames;
    for (int k = 0; k < 10; ++k) {
        auto f = frame("a", 2.0 * k, k);
        f.position.y += 0.5 * k;  // 14 degrees of tilt
        frames.push_back(f);
    }
    const auto series = assembleDicomSeries(frames);
    EXPECT_TRUE(warned(series[0], "sheared"));
}

TEST(DicomAssembler, SeriesKeepTheirOwnUids) {
    const auto series = assembleDicomSeries({frame("a", 0, 1), frame("b", 0, 2), frame("a", 1, 3)});
    ASSERT_EQ(series.size(), 2u);
    EXPECT_EQ(series[0].info.id, "a");
    EXPECT_EQ(series[0].slices.size(), 2u);
    EXPECT_EQ(series[1].info.id, "b");
}
