/// @brief DICOM SEG: written for synthetic and real series, checked by dciodvfy and DCMTK, read back voxel for voxel.
#include "SyntheticDicom.h"
#include "TempDir.h"

#include "lucent/core/Errors.h"
#include "lucent/io/DicomReader.h"
#include "lucent/core/Version.h"
#include "lucent/io/DicomSeg.h"
#include "lucent/io/ImageSource.h"
#include "RealData.h"

#include <dcmtk/dcmdata/dctk.h>
#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::SeriesSpec;
using lucent::testing::TempDir;
namespace fs = std::filesystem;

namespace {

std::string run(const std::string& command) {
    std::string out;
    FILE* p = popen(command.c_str(), "r");
    if (!p) return out;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
    return out;
}

/// dciodvfy's report; every line that starts with "Error" is a failure, except an illegal UID that
/// the SEG must copy from its sources (`inherited`: the real MR sample's UIDs start with "0.0.0.0").
void expectValidForDciodvfy(const std::string& file, const std::set<std::string>& inherited = {}) {
    const std::string report = run("dciodvfy '" + file + "' 2>&1");
    std::istringstream lines(report);
    int errors = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("Error", 0) != 0) continue;
        const auto open = line.find("Illegal root for UID - \""), close = line.find('"', open + 25);
        if (open != std::string::npos && close != std::string::npos &&
            inherited.count(line.substr(open + 24, close - open - 24)))
            continue;
        ++errors;
        ADD_FAILURE() << "dciodvfy: " << line;
    }
    EXPECT_EQ(errors, 0) << report;
    EXPECT_NE(report.find("Segmentation"), std::string::npos) << "dciodvfy did not see a SEG:\n" << report;
}

bool haveDciodvfy() { return std::system("command -v dciodvfy >/dev/null 2>&1") == 0; }

SeriesSpec obliqueSpec(int columns, int rows, int slices) {
    SeriesSpec s;
    s.columns = columns;
    s.rows = rows;
    s.slices = slices;
    s.modality = "MR";
    const double a = 20 * M_PI / 180, b = 15 * M_PI / 180;
    s.rowCosine = {std::cos(a), std::sin(a), 0};
    s.columnCosine = {-std::sin(a) * std::cos(b), std::cos(a) * std::cos(b), std::sin(b)};
    return s;
}

Volume loadSeries(const std::string& folder) {
    const auto scan = DicomReader::scan(folder);
    if (scan.series.size() != 1) throw std::runtime_error("expected one series under " + folder);
    return DicomReader::load(scan.series[0]);
}

/// Three labels: a box (1), a ball (2) and a slab (5) touching every slice, no overlap.
LabelMap threeLabels(const Geometry& g) {
    LabelMap m(g);
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                if (i < 4 && j < 3 && k >= 1 && k < g.dims[2] - 1) m.at(i, j, k) = 1;
                const double di = i - g.dims[0] * 0.6, dj = j - g.dims[1] * 0.5, dk = k - g.dims[2] * 0.5;
                if (di * di + dj * dj + dk * dk < 9) m.at(i, j, k) = 2;
                if (j == g.dims[1] - 1 && i % 2 == 1) m.at(i, j, k) = 5;
            }
    return m;
}

std::vector<SegmentInfo> threeSegments() {
    SegmentInfo a{1,
                  "Left lung",
                  {200, 30, 40},
                  {"123037004", "SCT", "Anatomical Structure"},
                  {"44029006", "SCT", "Left lung"},
                  kNeighborhoodAnalysis};
    SegmentInfo b{2, "Tumour", {30, 200, 60}};
    b.algorithmFamily = kClusterAnalysis;
    SegmentInfo c{5, "", {20, 60, 220}};
    return {a, b, c};
}

void expectSameLabels(const LabelMap& a, const LabelMap& b) {
    ASSERT_EQ(a.voxelCount(), b.voxelCount());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) wrong += a[i] != b[i];
    EXPECT_EQ(wrong, 0u) << "voxels differ";
}

void expectColourNear(const std::array<std::uint8_t, 3>& a, const std::array<std::uint8_t, 3>& b) {
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(a[c], b[c], 1) << "channel " << c;
}

