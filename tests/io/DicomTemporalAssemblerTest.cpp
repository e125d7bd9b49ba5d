/// @brief Time frames from header records alone (no DCMTK): which tag wins, copies, per-slice numbers.
#include "lucent/io/DicomRecords.h"

#include <gtest/gtest.h>

using namespace lucent;
using namespace lucent::io;

namespace {

/// An image at z mm of series "t"; instance numbers give every record its own file and SOP UID.
DicomFrameHeader image(double z, int instance) {
    DicomFrameHeader f;
    f.file = std::string("f").append(std::to_string(instance));
    f.sopInstanceUid = std::to_string(instance);
    f.sopInstanceUid.insert(0, "1.2.3.");
    static const std::string series = "t";  // from a string: GCC 12 warns falsely (-Wrestrict) on = "t"
    f.seriesUid = series;
    f.rows = 4;
    f.columns = 5;
    f.hasPosition = f.hasOrientation = f.hasPixelSpacing = true;
    f.position = {1, 2, z};
    f.instanceNumber = instance;
    return f;
}

bool warned(const DicomSeries& s, const std::string& needle) {
    for (const auto& w : s.info.warnings)
        if (w.find(needle) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST(DicomTemporalAssembler, AConstantTagGivesWayToOneThatDiffers) {
    // TemporalPositionIdentifier 1 everywhere says nothing; AcquisitionNumber 7 / 9 splits, in order.
    std::vector<DicomFrameHeader> images;
    for (int t = 0; t < 2; ++t)
        for (int k = 0; k < 3; ++k) {
            DicomFrameHeader f = image(2.0 * k, 10 * t + k);
            f.hasTemporalPosition = true;
            f.temporalPosition = 1;
            f.hasAcquisitionNumber = true;
            f.acquisitionNumber = t == 0 ? 9 : 7;
            images.push_back(f);
        }
    const auto series = assembleDicomSeries(images);
    ASSERT_EQ(series.size(), 1u);
    ASSERT_EQ(series[0].timeFrames.size(), 2u);
    EXPECT_TRUE(warned(series[0], "told apart by AcquisitionNumber"));
    EXPECT_EQ(series[0].timeFrames[0][0].file, "f10");  // acquisition 7 first, slice at z = 0
    EXPECT_EQ(series[0].timeFrames[1][2].file, "f2");
    EXPECT_EQ(series[0].slices[1].file, "f11");
}

TEST(DicomTemporalAssembler, GapsAreTheSameInEveryFrame) {
    // Slices at 0, 2, 4, 8 mm (one missing at 6 mm) over two time points: fillers in both frames.
    std::vector<DicomFrameHeader> images;
    for (int t = 0; t < 2; ++t)
        for (double z : {0.0, 2.0, 4.0, 8.0}) {
            DicomFrameHeader f = image(z, 100 * t + int(z));
            f.hasTemporalPosition = true;
            f.temporalPosition = t + 1;
            images.push_back(f);
        }
    const auto series = assembleDicomSeries(images);
    ASSERT_EQ(series.size(), 1u);
    ASSERT_EQ(series[0].timeFrames.size(), 2u);
    EXPECT_EQ(series[0].info.geometry.dims[2], 5);
    for (const auto& frame : series[0].timeFrames) {
        ASSERT_EQ(frame.size(), 5u);
        EXPECT_TRUE(frame[3].filler);
    }
    EXPECT_EQ(series[0].timeFrames[1][4].file, "f108");
}

TEST(DicomTemporalAssembler, CopiesOfOneInstanceAreDuplicatesNotTime) {
    // The same files twice (a folder copied into itself): same SOP instances, so one volume.
    std::vector<DicomFrameHeader> images;
    for (int copy = 0; copy < 2; ++copy)
        for (int k = 0; k < 3; ++k) {
            DicomFrameHeader f = image(2.0 * k, k);
            f.file = std::string(copy ? "copy/" : "").append(f.file);
            images.push_back(f);
        }
    const auto series = assembleDicomSeries(images);
    ASSERT_EQ(series.size(), 1u);
    EXPECT_TRUE(series[0].timeFrames.empty());
    EXPECT_EQ(series[0].info.geometry.dims[2], 3);
    EXPECT_TRUE(warned(series[0], "already used position"));
}

TEST(DicomTemporalAssembler, PerSliceNumbersWithOneRepeatStayDuplicates) {
    // CT series number every slice's acquisition: a repeated slice is a duplicate, not a time frame.
    std::vector<DicomFrameHeader> images;
    for (int k = 0; k < 5; ++k) {
        DicomFrameHeader f = image(2.0 * k, k);
        f.hasAcquisitionNumber = true;
        f.acquisitionNumber = k + 1;
        images.push_back(f);
    }
    DicomFrameHeader again = image(4.0, 50);
    again.hasAcquisitionNumber = true;
    again.acquisitionNumber = 6;
    images.push_back(again);
    const auto series = assembleDicomSeries(images);
    ASSERT_EQ(series.size(), 1u);
    EXPECT_TRUE(series[0].timeFrames.empty());
    EXPECT_TRUE(series[0].unloadableReason.empty()) << series[0].unloadableReason;
    EXPECT_EQ(series[0].info.geometry.dims[2], 5);
    EXPECT_TRUE(warned(series[0], "already used position"));
}

TEST(DicomTemporalAssembler, OneCompleteFrameIsAPlainVolume) {
    // A re-acquired slice (acquisition 2) beside a whole acquisition 1: the whole one loads alone.
    std::vector<DicomFrameHeader> images;
    for (int k = 0; k < 4; ++k) {
        DicomFrameHeader f = image(2.0 * k, k);
        f.hasAcquisitionNumber = true;
        f.acquisitionNumber = 1;
        images.push_back(f);
    }
    DicomFrameHeader redo = image(2.0, 9);
    redo.hasAcquisitionNumber = true;
    redo.acquisitionNumber = 2;
    images.push_back(redo);
    const auto series = assembleDicomSeries(images);
    ASSERT_EQ(series.size(), 1u);
    EXPECT_TRUE(series[0].timeFrames.empty());
    EXPECT_EQ(series[0].info.timeFrames, 1);
    EXPECT_EQ(series[0].info.geometry.dims[2], 4);
    EXPECT_EQ(series[0].slices[1].file, "f1");
    EXPECT_TRUE(warned(series[0], "time frame 2 of 2 (AcquisitionNumber 2) has no image at 3 of the 4 positions"));
    EXPECT_TRUE(warned(series[0], "only one time frame is complete"));
}

TEST(DicomTemporalAssembler, ACopiedFileDoesNotHideTheTimeFrames) {
    // Two time points, and slice 1 of the first found twice (same SOP instance, another path).
    std::vector<DicomFrameHeader> images;
    for (int t = 0; t < 2; ++t)
        for (int k = 0; k < 3; ++k) {
            DicomFrameHeader f = image(2.0 * k, 10 * t + k);
            f.hasTemporalPosition = true;
            f.temporalPosition = t + 1;
            images.push_back(f);
        }
    DicomFrameHeader copy = images[1];
    copy.file = "copy/f1";
    images.push_back(copy);
    const auto series = assembleDicomSeries(images);
    ASSERT_EQ(series.size(), 1u);
    ASSERT_EQ(series[0].timeFrames.size(), 2u);
    EXPECT_TRUE(warned(series[0], "1 image(s) repeating an SOP instance"));
    EXPECT_EQ(series[0].timeFrames[1][1].file, "f11");
}
