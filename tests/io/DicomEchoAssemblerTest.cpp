/// @brief Multi-echo series from header records alone (no DCMTK): one volume per echo, by
/// EchoNumbers or EchoTime, with their time frames; what stays one volume.
#include "lucent/io/DicomRecords.h"

#include <gtest/gtest.h>

using namespace lucent;
using namespace lucent::io;

namespace {

/// An image at z mm of series "m" (own file and SOP UID per instance), echo `echo` (0: no tags).
DicomFrameHeader image(double z, int instance, int echo) {
    DicomFrameHeader f;
    f.file = std::string("f").append(std::to_string(instance));
    f.sopInstanceUid = std::string("1.2.3.").append(std::to_string(instance));
    static const std::string series = "m";
    f.seriesUid = series;
    f.seriesDescription = "T2 dual echo";
    f.rows = 4;
    f.columns = 5;
    f.hasPosition = f.hasOrientation = f.hasPixelSpacing = true;
    f.position = {1, 2, z};
    f.instanceNumber = instance;
    if (echo > 0) {
        f.hasEchoNumber = f.hasEchoTime = true;
        f.echoNumber = echo;
        f.echoTime = 12.5 + 70 * (echo - 1);
    }
    return f;
}

/// prefix + n (built by append: GCC 12 warns falsely, -Wrestrict, on "literal" + std::string).
std::string numbered(const char* prefix, int n) { return std::string(prefix).append(std::to_string(n)); }

bool warned(const DicomSeries& s, const std::string& needle) {
    for (const auto& w : s.info.warnings)
        if (w.find(needle) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST(DicomEchoAssembler, EachEchoIsAVolumeOfItsOwn) {
    // Instance numbers interleave the echoes slice by slice, as scanners number them; echo 2 first
    // in the scan order. Echo 1 comes first in the list, and neither volume has time frames.
    std::vector<DicomFrameHeader> images;
    for (int k = 0; k < 3; ++k)
        for (int echo : {2, 1}) images.push_back(image(3.0 * k, 2 * k + echo, echo));
    const auto series = assembleDicomSeries(images);
    ASSERT_EQ(series.size(), 2u);
    for (int e = 0; e < 2; ++e) {
        const DicomSeries& s = series[std::size_t(e)];
        EXPECT_EQ(s.info.id, numbered("m#e", e + 1));
        EXPECT_TRUE(s.timeFrames.empty());
        EXPECT_EQ(s.info.geometry.dims[2], 3);
        ASSERT_EQ(s.slices.size(), 3u);
        for (int k = 0; k < 3; ++k) EXPECT_EQ(s.slices[std::size_t(k)].file, numbered("f", 2 * k + e + 1));
        EXPECT_TRUE(warned(s, "multi-echo series")) << s.info.warnings.front();
        EXPECT_TRUE(warned(s, "each of its 2 echoes is a volume of its own"));
    }
    EXPECT_EQ(series[0].info.description, "T2 dual echo (echo 1, TE 12.5 ms)");
    EXPECT_EQ(series[1].info.description, "T2 dual echo (echo 2, TE 82.5 ms)");
}

TEST(DicomEchoAssembler, EchoTimesAloneTellTheEchoesApart) {
    // Enhanced MR frames carry an EffectiveEchoTime and no EchoNumbers: parts by rising echo time.
    std::vector<DicomFrameHeader> images;
    for (int k = 0; k < 4; ++k)
        for (int echo : {3, 1, 2}) {
            DicomFrameHeader f = image(2.0 * k, 10 * k + echo, echo);
            f.hasEchoNumber = false;
            images.push_back(f);
        }
    const auto series = assembleDicomSeries(images);
    ASSERT_EQ(series.size(), 3u);
    for (int e = 0; e < 3; ++e) {
        EXPECT_EQ(series[std::size_t(e)].info.id, numbered("m#e", e + 1));
        EXPECT_EQ(series[std::size_t(e)].slices[2].file, numbered("f", 20 + e + 1));
    }
    EXPECT_EQ(series[2].info.description, "T2 dual echo (echo 3, TE 152.5 ms)");
}

TEST(DicomEchoAssembler, EchoesOfADynamicSeriesKeepTheirTimeFrames) {
    // Two echoes at two time points: one volume per echo, each with its two time frames.
    std::vector<DicomFrameHeader> images;
    for (int t = 0; t < 2; ++t)
        for (int k = 0; k < 3; ++k)
            for (int echo : {1, 2}) {
                DicomFrameHeader f = image(2.0 * k, 100 * t + 10 * k + echo, echo);
                f.hasTemporalPosition = true;
                f.temporalPosition = t + 1;
                images.push_back(f);
            }
    const auto series = assembleDicomSeries(images);
    ASSERT_EQ(series.size(), 2u);
    for (int e = 0; e < 2; ++e) {
        const DicomSeries& s = series[std::size_t(e)];
        ASSERT_EQ(s.timeFrames.size(), 2u) << s.info.id;
        EXPECT_EQ(s.timeFrames[1][2].file, numbered("f", 100 + 20 + e + 1));
        EXPECT_TRUE(warned(s, "TemporalPositionIdentifier"));
    }
}

TEST(DicomEchoAssembler, OneEchoOrNoRepeatsStayOneVolume) {
    // One echo number everywhere: time frames as before, no echo split.
    std::vector<DicomFrameHeader> dynamic;
    for (int t = 0; t < 2; ++t)
        for (int k = 0; k < 3; ++k) {
            DicomFrameHeader f = image(2.0 * k, 10 * t + k, 1);
            f.hasTemporalPosition = true;
            f.temporalPosition = t + 1;
            dynamic.push_back(f);
        }
    auto series = assembleDicomSeries(dynamic);
    ASSERT_EQ(series.size(), 1u);
    EXPECT_EQ(series[0].info.id, "m");
    EXPECT_EQ(series[0].timeFrames.size(), 2u);
    EXPECT_EQ(series[0].info.description, "T2 dual echo");
    // Echo numbers that differ while no position repeats: one volume of every slice.
    std::vector<DicomFrameHeader> odd;
    for (int k = 0; k < 4; ++k) odd.push_back(image(2.0 * k, k + 1, 1 + k % 2));
    series = assembleDicomSeries(odd);
    ASSERT_EQ(series.size(), 1u);
    EXPECT_EQ(series[0].info.id, "m");
    EXPECT_EQ(series[0].info.geometry.dims[2], 4);
    // Echo tags on some images only: the temporal rule decides (two frames in InstanceNumber order).
    std::vector<DicomFrameHeader> partial;
    for (int echo : {1, 2})
        for (int k = 0; k < 3; ++k) partial.push_back(image(2.0 * k, 10 * echo + k, k == 0 ? 0 : echo));
    series = assembleDicomSeries(partial);
    ASSERT_EQ(series.size(), 1u);
    EXPECT_EQ(series[0].timeFrames.size(), 2u);
}