std::unique_ptr<DcmFileFormat> loadWhole(const std::string& file) {
    auto ff = std::make_unique<DcmFileFormat>();
    // The MR sample's first file ends in 2.4 MB of zeros: what comes before them is the dataset.
    const OFCondition status = ff->loadFile(file.c_str());
    EXPECT_TRUE(status.good() || ff->getDataset()->tagExists(DCM_SOPInstanceUID)) << file << ": " << status.text();
    return ff;
}

std::string tagOf(DcmItem* item, const DcmTagKey& tag) {
    OFString v;
    if (item && item->findAndGetOFStringArray(tag, v).good()) return v.c_str();
    return {};
}

DcmItem* firstItem(DcmItem* parent, const DcmTagKey& sequence) {
    DcmItem* item = nullptr;
    if (parent) parent->findAndGetSequenceItem(sequence, item, 0);
    return item;
}

/// Structure of the written SEG as DCMTK reads it: identity, frames, references per frame.
void expectSegStructure(const std::string& segFile, const Volume& source, const LabelMap& labels,
                        const std::vector<std::uint8_t>& segmentLabels) {
    // The frames expected: segment by segment, only the slices that hold its label.
    std::vector<std::pair<Uint32, int>> expected;  // (segment number, slice)
    for (std::size_t n = 0; n < segmentLabels.size(); ++n)
        for (int k = 0; k < labels.geometry().dims[2]; ++k) {
            bool holds = false;
            for (int j = 0; j < labels.geometry().dims[1] && !holds; ++j)
                for (int i = 0; i < labels.geometry().dims[0] && !holds; ++i) holds = labels.at(i, j, k) == segmentLabels[n];
            if (holds) expected.emplace_back(Uint32(n + 1), k);
        }
    auto seg = loadWhole(segFile);
    auto src = loadWhole(source.metadata().sliceFiles[0]);
    DcmDataset* ds = seg->getDataset();
    DcmDataset* s0 = src->getDataset();
    EXPECT_EQ(tagOf(ds, DCM_SOPClassUID), UID_SegmentationStorage);
    EXPECT_EQ(tagOf(ds, DCM_Modality), "SEG");
    for (const DcmTagKey& tag : {DCM_PatientID, DCM_PatientName, DCM_StudyInstanceUID, DCM_FrameOfReferenceUID})
        EXPECT_EQ(tagOf(ds, tag), tagOf(s0, tag)) << DcmTag(tag).getTagName();
    EXPECT_FALSE(tagOf(ds, DCM_FrameOfReferenceUID).empty());
    EXPECT_NE(tagOf(ds, DCM_SeriesInstanceUID), tagOf(s0, DCM_SeriesInstanceUID));
    EXPECT_EQ(tagOf(ds, DCM_SoftwareVersions), lucent::kVersion);
    const int slices = source.geometry().dims[2];
    EXPECT_EQ(tagOf(ds, DCM_NumberOfFrames), std::to_string(expected.size()));
    EXPECT_LT(expected.size(), std::size_t(slices) * segmentLabels.size()) << "a case with empty slices, left out";
    DcmItem* segment = firstItem(ds, DCM_SegmentSequence);
    EXPECT_EQ(tagOf(segment, DCM_SegmentAlgorithmType), "SEMIAUTOMATIC");
    EXPECT_EQ(tagOf(segment, DCM_SegmentAlgorithmName), "Lucent");
    DcmItem* algorithm = firstItem(segment, DCM_SegmentationAlgorithmIdentificationSequence);
    EXPECT_EQ(tagOf(algorithm, DCM_AlgorithmVersion), lucent::kVersion);

    // Every frame: its slice's source instance and that instance's own position.
    DcmSequenceOfItems* frames = nullptr;
    ASSERT_TRUE(ds->findAndGetSequence(DCM_PerFrameFunctionalGroupsSequence, frames).good());
    ASSERT_EQ(frames->card(), expected.size());
    for (std::size_t f = 0; f < frames->card(); ++f) {
        DcmItem* frame = frames->getItem(f);
        const int k = expected[f].second;
        auto file = loadWhole(source.metadata().sliceFiles[k]);
        DcmItem* derivation = firstItem(frame, DCM_DerivationImageSequence);
        DcmItem* image = firstItem(derivation, DCM_SourceImageSequence);
        EXPECT_EQ(tagOf(image, DCM_ReferencedSOPInstanceUID), tagOf(file->getDataset(), DCM_SOPInstanceUID));
        const std::string position = tagOf(firstItem(frame, DCM_PlanePositionSequence), DCM_ImagePositionPatient);
        double a[3], b[3];
        ASSERT_EQ(std::sscanf(position.c_str(), "%lf\\%lf\\%lf", a, a + 1, a + 2), 3) << position;
        ASSERT_EQ(
            std::sscanf(tagOf(file->getDataset(), DCM_ImagePositionPatient).c_str(), "%lf\\%lf\\%lf", b, b + 1, b + 2),
            3);
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(a[c], b[c], 1e-9) << "frame " << f;
        Uint32 dimension[2] = {0, 0};
        DcmItem* content = firstItem(frame, DCM_FrameContentSequence);
        ASSERT_TRUE(content);
        content->findAndGetUint32(DCM_DimensionIndexValues, dimension[0], 0);
        content->findAndGetUint32(DCM_DimensionIndexValues, dimension[1], 1);
        EXPECT_EQ(dimension[0], expected[f].first);
        EXPECT_EQ(dimension[1], Uint32(k + 1));
    }
    // The common instance reference lists every source instance.
    DcmItem* series = firstItem(ds, DCM_ReferencedSeriesSequence);
    DcmSequenceOfItems* instances = nullptr;
    ASSERT_TRUE(series && series->findAndGetSequence(DCM_ReferencedInstanceSequence, instances).good());
    EXPECT_EQ(instances->card(), std::size_t(slices));
}

