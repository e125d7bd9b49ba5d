/// @brief A folder's volume files are volumes like its DICOM series: listed with an id `--series`
/// takes, loadable by it, their detached data files not reported as stray files.
#include "TempDir.h"

#include "lucent/core/Errors.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/VolumeFile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::TempDir;

namespace {

/// A 5 x 4 x 3 int16 volume whose values say which file it is (offset) and where (index).
Volume numbered(int offset, double spacing) {
    Geometry g;
    g.dims = {5, 4, 3};
    g.spacing = {spacing, spacing, 2.0};
    Volume v(g, PixelType::Int16);
    for (std::size_t i = 0; i < v.voxelCount(); ++i) v.setValue(i, double(offset + int(i)));
    return v;
}

/// A NRRD header beside its raw data file: the .nhdr names `data` (written here by hand, as other
/// programs write them; Lucent writes attached NRRD only).
void writeDetachedNrrd(const std::string& header, const std::string& data, const Volume& v) {
    std::ofstream(header) << "NRRD0004\ntype: short\ndimension: 3\nsizes: 5 4 3\nspacings: 1 1 2\nencoding: raw\n"
                             "endian: little\ndata file: "
                          << data << "\n\n";
    const std::string raw = (std::filesystem::path(header).parent_path() / data).string();
    std::ofstream(raw, std::ios::binary).write(static_cast<const char*>(v.data()), std::streamsize(v.byteSize()));
}

bool hasWarning(const std::vector<std::string>& warnings, const std::string& part) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

std::vector<std::string> ids(const SourceListing& listing) {
    std::vector<std::string> out;
    for (const auto& s : listing.series) out.push_back(s.id);
    return out;
}

}  // namespace

TEST(FolderListing, VolumeFilesAreListedWithTheirPathUnderTheFolderAsId) {
    TempDir dir;
    std::filesystem::create_directories(dir.file("sub"));
    writeVolumeFile(numbered(0, 1.0), dir.file("a.nii.gz"));
    writeVolumeFile(numbered(1000, 0.5), dir.file("b.mhd"));  // b.mhd + b.raw
    writeDetachedNrrd(dir.file("sub/c.nhdr"), "c-voxels.bin", numbered(2000, 1.0));
    std::ofstream(dir.file("notes.txt")) << "not an image\n";
    std::ofstream(dir.file("broken.nii")) << "not a NIfTI header";

    const SourceListing listing = ImageSource::list(dir.path());
    EXPECT_EQ(ids(listing), (std::vector<std::string>{"a.nii.gz", "b.mhd", "sub/c.nhdr"}));
    EXPECT_EQ(listing.series[1].geometry.spacing.x, 0.5);
    // The broken file is named; the stray text file is the only file counted as not DICOM (the
    // .raw and .bin data files belong to their headers).
    EXPECT_TRUE(hasWarning(listing.warnings, "broken.nii")) << ::testing::PrintToString(listing.warnings);
    EXPECT_TRUE(hasWarning(listing.warnings, "1 file(s) under")) << ::testing::PrintToString(listing.warnings);
    EXPECT_EQ(listing.warnings.size(), 2u) << ::testing::PrintToString(listing.warnings);
}

TEST(FolderListing, EachVolumeFileLoadsByItsIdAndByIndex) {
    TempDir dir;
    std::filesystem::create_directories(dir.file("sub"));
    writeVolumeFile(numbered(0, 1.0), dir.file("a.nii.gz"));
    writeVolumeFile(numbered(1000, 0.5), dir.file("b.mhd"));
    writeDetachedNrrd(dir.file("sub/c.nhdr"), "c-voxels.bin", numbered(2000, 1.0));

    const SourceScan scan = ImageSource::scan(dir.path());
    ASSERT_EQ(scan.listing.series.size(), 3u);
    const int offsets[] = {0, 1000, 2000};
    for (std::size_t i = 0; i < 3; ++i) {
        const std::size_t chosen = ImageSource::choose(scan, scan.listing.series[i].id, WhenUnnamed::Refuse);
        EXPECT_EQ(chosen, i);
        const Volume v = ImageSource::load(scan, chosen);
        ASSERT_EQ(v.voxelCount(), 60u);
        for (std::size_t k = 0; k < v.voxelCount(); ++k) ASSERT_EQ(v.value(k), offsets[i] + double(k)) << i;
    }
    // Unnamed, several volumes: the CLI must be told which, and the error lists the ids.
    try {
        ImageSource::choose(scan, "", WhenUnnamed::Refuse);
        FAIL() << "several volumes, none chosen";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("sub/c.nhdr"), std::string::npos) << e.what();
    }
    EXPECT_EQ(ImageSource::load(dir.path(), "b.mhd").geometry().spacing.x, 0.5);
}

TEST(FolderListing, AFolderWithNothingLoadableSaysSo) {
    TempDir dir;
    std::ofstream(dir.file("notes.txt")) << "not an image\n";
    try {
        ImageSource::load(dir.path(), "");
        FAIL() << "nothing to load";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("no image volume found"), std::string::npos) << e.what();
    }
}

TEST(FolderListing, FoldersReachedThroughSymbolicLinksAreListedOnceAndLoopsEnd) {
    // A study folder as researchers link them together: one series folder of its own, one linked in
    // from elsewhere (twice), and a link back up the tree that would never end if followed blindly.
    TempDir dir;
    namespace fs = std::filesystem;
    fs::create_directories(dir.file("study/own"));
    fs::create_directories(dir.file("elsewhere/t1"));
    writeVolumeFile(numbered(0, 1.0), dir.file("study/own/a.nii.gz"));
    writeVolumeFile(numbered(1000, 0.5), dir.file("elsewhere/t1/b.nii.gz"));
    fs::create_directory_symlink("../elsewhere", dir.file("study/linked"));
    fs::create_directory_symlink(dir.file("elsewhere"), dir.file("study/again"));
    fs::create_directory_symlink("..", dir.file("study/own/up"));

    const SourceListing listing = ImageSource::list(dir.file("study"));
    const auto found = ids(listing);
    ASSERT_EQ(found.size(), 2u) << ::testing::PrintToString(found);
    EXPECT_TRUE(std::count(found.begin(), found.end(), "own/a.nii.gz")) << ::testing::PrintToString(found);
    EXPECT_TRUE(found[0].ends_with("t1/b.nii.gz") || found[1].ends_with("t1/b.nii.gz")) << ::testing::PrintToString(found);
}
