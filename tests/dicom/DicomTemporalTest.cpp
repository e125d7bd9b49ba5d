/// @brief Multi-temporal DICOM on series written by DCMTK: time frames by each tag, one grid, frame by frame.
#include "SyntheticDicom.h"
#include "TempDir.h"

#include "lucent/core/Errors.h"
#include "lucent/io/DicomReader.h"
#include "lucent/io/ImageSource.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <sstream>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::SeriesSpec;
using lucent::testing::TempDir;
using lucent::testing::temporalOffset;
using lucent::testing::TemporalTags;

namespace {

constexpr int kFrames = 3;

/// An oblique 10 x 7 x 6 CT series with an intercept: frames must keep the rescale and the geometry.
SeriesSpec temporalSpec() {
    SeriesSpec s;
    s.columns = 10;
    s.rows = 7;
    s.slices = 6;
    s.intercept = -1024;
    const double a = 25 * M_PI / 180, b = 10 * M_PI / 180;
    s.rowCosine = {std::cos(a), std::sin(a), 0};
    s.columnCosine = {-std::sin(a) * std::cos(b), std::cos(a) * std::cos(b), std::sin(b)};
    return s;
}

bool hasWarning(const std::vector<std::string>& warnings, const std::string& needle) {
    for (const auto& w : warnings)
        if (w.find(needle) != std::string::npos) return true;
    return false;
}

std::string joined(const std::vector<std::string>& warnings) {
    std::string all;
    for (const auto& w : warnings) all += w + "\n";
    return all;
}

/// Voxels of `v` that are not time frame `frame` of `s` (slice k of the volume = slice k of the spec).
std::size_t wrongVoxels(const Volume& v, const SeriesSpec& s, int frame) {
    SeriesSpec f = s;
    f.valueOffset = temporalOffset(frame);
    std::size_t wrong = 0;
    for (int k = 0; k < s.slices; ++k)
        for (int j = 0; j < s.rows; ++j)
            for (int i = 0; i < s.columns; ++i)
                if (v.value(i, j, k) != f.storedValue(i, j, k) * s.slope + s.intercept) ++wrong;
    return wrong;
}

void expectGrid(const Geometry& g, const SeriesSpec& s) {
    EXPECT_EQ(g.dims[0], s.columns);
    EXPECT_EQ(g.dims[1], s.rows);
    EXPECT_EQ(g.dims[2], s.slices);
    EXPECT_NEAR(g.spacing.z, s.sliceSpacing, 1e-6);
    for (int r = 0; r < 3; ++r) {
        EXPECT_NEAR(g.origin[r], s.position(0)[r], 1e-6);
        EXPECT_NEAR(g.direction.col[2][r], s.normal()[r], 1e-6);
    }
}

/// Scans `folder`, expects one series of kFrames time frames told apart by `key` (frame 0 in `files`
/// files), and checks every frame voxel by voxel through DicomReader and through ImageSource.
void expectTimeFrames(const std::string& folder, const SeriesSpec& spec, const std::string& key, int files = -1) {
    const DicomScanResult scan = DicomReader::scan(folder);
    ASSERT_EQ(scan.series.size(), 1u);
    const DicomSeries& series = scan.series[0];
    EXPECT_TRUE(series.unloadableReason.empty()) << series.unloadableReason;
    ASSERT_EQ(series.timeFrames.size(), std::size_t(kFrames)) << joined(series.info.warnings);
    EXPECT_EQ(series.info.timeFrames, kFrames);
    EXPECT_EQ(series.info.frames, spec.slices);  // images of one time frame
    EXPECT_EQ(series.info.files.size(), std::size_t(files < 0 ? spec.slices : files));
    expectGrid(series.info.geometry, spec);
    EXPECT_TRUE(hasWarning(series.info.warnings, "3 time frames of 6 slices on one grid, told apart by " + key))
        << joined(series.info.warnings);
    EXPECT_FALSE(hasWarning(series.info.warnings, "already used position")) << joined(series.info.warnings);
    for (int f = 0; f < kFrames; ++f) {
        const Volume v = DicomReader::loadFrame(series, f);
        expectGrid(v.geometry(), spec);
        EXPECT_EQ(wrongVoxels(v, spec, f), 0u) << "time frame " << f;
    }
    EXPECT_EQ(wrongVoxels(DicomReader::load(series), spec, 0), 0u);  // load() is the first frame
    EXPECT_THROW(DicomReader::loadFrame(series, kFrames), IoError);
    EXPECT_THROW(DicomReader::loadFrame(series, -1), IoError);

    // Through the path the viewer takes: every frame, one pixel type, progress to the end.
    const SourceScan source = ImageSource::scan(folder);
    ASSERT_EQ(ImageSource::frameCount(source, 0), kFrames);
    std::size_t last = 0, total = 0;
    DicomOptions options;
    options.progress = [&](std::size_t done, std::size_t of) {
        EXPECT_GE(done, last);  // one bar over all frames: never goes back
        last = done;
        total = of;
        return true;
    };
    std::vector<std::string> warnings;
    const std::vector<Volume> frames = ImageSource::loadFrames(source, 0, options, &warnings);
    ASSERT_EQ(frames.size(), std::size_t(kFrames));
    EXPECT_EQ(last, total);
    for (int f = 0; f < kFrames; ++f) {
        EXPECT_EQ(frames[f].pixelType(), frames[0].pixelType());
        EXPECT_EQ(wrongVoxels(frames[f], spec, f), 0u) << "time frame " << f;
    }
    EXPECT_TRUE(hasWarning(warnings, "the first is used"));
}

}  // namespace