struct SyntheticCase {
    TempDir dir;
    Volume volume;
    explicit SyntheticCase(const SeriesSpec& spec) {
        lucent::testing::writeSeries(spec, dir.file("series"));
        volume = loadSeries(dir.file("series"));
    }
};

}  // namespace

TEST(DicomSeg, SyntheticRoundTripIsValidAndExact) {
    SyntheticCase c(obliqueSpec(16, 12, 8));
    const LabelMap labels = threeLabels(c.volume.geometry());
    const auto segments = threeSegments();
    const std::string out = c.dir.file("seg.dcm");
    writeDicomSeg(labels, c.volume.metadata().sliceFiles, segments, out);
    EXPECT_TRUE(isDicomSegFile(out));
    EXPECT_FALSE(isDicomSegFile(c.volume.metadata().sliceFiles[0]));
    if (haveDciodvfy())
        expectValidForDciodvfy(out);
    else
        ADD_FAILURE() << "dciodvfy not installed (packaging/install-deps.sh installs dicom3tools)";
    expectSegStructure(out, c.volume, labels, {1, 2, 5});

    const SegImport back = readDicomSeg(out, c.volume.geometry());
    expectSameLabels(back.labels, labels);
    EXPECT_TRUE(back.labels.geometry().sameGrid(c.volume.geometry()));
    ASSERT_EQ(back.segments.size(), segments.size());
    for (std::size_t s = 0; s < segments.size(); ++s) {
        EXPECT_EQ(back.segments[s].label, segments[s].label);
        expectColourNear(back.segments[s].rgb, segments[s].rgb);
        EXPECT_EQ(back.segments[s].category, segments[s].category);
        EXPECT_EQ(back.segments[s].type, segments[s].type);
        EXPECT_EQ(back.segments[s].algorithmFamily, segments[s].algorithmFamily);
    }
    EXPECT_EQ(back.segments[0].name, "Left lung");
    EXPECT_EQ(back.segments[1].name, "Tumour");
    EXPECT_EQ(back.segments[2].name, "Label 5");  // no name given: the default
}

TEST(DicomSeg, FramesThatDoNotFillWholeBytesRoundTrip) {
    // 13 x 11 = 143 bits a frame: frames start in the middle of bytes.
    SyntheticCase c(obliqueSpec(13, 11, 5));
    const LabelMap labels = threeLabels(c.volume.geometry());
    const std::string out = c.dir.file("odd.dcm");
    writeDicomSeg(labels, c.volume.metadata().sliceFiles, threeSegments(), out);
    if (haveDciodvfy()) expectValidForDciodvfy(out);
    expectSameLabels(readDicomSeg(out, c.volume.geometry()).labels, labels);
}

