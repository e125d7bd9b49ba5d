/// @brief Label layers through NIfTI, NRRD (Slicer's segment fields) and MetaImage, read back onto the volume's grid.
#include "TempDir.h"

#include "lucent/core/Errors.h"
#include "lucent/core/GridMatch.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/LabelFile.h"
#include "lucent/io/NrrdFormat.h"
#include "lucent/io/VolumeFile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::TempDir;

namespace {

Geometry grid() {
    Geometry g;
    g.dims = {12, 10, 6};
    g.spacing = {0.8, 0.8, 2.0};
    g.origin = {-60.0, 15.5, 40.0};
    const double a = 0.2;
    const Vec3 r{std::cos(a), std::sin(a), 0}, c{-std::sin(a), std::cos(a), 0};
    g.direction = Mat3::fromColumns(r, c, cross(r, c));
    return g;
}

LabelMap twoLabels() {
    LabelMap m(grid());
    for (int k = 1; k < 5; ++k)
        for (int j = 1; j < 4; ++j)
            for (int i = 2; i < 7; ++i) m.at(i, j, k) = 1;
    m.at(10, 8, 5) = 3;  // a corner voxel: rows reversed must keep it in place
    return m;
}

LabelTable namedTable() {
    LabelTable t;
    t.set({1, "liver", {200, 120, 40}});
    t.set({3, "lesion; with \"quotes\"", {10, 250, 90}});
    return t;
}

bool sameVoxels(const LabelMap& a, const LabelMap& b) {
    return a.voxelCount() == b.voxelCount() && std::equal(a.data(), a.data() + a.voxelCount(), b.data());
}

}  // namespace

TEST(LabelFile, EveryVolumeFormatRoundTripsOntoTheGrid) {
    TempDir dir;
    const LabelMap m = twoLabels();
    for (const std::string name : {"m.nii", "m.nii.gz", "m.nrrd", "m.mha"}) {
        const std::string path = dir.file(name);
        writeLabelFile(m, namedTable(), path, {});
        const LabelFileContents back = readLabelFile(path, grid());
        EXPECT_TRUE(sameVoxels(back.labels, m)) << name;
        EXPECT_TRUE(back.labels.geometry().sameGrid(grid(), 1e-9)) << name;
        EXPECT_NE(back.table.find(1), nullptr) << name;
        EXPECT_NE(back.table.find(3), nullptr) << name;
    }
}

TEST(LabelFile, NrrdCarriesSlicerSegmentNamesAndColours) {
    TempDir dir;
    const std::string path = dir.file("m.seg.nrrd");
    writeLabelFile(twoLabels(), namedTable(), path, {});
    const RawImage raw = NrrdFormat::read(path);
    auto field = [&](const std::string& key) {
        for (const auto& [k, v] : raw.keyValues)
            if (k == key) return v;
        return std::string("<absent>");
    };
    EXPECT_EQ(field("Segment0_Name"), "liver");
    EXPECT_EQ(field("Segment0_LabelValue"), "1");
    EXPECT_EQ(field("Segment1_LabelValue"), "3");
    EXPECT_EQ(field("Segment0_Extent"), "2 6 1 3 1 4");
    EXPECT_EQ(field("Segmentation_MasterRepresentation"), "Binary labelmap");
    const LabelFileContents back = readLabelFile(path, grid());
    ASSERT_NE(back.table.find(3), nullptr);
    EXPECT_EQ(back.table.find(3)->name, "lesion; with \"quotes\"");
    EXPECT_EQ(back.table.find(1)->rgb, (std::array<std::uint8_t, 3>{200, 120, 40}));
}

TEST(LabelFile, DicomSourcedNiftiStoresRowsBottomUpLikeDcm2niix) {
    TempDir dir;
    const std::string path = dir.file("m.nii.gz");
    LabelExportOptions options;
    options.sourceSliceFiles.assign(grid().dims[2], "slice.dcm");
    const LabelMap m = twoLabels();
    writeLabelFile(m, namedTable(), path, options);
    const LabelMap stored = readLabelMapFile(path);
    // As stored: row j is the source's row ny-1-j, the geometry says so, and the voxels' world
    // positions are the series' own.
    EXPECT_EQ(stored.at(10, 10 - 1 - 8, 5), 3);
    EXPECT_TRUE(stored.geometry().sameGrid(reverseRows(grid()), 1e-3));
    // Read back onto the series' grid: the same voxels, reordered exactly.
    EXPECT_TRUE(sameVoxels(readLabelFile(path, grid()).labels, m));
}

