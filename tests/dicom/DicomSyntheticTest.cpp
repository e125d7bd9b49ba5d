/// @brief DICOM loading on series written by DCMTK in the test: order, geometry, codecs, multi-frame, faults.
#include "SyntheticDicom.h"
#include "TempDir.h"

#include "lucent/core/Errors.h"
#include "lucent/io/DicomReader.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/IoWork.h"
#include "lucent/io/VolumeFile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::Encoding;
using lucent::testing::SeriesSpec;
using lucent::testing::TempDir;

namespace {

SeriesSpec obliqueSpec() {
    SeriesSpec s;
    // Rotated 20 degrees about z and tilted 15 degrees about x: an oblique plane.
    const double a = 20 * M_PI / 180, b = 15 * M_PI / 180;
    s.rowCosine = {std::cos(a), std::sin(a), 0};
    s.columnCosine = {-std::sin(a) * std::cos(b), std::cos(a) * std::cos(b), std::sin(b)};
    return s;
}

bool hasWarning(const SeriesInfo& info, const std::string& needle) {
    for (const auto& w : info.warnings)
        if (w.find(needle) != std::string::npos) return true;
    return false;
}

void expectGeometry(const Geometry& g, const SeriesSpec& s, int slices) {
    EXPECT_EQ(g.dims[0], s.columns);
    EXPECT_EQ(g.dims[1], s.rows);
    EXPECT_EQ(g.dims[2], slices);
    EXPECT_NEAR(g.spacing.x, s.columnSpacing, 1e-6);
    EXPECT_NEAR(g.spacing.y, s.rowSpacing, 1e-6);
    EXPECT_NEAR(g.spacing.z, s.sliceSpacing, 1e-6);
    for (int r = 0; r < 3; ++r) {
        EXPECT_NEAR(g.direction.col[0][r], s.rowCosine[r], 1e-6);
        EXPECT_NEAR(g.direction.col[1][r], s.columnCosine[r], 1e-6);
        EXPECT_NEAR(g.direction.col[2][r], s.normal()[r], 1e-6);
        EXPECT_NEAR(g.origin[r], s.position(0)[r], 1e-6);
    }
}

/// Every voxel equals the spec's rescaled stored value of slice k.
void expectValues(const Volume& v, const SeriesSpec& s) {
    std::size_t wrong = 0;
    for (int k = 0; k < s.slices; ++k)
        for (int j = 0; j < s.rows; ++j)
            for (int i = 0; i < s.columns; ++i)
                if (v.value(i, j, k) != s.storedValue(i, j, k) * s.slope + s.intercept) ++wrong;
    EXPECT_EQ(wrong, 0u);
}

/// prefix + k; built with append because GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
std::string sliceName(const char* prefix, int k) {
    std::string name(prefix);
    name.append(std::to_string(k));
    return name;
}

Volume loadOnly(const std::string& path, std::vector<std::string>* warnings = nullptr) {
    return ImageSource::load(path, "", {}, warnings);
}

}  // namespace