TEST(DicomTemporal, ThreeFramesByTemporalPositionIdentifier) {
    TempDir dir;
    const SeriesSpec spec = temporalSpec();
    lucent::testing::writeTemporalSeries(spec, kFrames, TemporalTags::PositionIdentifier, dir.path());
    expectTimeFrames(dir.path(), spec, "TemporalPositionIdentifier");

    // The listing says so, for `lucent info` and `info --json`.
    const SourceListing listing = ImageSource::list(dir.path());
    ASSERT_EQ(listing.series.size(), 1u);
    EXPECT_EQ(listing.series[0].timeFrames, kFrames);
    std::ostringstream json, text;
    ImageSource::writeJson(listing, json);
    ImageSource::writeText(listing, text);
    EXPECT_NE(json.str().find("\"time_frames\": 3"), std::string::npos) << json.str();
    EXPECT_NE(text.str().find("time frames  3"), std::string::npos) << text.str();
    // The CLI's one-volume load is the first frame, and says that the others were left.
    std::vector<std::string> warnings;
    const Volume first = ImageSource::load(dir.path(), "", {}, &warnings);
    EXPECT_EQ(wrongVoxels(first, spec, 0), 0u);
    EXPECT_TRUE(hasWarning(warnings, "the first is used")) << joined(warnings);
}

TEST(DicomTemporal, TriggerTimesMeasuredPerSliceStillMakeFrames) {
    TempDir dir;
    const SeriesSpec spec = temporalSpec();
    lucent::testing::writeTemporalSeries(spec, kFrames, TemporalTags::TriggerTime, dir.path(), 11);
    expectTimeFrames(dir.path(), spec, "TriggerTime");
}

TEST(DicomTemporal, AcquisitionNumberAlone) {
    TempDir dir;
    const SeriesSpec spec = temporalSpec();
    lucent::testing::writeTemporalSeries(spec, kFrames, TemporalTags::AcquisitionNumber, dir.path(), 3);
    expectTimeFrames(dir.path(), spec, "AcquisitionNumber");
}

TEST(DicomTemporal, NothingButInstanceNumberOrder) {
    TempDir dir;
    const SeriesSpec spec = temporalSpec();
    lucent::testing::writeTemporalSeries(spec, kFrames, TemporalTags::None, dir.path(), 5);
    expectTimeFrames(dir.path(), spec, "InstanceNumber order");
}

TEST(DicomTemporal, EchoesAreSeriesOfTheirOwnNotTimeFrames) {
    // Three echoes of every slice (EchoNumbers, EchoTime), files and instance numbers shuffled:
    // three series in echo order, each loading its echo's values, none with time frames.
    TempDir dir;
    SeriesSpec spec = temporalSpec();
    spec.modality = "MR";
    spec.description = "multi-echo GRE";
    lucent::testing::writeTemporalSeries(spec, kFrames, TemporalTags::Echo, dir.path(), 13);
    const SourceListing listing = ImageSource::list(dir.path());
    ASSERT_EQ(listing.series.size(), std::size_t(kFrames));
    for (int e = 0; e < kFrames; ++e) {
        const auto& info = listing.series[std::size_t(e)];
        EXPECT_EQ(info.id, spec.seriesUid + "#e" + std::to_string(e + 1));
        EXPECT_EQ(info.timeFrames, 1);
        EXPECT_NE(info.description.find("echo " + std::to_string(e + 1) + ", TE " + std::to_string(12 + 40 * e) + " ms"),
                  std::string::npos)
            << info.description;
        std::vector<std::string> warnings;
        const Volume v = ImageSource::load(dir.path(), info.id, {}, &warnings);
        EXPECT_EQ(wrongVoxels(v, spec, e), 0u) << info.id;
        EXPECT_TRUE(hasWarning(warnings, "multi-echo series")) << joined(warnings);
        EXPECT_FALSE(hasWarning(warnings, "the first is used")) << joined(warnings);
    }
}

TEST(DicomTemporal, EnhancedMultiFrameByTemporalPositionIndex) {
    TempDir dir;
    const SeriesSpec spec = temporalSpec();
    lucent::testing::writeEnhancedMultiFrame(spec, dir.file("dynamic.dcm"), kFrames);
    expectTimeFrames(dir.path(), spec, "TemporalPositionIdentifier", 1);
}