TEST(LabelFile, AConvertedSeriesAndItsMaskShareOneGridInEveryFormat) {
    // A DICOM series (it lists its slice files) converted and segmented: within one format the image
    // and the mask are stored on one grid, so stored voxel i of the mask labels stored voxel i of the
    // image; and the viewer, opening the converted image, places the mask on it voxel for voxel.
    TempDir dir;
    Volume series(grid(), PixelType::Int16);
    for (std::size_t i = 0; i < series.voxelCount(); ++i) series.setValue(i, double((i * 37) % 300));
    series.metadata().sliceFiles.assign(grid().dims[2], "slice.dcm");
    LabelMap mask(grid());
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) mask[i] = series.value(i) > 150 ? 1 : 0;
    LabelExportOptions options;
    options.sourceSliceFiles = series.metadata().sliceFiles;
    for (const std::string ext : {".nii", ".nii.gz", ".nrrd", ".mha"}) {
        const std::string image = dir.file("image" + ext), labels = dir.file("mask" + ext);
        writeVolumeFile(series, image);
        writeLabelFile(mask, {}, labels, options);
        const RawImage storedImage = readRawImage(image), storedMask = readRawImage(labels);
        ASSERT_TRUE(storedImage.geometry.sameGrid(storedMask.geometry, 1e-6)) << ext;
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < series.voxelCount(); ++i)
            wrong += storedMask.storedValue(i) != (storedImage.storedValue(i) > 150 ? 1 : 0);
        EXPECT_EQ(wrong, 0u) << ext;
        const Volume opened = readVolumeFile(image);
        const LabelMap placed = readLabelFile(labels, opened.geometry()).labels;
        wrong = 0;
        for (std::size_t i = 0; i < opened.voxelCount(); ++i) wrong += placed[i] != (opened.value(i) > 150 ? 1 : 0);
        EXPECT_EQ(wrong, 0u) << ext;
    }
    // NIfTI is dcm2niix's layout for both (rows bottom-up); the other formats keep the loaded order.
    EXPECT_TRUE(readRawImage(dir.file("image.nii")).geometry.sameGrid(reverseRows(grid()), 1e-3));
    EXPECT_TRUE(readRawImage(dir.file("image.nrrd")).geometry.sameGrid(grid(), 1e-6));
}

TEST(LabelFile, ChosenLabelsOnlyAndEmptyLabelsRefused) {
    TempDir dir;
    LabelExportOptions options;
    options.labels = {3};
    writeLabelFile(twoLabels(), namedTable(), dir.file("only3.nrrd"), options);
    const LabelMap back = readLabelFile(dir.file("only3.nrrd"), grid()).labels;
    EXPECT_EQ(back.count(1), 0u);
    EXPECT_EQ(back.count(3), 1u);
    options.labels = {2};
    EXPECT_THROW(writeLabelFile(twoLabels(), namedTable(), dir.file("two.nii"), options), IoError);
    EXPECT_FALSE(std::filesystem::exists(dir.file("two.nii")));
    EXPECT_THROW(writeLabelFile(LabelMap(grid()), {}, dir.file("none.nii"), {}), IoError);
    EXPECT_FALSE(std::filesystem::exists(dir.file("none.nii")));
}

TEST(LabelFile, LabelsPresentCountedByTheCallerAreUsedNotCountedAgain) {
    TempDir dir;
    const LabelMap m = twoLabels();
    LabelExportOptions counted;
    counted.present = std::vector<std::uint8_t>{1, 3};  // as `segment` counted them
    for (const std::string name : {"m.nii", "m.nrrd"}) {
        writeLabelFile(m, namedTable(), dir.file("counted-" + name), counted);
        writeLabelFile(m, namedTable(), dir.file(name), {});
        EXPECT_EQ(readFile(dir.file("counted-" + name)), readFile(dir.file(name))) << name;
    }
    // The caller's count is the one read: an empty one is an empty mask, whatever the map holds.
    LabelExportOptions none;
    none.present.emplace();
    EXPECT_THROW(writeLabelFile(m, {}, dir.file("none.nii"), none), IoError);
    EXPECT_FALSE(std::filesystem::exists(dir.file("none.nii")));
}

TEST(LabelFile, AnotherGridIsAnErrorNamingTheFileNeverAResample) {
    TempDir dir;
    Geometry other = grid();
    other.spacing.x = 0.9;
    LabelMap m(other);
    m[5] = 1;
    writeLabelMapFile(m, dir.file("other.nii"));
    try {
        readLabelFile(dir.file("other.nii"), grid());
        FAIL() << "a mask on another grid was accepted";
    } catch (const IoError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("other.nii"), std::string::npos) << what;
        EXPECT_NE(what.find("another grid"), std::string::npos) << what;
    }
}

TEST(LabelFile, AShiftedMaskStoredBottomUpIsReportedByItsShiftNotItsOtherCorner) {
    // A mask stored with its rows the other way round (as dcm2niix stores a series) and moved 0.3 mm:
    // its first stored voxel is the reference's last row, 7.2 mm off, but the grids differ by 0.3 mm.
    TempDir dir;
    Geometry shifted = grid();
    shifted.origin = shifted.origin + Vec3{0.3, 0, 0};
    LabelMap m(reverseRows(shifted));
    m[5] = 1;
    writeLabelMapFile(m, dir.file("shifted.nii"));
    try {
        readLabelFile(dir.file("shifted.nii"), grid());
        FAIL() << "a shifted mask was accepted";
    } catch (const IoError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("shifted by 0.3 mm at the first voxel (0.3, 0, 0 mm LPS)"), std::string::npos) << what;
        EXPECT_NE(what.find("another axis order or direction"), std::string::npos) << what;
        EXPECT_EQ(what.find("spacing"), std::string::npos) << what;
    }
}

TEST(LabelFile, AFailedWriteKeepsTheExistingFile) {
    TempDir dir;
    const std::string path = dir.file("keep.nrrd");
    writeLabelFile(twoLabels(), namedTable(), path, {});
    const auto before = std::filesystem::file_size(path);
    LabelExportOptions options;
    options.labels = {7};  // empty: refused before anything is written
    EXPECT_THROW(writeLabelFile(twoLabels(), namedTable(), path, options), IoError);
    EXPECT_EQ(std::filesystem::file_size(path), before);
    EXPECT_THROW(writeLabelFile(twoLabels(), namedTable(), dir.file("no/such/folder/x.nii"), {}), IoError);
}