TEST(DicomSynthetic, ShuffledObliqueSeriesSortsAlongNormal) {
    TempDir dir;
    const SeriesSpec spec = obliqueSpec();
    lucent::testing::writeSeries(spec, dir.path());
    const DicomScanResult scan = DicomReader::scan(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    const SeriesInfo& info = scan.series[0].info;
    expectGeometry(info.geometry, spec, spec.slices);
    EXPECT_EQ(info.files.size(), std::size_t(spec.slices));
    EXPECT_EQ(info.modality, "CT");
    // SpacingBetweenSlices (99) lies: the positions win, and a warning says so.
    EXPECT_TRUE(hasWarning(info, "SpacingBetweenSlices says 99"));
    const Volume v = DicomReader::load(scan.series[0]);
    EXPECT_EQ(v.pixelType(), PixelType::Int16);
    expectValues(v, spec);
}

TEST(DicomSynthetic, ReversedNormalStillAscends) {
    TempDir dir;
    SeriesSpec spec;
    spec.rowCosine = {1, 0, 0};
    spec.columnCosine = {0, 0, -1};  // coronal: normal points to -y
    lucent::testing::writeSeries(spec, dir.path());
    const Volume v = loadOnly(dir.path());
    expectGeometry(v.geometry(), spec, spec.slices);
    expectValues(v, spec);
}

TEST(DicomSynthetic, MissingSliceIsFilledAndReported) {
    TempDir dir;
    SeriesSpec spec;
    for (int k = 0; k < spec.slices; ++k)
        if (k != 3) lucent::testing::writeSlice(spec, k, spec.position(k), k + 1, dir.file(sliceName("s", k)));
    const auto scan = DicomReader::scan(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_EQ(scan.series[0].info.geometry.dims[2], spec.slices);
    EXPECT_NEAR(scan.series[0].info.geometry.spacing.z, spec.sliceSpacing, 1e-6);
    EXPECT_TRUE(hasWarning(scan.series[0].info, "missing slice"));
    const Volume v = DicomReader::load(scan.series[0]);
    const double lowest = v.range().first;
    for (int i = 0; i < spec.columns; ++i) EXPECT_EQ(v.value(i, 0, 3), lowest);
    EXPECT_EQ(v.value(5, 5, 4), spec.storedValue(5, 5, 4));
}

TEST(DicomSynthetic, DuplicatePositionIsDroppedWithWarning) {
    TempDir dir;
    SeriesSpec spec;
    lucent::testing::writeSeries(spec, dir.path());
    lucent::testing::writeSlice(spec, 2, spec.position(2), 99, dir.file("dup.dcm"));
    const auto scan = DicomReader::scan(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_EQ(scan.series[0].info.geometry.dims[2], spec.slices);
    EXPECT_TRUE(hasWarning(scan.series[0].info, "already used position"));
}

TEST(DicomSynthetic, NonUniformSpacingIsReported) {
    TempDir dir;
    SeriesSpec spec;
    spec.slices = 5;
    const double z[] = {0, 2.5, 5, 8, 10.5};
    for (int k = 0; k < 5; ++k)
        lucent::testing::writeSlice(spec, k, spec.origin + spec.normal() * z[k], k + 1, dir.file(sliceName("s", k)));
    const auto scan = DicomReader::scan(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_TRUE(hasWarning(scan.series[0].info, "non-uniform slice spacing"));
    EXPECT_NEAR(scan.series[0].info.geometry.spacing.z, 10.5 / 4, 1e-6);
}

TEST(DicomSynthetic, MixedOrientationsSplitIntoVolumes) {
    TempDir dir;
    SeriesSpec axial;
    lucent::testing::writeSeries(axial, dir.path());
    SeriesSpec localiser = axial;
    localiser.rowCosine = {0, 1, 0};
    localiser.columnCosine = {0, 0, -1};
    localiser.slices = 2;
    for (int k = 0; k < 2; ++k)
        lucent::testing::writeSlice(localiser, k, localiser.position(k), 100 + k, dir.file(sliceName("loc", k)));
    const auto listing = ImageSource::list(dir.path());
    ASSERT_EQ(listing.series.size(), 2u);
    EXPECT_EQ(listing.series[0].id, axial.seriesUid + "#1");
    EXPECT_EQ(listing.series[0].geometry.dims[2], axial.slices);
    EXPECT_EQ(listing.series[1].id, axial.seriesUid + "#2");
    EXPECT_EQ(listing.series[1].geometry.dims[2], 2);
    EXPECT_TRUE(hasWarning(listing.series[0], "is not one volume"));
    // Asking by SeriesInstanceUID loads the main part.
    std::vector<std::string> warnings;
    const Volume v = ImageSource::load(dir.path(), axial.seriesUid, {}, &warnings);
    EXPECT_EQ(v.geometry().dims[2], axial.slices);
}

TEST(DicomSynthetic, EnhancedMultiFrameUsesPerFramePositions) {
    TempDir dir;
    SeriesSpec spec = obliqueSpec();
    spec.intercept = -1024;
    lucent::testing::writeEnhancedMultiFrame(spec, dir.file("enhanced.dcm"));
    const Volume v = loadOnly(dir.file("enhanced.dcm"));
    expectGeometry(v.geometry(), spec, spec.slices);
    expectValues(v, spec);
}

TEST(DicomSynthetic, LegacyMultiFrameStacksAlongNormal) {
    TempDir dir;
    SeriesSpec spec = obliqueSpec();
    lucent::testing::writeLegacyMultiFrame(spec, dir.file("legacy.dcm"));
    std::vector<std::string> warnings;
    const Volume v = loadOnly(dir.file("legacy.dcm"), &warnings);
    expectGeometry(v.geometry(), spec, spec.slices);
    expectValues(v, spec);
    ASSERT_FALSE(warnings.empty());
}

struct CodecCase {
    Encoding encoding;
    int bitsAllocated, bitsStored;
    bool isSigned;
};

std::string codecCaseName(const ::testing::TestParamInfo<CodecCase>& info) {
    static const char* names[] = {"ExplicitLittle", "ImplicitLittle", "ExplicitBig", "Deflated",
                                  "Rle", "JpegLossless", "JpegLs"};
    const CodecCase& c = info.param;
    std::string name = names[int(c.encoding)];
    name.append("_").append(std::to_string(c.bitsAllocated)).append("alloc_");
    name.append(std::to_string(c.bitsStored)).append("stored_").append(c.isSigned ? "signed" : "unsigned");
    return name;
}

class DicomCodecs : public ::testing::TestWithParam<CodecCase> {};

TEST_P(DicomCodecs, DecodesExactly) {
    TempDir dir;
    SeriesSpec spec;
    spec.encoding = GetParam().encoding;
    spec.bitsAllocated = GetParam().bitsAllocated;
    spec.bitsStored = GetParam().bitsStored;
    spec.isSigned = GetParam().isSigned;
    spec.slices = 4;
    lucent::testing::writeSeries(spec, dir.path());
    const Volume v = loadOnly(dir.path());
    expectGeometry(v.geometry(), spec, spec.slices);
    expectValues(v, spec);
}

INSTANTIATE_TEST_SUITE_P(
    AllSyntaxes, DicomCodecs,
    ::testing::Values(CodecCase{Encoding::ExplicitLittle, 16, 16, true}, CodecCase{Encoding::ExplicitLittle, 16, 12, false},
                      CodecCase{Encoding::ExplicitLittle, 16, 12, true}, CodecCase{Encoding::ExplicitLittle, 8, 8, false},
                      CodecCase{Encoding::ImplicitLittle, 16, 16, true}, CodecCase{Encoding::ExplicitBig, 16, 16, true},
                      CodecCase{Encoding::Deflated, 16, 12, false}, CodecCase{Encoding::Rle, 16, 16, true},
                      CodecCase{Encoding::Rle, 8, 8, false}, CodecCase{Encoding::JpegLossless, 16, 16, false},
                      CodecCase{Encoding::JpegLossless, 16, 12, true}, CodecCase{Encoding::JpegLs, 16, 16, true},
                      CodecCase{Encoding::JpegLs, 16, 12, false}),
    codecCaseName);

TEST(DicomSynthetic, RescaleGivesHounsfieldOrFloat) {
    TempDir dir;
    SeriesSpec ct;
    ct.isSigned = false;
    ct.bitsStored = 12;
    ct.intercept = -1024;
    lucent::testing::writeSeries(ct, dir.file("ct"));
    Volume v = loadOnly(dir.file("ct"));
    EXPECT_EQ(v.pixelType(), PixelType::Int16);
    expectValues(v, ct);

    SeriesSpec pet = ct;
    pet.seriesUid += ".2";
    pet.slope = 0.25;
    lucent::testing::writeSeries(pet, dir.file("pet"));
    v = loadOnly(dir.file("pet"));
    EXPECT_EQ(v.pixelType(), PixelType::Float32);
    expectValues(v, pet);

    SeriesSpec wide = ct;  // unsigned 16-bit values past int16: must fall back to float32
    wide.seriesUid += ".3";
    wide.bitsStored = 16;
    wide.intercept = 0;
    wide.isSigned = false;
    lucent::testing::writeSeries(wide, dir.file("wide"));
    v = loadOnly(dir.file("wide"));
    expectValues(v, wide);
}

TEST(DicomSynthetic, BrokenAndForeignFilesAreNamedNotFatal) {
    TempDir dir;
    SeriesSpec spec;
    lucent::testing::writeSeries(spec, dir.path());
    // A DICOM file cut short inside its header, and a text file.
    const auto good = lucent::testing::writeSeries(spec, dir.file("tmp"));
    std::filesystem::copy_file(good[0], dir.file("broken.dcm"));
    std::filesystem::resize_file(dir.file("broken.dcm"), 200);
    std::filesystem::remove_all(dir.file("tmp"));
    std::ofstream(dir.file("notes.txt")) << "not an image\n";
    const auto scan = DicomReader::scan(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    bool named = false;
    for (const auto& w : scan.warnings) named |= w.find("broken.dcm") != std::string::npos;
    EXPECT_TRUE(named);
    const Volume v = DicomReader::load(scan.series[0]);
    expectValues(v, spec);
}

TEST(DicomSynthetic, TruncatedPixelDataIsAnErrorNamingTheFile) {
    TempDir dir;
    SeriesSpec spec;
    const auto files = lucent::testing::writeSeries(spec, dir.path());
    const auto size = std::filesystem::file_size(files[1]);
    std::filesystem::resize_file(files[1], size - 100);
    try {
        loadOnly(dir.path());
        ADD_FAILURE() << "expected an error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find(std::filesystem::path(files[1]).filename().string()), std::string::npos)
            << e.what();
    }
}

TEST(DicomSynthetic, ParallelEqualsSingleThreadAndCancels) {
    TempDir dir;
    SeriesSpec spec;
    spec.slices = 24;
    lucent::testing::writeSeries(spec, dir.path());
    DicomOptions one;
    one.threads = 1;
    DicomOptions many;
    many.threads = 4;
    const Volume a = ImageSource::load(dir.path(), "", one);
    const Volume b = ImageSource::load(dir.path(), "", many);
    ASSERT_EQ(a.byteSize(), b.byteSize());
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.byteSize()));

    DicomOptions cancelling;
    std::size_t calls = 0;
    cancelling.progress = [&](std::size_t done, std::size_t total) {
        EXPECT_LE(done, total);
        return ++calls < 5;
    };
    EXPECT_THROW(ImageSource::load(dir.path(), "", cancelling), Cancelled);
}

TEST(DicomSynthetic, MultipleSeriesNeedAChoice) {
    TempDir dir;
    SeriesSpec a;
    SeriesSpec b;
    b.seriesUid += ".9";
    b.modality = "MR";
    lucent::testing::writeSeries(a, dir.file("a"));
    lucent::testing::writeSeries(b, dir.file("b"));
    const auto listing = ImageSource::list(dir.path());
    ASSERT_EQ(listing.series.size(), 2u);
    EXPECT_THROW(ImageSource::load(dir.path(), ""), IoError);
    EXPECT_EQ(ImageSource::load(dir.path(), b.seriesUid).metadata().modality, "MR");
    EXPECT_THROW(ImageSource::load(dir.path(), "1.2.3.4"), IoError);
}

TEST(DicomSynthetic, ScanOnceChooseThenLoadFromTheListing) {
    // The viewer lists, lets the user choose, then loads: the headers must be read once only.
    TempDir dir;
    SeriesSpec a;
    SeriesSpec b;
    b.seriesUid += ".9";
    b.modality = "MR";
    b.slices = 12;
    lucent::testing::writeSeries(a, dir.file("a"));
    lucent::testing::writeSeries(b, dir.file("b"));
    const std::size_t files = 8 + 12;
    std::size_t headerCalls = 0, pixelCalls = 0, last = 0;
    DicomOptions options;
    options.threads = 2;
    options.progress = [&](std::size_t done, std::size_t total) {
        EXPECT_EQ(total, 4 * files);  // one bar for the whole open
        (done <= files ? headerCalls : pixelCalls)++;
        last = done;
        return true;
    };
    const SourceScan scan = ImageSource::scan(dir.path(), options);
    EXPECT_EQ(scan.filesScanned, files);
    EXPECT_EQ(headerCalls, files);
    ASSERT_EQ(scan.listing.series.size(), 2u);
    ASSERT_EQ(scan.dicom.size(), 2u);
    const std::size_t mr = scan.listing.series[0].modality == "MR" ? 0 : 1;

    // One rule: by id or UID; unnamed is refused, or the largest for the viewer's scripted open.
    EXPECT_THROW(ImageSource::choose(scan, "", WhenUnnamed::Refuse), IoError);
    EXPECT_EQ(ImageSource::choose(scan, "", WhenUnnamed::Largest), mr);
    EXPECT_EQ(ImageSource::choose(scan, b.seriesUid, WhenUnnamed::Refuse), mr);
    EXPECT_THROW(ImageSource::choose(scan, "1.2.3.4", WhenUnnamed::Largest), IoError);

    std::vector<std::string> warnings;
    const Volume v = ImageSource::load(scan, mr, options, &warnings);
    EXPECT_EQ(headerCalls, files);  // no second header pass
    EXPECT_GT(pixelCalls, 0u);
    EXPECT_EQ(last, 4 * files);
    EXPECT_EQ(v.metadata().modality, "MR");
    expectGeometry(v.geometry(), b, 12);
    expectValues(v, b);
    const Volume again = ImageSource::load(dir.path(), b.seriesUid);
    ASSERT_EQ(again.byteSize(), v.byteSize());
    EXPECT_EQ(0, std::memcmp(again.data(), v.data(), v.byteSize()));
    EXPECT_THROW(ImageSource::load(scan, 2), IoError);
}

// Issue 24: a scan (the listing before a choice) reads a volume file's header only; the load that
// follows reads its voxels, once (before, the scan held every voxel of a file it only listed).
TEST(DicomSynthetic, ScanOfAVolumeFileReadsItsHeaderAndTheLoadItsVoxels) {
    TempDir dir;
    Geometry g;
    g.dims = {5, 4, 3};
    Volume v(g, PixelType::Int16);
    for (std::size_t i = 0; i < g.voxelCount(); ++i) v.setValue(i, double(i) - 20);
    writeVolumeFile(v, dir.file("v.nii.gz"));
    IoWork before = ioWorkSoFar();
    const SourceScan scan = ImageSource::scan(dir.file("v.nii.gz"));
    EXPECT_EQ((ioWorkSoFar() - before).bytesInflated, 348u) << "the header alone";
    ASSERT_TRUE(scan.volumeFile.has_value());
    EXPECT_TRUE(scan.volumeFile->bytes.empty());
    ASSERT_EQ(scan.listing.series.size(), 1u);
    EXPECT_EQ(ImageSource::choose(scan, "any id", WhenUnnamed::Refuse), 0u);  // a file is one volume
    before = ioWorkSoFar();
    const Volume loaded = ImageSource::load(scan, 0);
    // vox_offset (352) and the voxels, inflated once; the header not parsed again.
    EXPECT_EQ((ioWorkSoFar() - before).bytesInflated, 352u + v.byteSize());
    ASSERT_EQ(loaded.byteSize(), v.byteSize());
    EXPECT_EQ(0, std::memcmp(loaded.data(), v.data(), v.byteSize()));
    EXPECT_EQ(loaded.metadata().description, "v.nii.gz");
}
