/// @brief Round trips through NIfTI, MetaImage and NRRD with oblique geometry; errors leave no file behind.
#include "FileSizeLimit.h"
#include "TempDir.h"

#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/NiftiFormat.h"
#include "lucent/io/VolumeFile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::TempDir;

namespace {

Volume makeVolume(PixelType type) {
    Geometry g;
    g.dims = {17, 11, 7};
    g.spacing = {0.8, 0.9, 2.5};
    g.origin = {-101.5, 22.25, 48.0};
    const double a = 0.4, b = -0.2;
    const Vec3 r{std::cos(a), std::sin(a), 0};
    const Vec3 c{-std::sin(a) * std::cos(b), std::cos(a) * std::cos(b), std::sin(b)};
    g.direction = Mat3::fromColumns(r, c, cross(r, c));
    Volume v(g, type);
    for (std::size_t i = 0; i < v.voxelCount(); ++i)
        v.setValue(i, type == PixelType::Int16 ? double(int(i * 37 % 4000) - 1024) : i * 0.125 - 3.5);
    return v;
}

void expectSame(const Volume& a, const Volume& b) {
    EXPECT_TRUE(a.geometry().sameGrid(b.geometry(), 1e-3));
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) EXPECT_NEAR(a.geometry().direction.col[c][r], b.geometry().direction.col[c][r], 1e-5);
    ASSERT_EQ(a.pixelType(), b.pixelType());
    ASSERT_EQ(a.byteSize(), b.byteSize());
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.byteSize()));
}

}  // namespace

class VolumeFormats : public ::testing::TestWithParam<std::string> {};

TEST_P(VolumeFormats, RoundTripKeepsGeometryAndVoxels) {
    TempDir dir;
    for (PixelType type : {PixelType::Int16, PixelType::Float32}) {
        const Volume v = makeVolume(type);
        const std::string path = dir.file("v" + GetParam());
        writeVolumeFile(v, path);
        expectSame(v, readVolumeFile(path));
    }
}

TEST_P(VolumeFormats, LabelMapRoundTrip) {
    TempDir dir;
    LabelMap labels(makeVolume(PixelType::Int16).geometry());
    for (std::size_t i = 0; i < labels.voxelCount(); ++i) labels[i] = static_cast<std::uint8_t>(i % 5);
    const std::string path = dir.file("mask" + GetParam());
    writeLabelMapFile(labels, path);
    const LabelMap back = readLabelMapFile(path);
    EXPECT_TRUE(back.geometry().sameGrid(labels.geometry()));
    EXPECT_EQ(0, std::memcmp(back.data(), labels.data(), labels.voxelCount()));
}

INSTANTIATE_TEST_SUITE_P(All, VolumeFormats, ::testing::Values(".nii", ".nii.gz", ".mha", ".mhd", ".nrrd"));

TEST(Nifti, WritesRasAffineForLpsGeometry) {
    // Identity LPS direction: NIfTI's RAS affine must negate the first two rows.
    TempDir dir;
    Geometry g;
    g.dims = {4, 3, 2};
    g.spacing = {1.5, 2, 3};
    g.origin = {10, 20, 30};
    writeVolumeFile(Volume(g, PixelType::Int16), dir.file("a.nii"));
    const auto bytes = readFile(dir.file("a.nii"));
    float srow[12];
    std::memcpy(srow, bytes.data() + 280, sizeof srow);
    EXPECT_FLOAT_EQ(srow[0], -1.5f);
    EXPECT_FLOAT_EQ(srow[3], -10.0f);
    EXPECT_FLOAT_EQ(srow[5], -2.0f);
    EXPECT_FLOAT_EQ(srow[7], -20.0f);
    EXPECT_FLOAT_EQ(srow[10], 3.0f);
    EXPECT_FLOAT_EQ(srow[11], 30.0f);
}

TEST(Nifti, QformAloneGivesTheSameGeometry) {
    TempDir dir;
    const Volume v = makeVolume(PixelType::Int16);
    writeVolumeFile(v, dir.file("q.nii"));
    auto bytes = readFile(dir.file("q.nii"));
    const std::int16_t zero = 0;
    std::memcpy(bytes.data() + 254, &zero, 2);  // sform_code = 0
    writeFileAtomically(dir.file("q.nii"), {{bytes.data(), bytes.size()}});
    expectSame(v, readVolumeFile(dir.file("q.nii")));
}