TEST(DicomSeg, OverlappingSegmentsLaterWins) {
    // Two SEGs written from two maps cannot overlap; a SEG where they do is made by writing label
    // 1 everywhere label 2 also is, then reading: segment 2 (later) must win where both are set.
    SyntheticCase c(obliqueSpec(8, 6, 3));
    LabelMap labels(c.volume.geometry());
    labels.at(1, 1, 1) = 1;
    labels.at(2, 2, 2) = 2;
    const std::string out = c.dir.file("seg.dcm");
    writeDicomSeg(labels, c.volume.metadata().sliceFiles, {{1, "a"}, {2, "b"}}, out);
    // Set segment 1's bit at (2, 2, 2) in the pixel data: frame of segment 1, slice 2.
    auto ff = loadWhole(out);
    DcmDataset* ds = ff->getDataset();
    const Uint8* bits = nullptr;
    unsigned long length = 0;
    ASSERT_TRUE(ds->findAndGetUint8Array(DCM_PixelData, bits, &length).good());
    std::vector<Uint8> copy(bits, bits + length);
    const std::size_t bit = 2 * 48 + 2 * 8 + 2;  // frame 2 (segment 1, slice 2), row 2, column 2
    copy[bit / 8] |= Uint8(1u << (bit % 8));
    ASSERT_TRUE(ds->putAndInsertUint8Array(DCM_PixelData, copy.data(), copy.size()).good());
    ASSERT_TRUE(ff->saveFile(out.c_str(), EXS_LittleEndianExplicit).good());
    const SegImport back = readDicomSeg(out, c.volume.geometry());
    EXPECT_EQ(back.labels.at(2, 2, 2), 2);
    EXPECT_EQ(back.labels.at(1, 1, 1), 1);
    EXPECT_EQ(back.labels.count(1), 1u);
}

TEST(DicomSeg, OtherGridIsAClearError) {
    SyntheticCase c(obliqueSpec(16, 12, 8));
    const std::string out = c.dir.file("seg.dcm");
    writeDicomSeg(threeLabels(c.volume.geometry()), c.volume.metadata().sliceFiles, threeSegments(), out);
    auto expectError = [&](Geometry g, const std::string& needle) {
        try {
            readDicomSeg(out, g);
            ADD_FAILURE() << "read onto another grid: " << needle;
        } catch (const IoError& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(out), std::string::npos) << e.what();
        }
    };
    Geometry g = c.volume.geometry();
    g.dims[0] = 15;
    expectError(g, "pixels");
    g = c.volume.geometry();
    g.spacing.x *= 1.01;
    expectError(g, "pixel spacing");
    g = c.volume.geometry();
    g.direction = Mat3{};
    expectError(g, "orientation");
    g = c.volume.geometry();
    g.origin = g.origin + g.direction.col[0] * (0.5 * g.spacing.x);  // half a voxel along the rows
    expectError(g, "not within");
    g = c.volume.geometry();
    g.dims[2] = 4;  // frames beyond the last slice
    expectError(g, "not within");
    // A quarter voxel of slice spacing is not a slice either; a tenth is rounding.
    g = c.volume.geometry();
    g.origin = g.origin + g.direction.col[2] * (0.25 * g.spacing.z);
    expectError(g, "not within");
    g = c.volume.geometry();
    g.origin = g.origin + g.direction.col[2] * (0.1 * g.spacing.z);
    EXPECT_NO_THROW(readDicomSeg(out, g));
    // A file that is not a SEG.
    try {
        readDicomSeg(c.volume.metadata().sliceFiles[0], c.volume.geometry());
        ADD_FAILURE() << "an image read as a SEG";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("not a DICOM Segmentation"), std::string::npos) << e.what();
    }
}