TEST(DicomTemporal, AFrameMissingASliceIsLeftOutAndNamed) {
    TempDir dir;
    const SeriesSpec spec = temporalSpec();
    const auto paths =
        lucent::testing::writeTemporalSeries(spec, kFrames, TemporalTags::PositionIdentifier, dir.path());
    std::filesystem::remove(paths[1][4]);  // time point 2 lacks slice 4
    const DicomScanResult scan = DicomReader::scan(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    const DicomSeries& series = scan.series[0];
    ASSERT_EQ(series.timeFrames.size(), 2u) << joined(series.info.warnings);
    const double along = dot(spec.position(4), spec.normal());
    char where[64];
    std::snprintf(where, sizeof where, "(%.6g mm along the slice normal)", along);
    EXPECT_TRUE(hasWarning(series.info.warnings,
                           "time frame 2 of 3 (TemporalPositionIdentifier 2) has no image at 1 of "
                           "the 6 positions " +
                               std::string(where)))
        << joined(series.info.warnings);
    EXPECT_FALSE(hasWarning(series.info.warnings, "NumberOfTemporalPositions")) << joined(series.info.warnings);
    expectGrid(series.info.geometry, spec);
    EXPECT_EQ(wrongVoxels(DicomReader::loadFrame(series, 0), spec, 0), 0u);
    EXPECT_EQ(wrongVoxels(DicomReader::loadFrame(series, 1), spec, 2), 0u);  // the third time point

    // Every frame missing a slice: nothing complete to show, and the reason says so.
    std::filesystem::remove(paths[0][1]);
    std::filesystem::remove(paths[2][5]);
    const DicomScanResult none = DicomReader::scan(dir.path());
    ASSERT_EQ(none.series.size(), 1u);
    EXPECT_NE(none.series[0].unloadableReason.find("not one of them has an image at every one of the 6 positions"),
              std::string::npos)
        << none.series[0].unloadableReason;
    EXPECT_THROW(ImageSource::load(dir.path(), ""), IoError);
}

TEST(DicomTemporal, UnevenRepeatsWithoutTagsStayDuplicates) {
    // Without a tag, a position seen twice among others seen once is a duplicate, as before.
    TempDir dir;
    const SeriesSpec spec = temporalSpec();
    const auto paths = lucent::testing::writeTemporalSeries(spec, 2, TemporalTags::None, dir.path());
    std::filesystem::remove(paths[1][0]);
    const DicomScanResult scan = DicomReader::scan(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_TRUE(scan.series[0].timeFrames.empty());
    EXPECT_EQ(scan.series[0].info.timeFrames, 1);
    EXPECT_TRUE(hasWarning(scan.series[0].info.warnings, "already used position"));
}

TEST(DicomTemporal, PlainSeriesWithPerSliceTagsIsOneVolume) {
    // Temporal tags (trigger times differing per slice) with no repeated position: one volume.
    for (const TemporalTags tags : {TemporalTags::TriggerTime, TemporalTags::AcquisitionNumber}) {
        TempDir dir;
        const SeriesSpec spec = temporalSpec();
        lucent::testing::writeTemporalSeries(spec, 1, tags, dir.path());
        const DicomScanResult scan = DicomReader::scan(dir.path());
        ASSERT_EQ(scan.series.size(), 1u);
        const DicomSeries& series = scan.series[0];
        EXPECT_TRUE(series.timeFrames.empty());
        EXPECT_EQ(series.info.timeFrames, 1);
        EXPECT_FALSE(hasWarning(series.info.warnings, "time frame")) << joined(series.info.warnings);
        const SourceScan source = ImageSource::scan(dir.path());
        EXPECT_EQ(ImageSource::frameCount(source, 0), 1);
        const std::vector<Volume> frames = ImageSource::loadFrames(source, 0);
        ASSERT_EQ(frames.size(), 1u);
        EXPECT_EQ(wrongVoxels(frames[0], spec, 0), 0u);
    }
}

TEST(DicomTemporal, OneFrameBeyondInt16MakesEveryFrameFloat) {
    // Stored values span -16384..-10400 (+3000 per frame); with intercept 40000 frame 0 peaks at
    // 29600 (int16) and frame 2 at 35600 (not): one type for all.
    TempDir dir;
    SeriesSpec spec = temporalSpec();
    spec.intercept = 40000;
    lucent::testing::writeTemporalSeries(spec, kFrames, TemporalTags::PositionIdentifier, dir.path());
    const DicomScanResult scan = DicomReader::scan(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_EQ(DicomReader::loadFrame(scan.series[0], 0).pixelType(), PixelType::Int16);
    const std::vector<Volume> frames = DicomReader::loadFrames(scan.series[0]);
    ASSERT_EQ(frames.size(), std::size_t(kFrames));
    for (int f = 0; f < kFrames; ++f) {
        EXPECT_EQ(frames[f].pixelType(), PixelType::Float32) << "time frame " << f;
        EXPECT_EQ(wrongVoxels(frames[f], spec, f), 0u) << "time frame " << f;
    }
}