TEST(VolumeFile, TruncatedFileIsAClearError) {
    TempDir dir;
    writeVolumeFile(makeVolume(PixelType::Int16), dir.file("t.nrrd"));
    std::filesystem::resize_file(dir.file("t.nrrd"), std::filesystem::file_size(dir.file("t.nrrd")) - 10);
    try {
        readVolumeFile(dir.file("t.nrrd"));
        ADD_FAILURE();
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("t.nrrd"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos);
    }
}

TEST(VolumeFile, FailedWriteLeavesNothingBehind) {
    TempDir dir;
    EXPECT_THROW(writeVolumeFile(makeVolume(PixelType::Int16), dir.file("missing/x.nii")), IoError);
    EXPECT_THROW(writeVolumeFile(makeVolume(PixelType::Int16), dir.file("x.png")), IoError);
    // A full disk, simulated by a file-size limit: the write fails part-way (EFBIG, as ENOSPC would).
    bool threw = false;
    {
        lucent::testing::FileSizeLimit full(1024);  // the volume needs about 3 KB
        try {
            writeVolumeFile(makeVolume(PixelType::Int16), dir.file("big.nii"));
        } catch (const IoError& e) {
            threw = std::string(e.what()).find("big.nii") != std::string::npos;
        }
    }
    EXPECT_TRUE(threw);
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(VolumeFile, ReadsRasNrrdAndMetaImageByteOrder) {
    TempDir dir;
    {
        std::ofstream f(dir.file("ras.nrrd"), std::ios::binary);
        f << "NRRD0004\ntype: short\ndimension: 3\nspace: right-anterior-superior\nsizes: 2 1 1\n"
             "space directions: (2,0,0) (0,3,0) (0,0,4)\nendian: big\nencoding: raw\nspace origin: (5,6,7)\n\n";
        const unsigned char data[] = {0x01, 0x02, 0xff, 0xfe};
        f.write(reinterpret_cast<const char*>(data), 4);
    }
    const Volume v = readVolumeFile(dir.file("ras.nrrd"));
    EXPECT_EQ(v.value(0, 0, 0), 0x0102);
    EXPECT_EQ(v.value(1, 0, 0), -2);
    EXPECT_NEAR(v.geometry().origin.x, -5, 1e-12);
    EXPECT_NEAR(v.geometry().origin.y, -6, 1e-12);
    EXPECT_NEAR(v.geometry().direction.col[0].x, -1, 1e-12);
    EXPECT_NEAR(v.geometry().spacing.y, 3, 1e-12);
}

TEST(VolumeFile, NonLabelValuesAreRejectedAsMask) {
    TempDir dir;
    writeVolumeFile(makeVolume(PixelType::Float32), dir.file("f.nii"));
    EXPECT_THROW(readLabelMapFile(dir.file("f.nii")), IoError);
}

TEST(VolumeFile, NiftiSpaceCodesRoundTrip) {
    // An MNI-152 image (sform_code 4, qform_code 0) stays MNI-152 when Lucent writes it back, and so
    // does every output made for it (the layout carries the codes).
    TempDir dir;
    const Volume source = makeVolume(PixelType::Int16);  // the raw image borrows its voxels
    RawImage raw = fromVolume(source);
    raw.codes = {0, 4};
    writeRawImage(raw, dir.file("mni.nii.gz"));
    const Volume v = readVolumeFile(dir.file("mni.nii.gz"));
    EXPECT_EQ(v.metadata().codes, (CoordinateCodes{0, 4}));
    writeVolumeFile(v, dir.file("back.nii"));
    const RawImage back = readRawImageHeader(dir.file("back.nii"));
    EXPECT_EQ(back.codes, (CoordinateCodes{0, 4}));
    EXPECT_TRUE(back.geometry.sameGrid(v.geometry(), 1e-3));
    // Other inputs stay scanner-based (code 1), as before.
    writeVolumeFile(makeVolume(PixelType::Int16), dir.file("scanner.nii"));
    EXPECT_EQ(readRawImageHeader(dir.file("scanner.nii")).codes, (CoordinateCodes{1, 1}));
}