TEST(DicomSeg, WriteErrorsNameTheProblemAndLeaveNothing) {
    SyntheticCase c(obliqueSpec(16, 12, 8));
    const LabelMap labels = threeLabels(c.volume.geometry());
    const auto files = c.volume.metadata().sliceFiles;
    auto expectError = [&](const std::function<void()>& write, const std::string& needle) {
        try {
            write();
            ADD_FAILURE() << "no error: " << needle;
        } catch (const IoError& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    const std::string out = c.dir.file("seg.dcm");
    // An empty label.
    expectError([&] { writeDicomSeg(labels, files, {{1, "a"}, {3, "c"}}, out); }, "label 3 is empty");
    expectError([&] { writeDicomSeg(LabelMap(c.volume.geometry()), files, {{1, "a"}}, out); }, "label 1 is empty");
    expectError([&] { writeDicomSeg(labels, files, {}, out); }, "no segments");
    // A source slice without a file (a gap the loader filled).
    auto gap = files;
    gap[3].clear();
    expectError([&] { writeDicomSeg(labels, gap, threeSegments(), out); }, "slice 3 has no source file");
    // A source file of another slice.
    auto swapped = files;
    std::swap(swapped[2], swapped[4]);
    expectError([&] { writeDicomSeg(labels, swapped, threeSegments(), out); }, "slice 2");
    EXPECT_FALSE(fs::exists(out));
    // An unwritable output folder: nothing left behind, and an existing file stays as it was.
    const std::string folder = c.dir.file("locked");
    fs::create_directories(folder);
    { std::ofstream(folder + "/seg.dcm") << "old"; }
    fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec);
    const bool root = ::geteuid() == 0;  // root writes anyway: then only the missing folder is checked
    if (!root) {
        expectError([&] { writeDicomSeg(labels, files, threeSegments(), folder + "/seg.dcm"); }, folder + "/seg.dcm");
        std::ifstream in(folder + "/seg.dcm");
        std::string content;
        in >> content;
        EXPECT_EQ(content, "old");
    }
    fs::permissions(folder, fs::perms::owner_all);
    const std::string missing = c.dir.file("no/such/folder/seg.dcm");
    expectError([&] { writeDicomSeg(labels, files, threeSegments(), missing); }, missing);
    EXPECT_FALSE(fs::exists(c.dir.file("no")));
    std::size_t entries = 0;
    for (const auto& e : fs::directory_iterator(folder)) entries += e.path().filename() != "seg.dcm";
    EXPECT_EQ(entries, 0u) << "a temporary file was left in " << folder;
}

TEST(DicomSeg, MultiFrameSourceIsRefusedClearly) {
    TempDir dir;
    SeriesSpec spec = obliqueSpec(16, 12, 6);
    lucent::testing::writeEnhancedMultiFrame(spec, dir.file("enhanced.dcm"));
    const Volume volume = loadSeries(dir.path());
    ASSERT_EQ(volume.metadata().sliceFiles.size(), 6u);
    try {
        writeDicomSeg(threeLabels(volume.geometry()), volume.metadata().sliceFiles, threeSegments(),
                      dir.file("seg.dcm"));
        ADD_FAILURE() << "a multi-frame source was accepted";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("multi-frame"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("enhanced.dcm"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(dir.file("seg.dcm")));
}

TEST(DicomSeg, SegInTheSeriesFolderDoesNotDisturbLoading) {
    SyntheticCase c(obliqueSpec(16, 12, 8));
    writeDicomSeg(threeLabels(c.volume.geometry()), c.volume.metadata().sliceFiles, threeSegments(),
                  c.dir.file("series/seg.dcm"));
    const auto scan = DicomReader::scan(c.dir.file("series"));
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_EQ(scan.series[0].info.modality, "MR");
    bool named = false;
    for (const auto& w : scan.warnings) named = named || w.find("SEG") != std::string::npos;
    EXPECT_TRUE(named) << "the skipped SEG is not mentioned";
    const Volume again = DicomReader::load(scan.series[0]);
    EXPECT_TRUE(again.geometry().sameGrid(c.volume.geometry()));
    EXPECT_EQ(again.metadata().sliceFiles, c.volume.metadata().sliceFiles);
    // The one-call path the CLI uses picks the image series without being told.
    EXPECT_EQ(ImageSource::load(c.dir.file("series"), "").voxelCount(), c.volume.voxelCount());
}

TEST(DicomSeg, SegmentsOfALabelLayer) {
    Geometry g;
    g.dims = {4, 3, 2};
    LabelMap labels(g);
    labels.at(1, 1, 1) = 5;
    labels.at(0, 0, 0) = 1;
    LabelTable table;
    LabelInfo liver;
    liver.value = 5;
    liver.name = "Liver";
    liver.rgb = {10, 20, 30};
    table.set(liver);
    table.ensure(7);  // in the table but not in the map: no segment
    const auto segments = segmentsOf(labels, table);
    ASSERT_EQ(segments.size(), 2u);
    EXPECT_EQ(segments[0].label, 1);
    EXPECT_EQ(segments[0].name, LabelTable::defaultName(1));
    EXPECT_EQ(segments[0].rgb, LabelTable::defaultColour(1));
    EXPECT_EQ(segments[1].label, 5);
    EXPECT_EQ(segments[1].name, "Liver");
    EXPECT_EQ(segments[1].rgb, (std::array<std::uint8_t, 3>{10, 20, 30}));
    EXPECT_EQ(segments[1].category, kTissue);
    EXPECT_TRUE(segmentsOf(LabelMap(g), table).empty());
}

TEST(DicomSeg, ColoursThroughCieLab) {
    // Known values: white is L 100, a = b = 0; sRGB red is about L 53.24, a 80.09, b 67.20.
    const auto white = rgbToDicomLab({255, 255, 255});
    EXPECT_NEAR(white[0], 65535, 2);
    EXPECT_NEAR(white[1], 0x8080, 40);
    EXPECT_NEAR(white[2], 0x8080, 40);
    const auto red = rgbToDicomLab({255, 0, 0});
    EXPECT_NEAR(red[0] * 100.0 / 65535, 53.24, 0.1);
    EXPECT_NEAR(red[1] * 255.0 / 65535 - 128, 80.09, 0.2);
    EXPECT_NEAR(red[2] * 255.0 / 65535 - 128, 67.20, 0.2);
    for (const std::array<std::uint8_t, 3> rgb :
         {std::array<std::uint8_t, 3>{0, 0, 0}, {255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {230, 40, 40}, {12, 200, 99}})
        expectColourNear(dicomLabToRgb(rgbToDicomLab(rgb)), rgb);
}

TEST(DicomSeg, RealObliqueMrBrain) {
    LUCENT_REAL_DATA_OR_SKIP(folder, lucent::testing::kRealMrSeries);
    const Volume volume = loadSeries(folder);
    const Geometry& g = volume.geometry();
    // A label drawn in it: a ball of 20 voxels' radius in the middle, across slices 8..12.
    LabelMap labels(g);
    for (int k = 8; k <= 12; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const Vec3 d = g.voxelToPatient({double(i), double(j), double(k)}) -
                               g.voxelToPatient({g.dims[0] / 2.0, g.dims[1] / 2.0, 10.0});
                if (norm(d) < 20) labels.at(i, j, k) = 1;
            }
    ASSERT_GT(labels.count(1), 1000u);
    TempDir dir;
    const std::string out = dir.file("brain-seg.dcm");
    writeDicomSeg(labels, volume.metadata().sliceFiles, {{1, "Ventricles", {40, 120, 230}}}, out);
    if (haveDciodvfy()) {
        // The sample's own UIDs have an illegal root (dciodvfy says so of the source files too);
        // the SEG must copy them, so those and only those are excused.
        std::set<std::string> inherited;
        for (const std::string& file : volume.metadata().sliceFiles) {
            auto source = loadWhole(file);
            for (const DcmTagKey& tag :
                 {DCM_StudyInstanceUID, DCM_SeriesInstanceUID, DCM_SOPInstanceUID, DCM_FrameOfReferenceUID})
                inherited.insert(tagOf(source->getDataset(), tag));
        }
        const std::string sourceReport = run("dciodvfy '" + volume.metadata().sliceFiles[1] + "' 2>&1");
        EXPECT_NE(sourceReport.find("Illegal root for UID"), std::string::npos) << sourceReport;
        expectValidForDciodvfy(out, inherited);
    }
    expectSegStructure(out, volume, labels, {1});
    const SegImport back = readDicomSeg(out, g);
    expectSameLabels(back.labels, labels);
    ASSERT_EQ(back.segments.size(), 1u);
    EXPECT_EQ(back.segments[0].name, "Ventricles");
    expectColourNear(back.segments[0].rgb, {40, 120, 230});
}
