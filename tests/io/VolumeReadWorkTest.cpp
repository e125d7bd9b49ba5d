/// @brief Reading volume files by work counted (IoWork.h): a listing reads headers only, a load reads each
/// byte once into the volume's own buffer, every scalar type and byte order converted in place.
#include "TempDir.h"

#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/IoWork.h"
#include "lucent/io/VolumeFile.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::TempDir;

namespace {

void writeBytes(const std::string& path, std::string_view bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// `path` grown to `size` bytes by a hole: a gigabyte that takes no disk and no time to write.
void growSparse(const std::string& path, std::uint64_t size) {
    ASSERT_EQ(0, ::truncate(path.c_str(), off_t(size))) << path;
}

constexpr int kNx = 1024, kNy = 1024, kNz = 512;  // int16: 1 GiB
constexpr std::uint64_t kGiB = std::uint64_t(kNx) * kNy * kNz * 2;

std::string sizes() { return std::to_string(kNx) + " " + std::to_string(kNy) + " " + std::to_string(kNz); }

/// A 348-byte NIfTI-1 header of a kNx x kNy x kNz int16 volume, voxels at 352 (nifti1.h's offsets).
std::string niftiHeader() {
    std::string h(352, '\0');
    const auto put = [&](std::size_t at, auto v) { std::memcpy(h.data() + at, &v, sizeof v); };
    put(0, std::int32_t(348));
    const std::int16_t dim[8] = {3, kNx, kNy, kNz, 1, 1, 1, 1};
    std::memcpy(h.data() + 40, dim, sizeof dim);
    put(70, std::int16_t(4));   // datatype int16
    put(72, std::int16_t(16));  // bitpix
    const float pixdim[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    std::memcpy(h.data() + 76, pixdim, sizeof pixdim);
    put(108, 352.0f);  // vox_offset
    std::memcpy(h.data() + 344, "n+1", 4);
    return h;
}

struct Work {
    IoWork work;
    SourceListing listing;
};

Work listWork(const std::string& path) {
    const IoWork before = ioWorkSoFar();
    Work w;
    w.listing = ImageSource::list(path);
    w.work = ioWorkSoFar() - before;
    return w;
}

}  // namespace

// Issue 24: `lucent info` on a 1 GB .mhd read every voxel (and took 2 GB) to print a header. Each
// format's header is now read alone: under a megabyte read, nothing allocated, for the file and
// for a folder holding it.
TEST(HeaderOnly, ListingAGigabyteVolumeReadsItsHeaderOnly) {
    TempDir dir;
    const std::string mhd = dir.file("mhd/big.mhd");
    std::filesystem::create_directories(dir.file("mhd"));
    writeBytes(mhd, "ObjectType = Image\nNDims = 3\nDimSize = " + sizes() +
                        "\nElementType = MET_SHORT\nElementDataFile = big.raw\n");
    writeBytes(dir.file("mhd/big.raw"), "");
    growSparse(dir.file("mhd/big.raw"), kGiB);
    std::filesystem::create_directories(dir.file("nrrd"));
    const std::string nrrd = dir.file("nrrd/big.nrrd");
    const std::string nrrdHeader = "NRRD0004\ntype: short\ndimension: 3\nsizes: " + sizes() + "\nencoding: raw\n\n";
    writeBytes(nrrd, nrrdHeader);
    growSparse(nrrd, nrrdHeader.size() + kGiB);
    std::filesystem::create_directories(dir.file("nii"));
    const std::string nii = dir.file("nii/big.nii");
    writeBytes(nii, niftiHeader());
    growSparse(nii, 352 + kGiB);
    for (const std::string& path : {mhd, nrrd, nii}) {
        for (const std::string& listed : {path, std::filesystem::path(path).parent_path().string()}) {
            const Work w = listWork(listed);
            ASSERT_EQ(w.listing.series.size(), 1u) << listed;
            EXPECT_EQ(w.listing.series[0].geometry.dims, (std::array<int, 3>{kNx, kNy, kNz})) << listed;
            EXPECT_LT(w.work.bytesRead, 1u << 20) << listed << ": the header, not the gigabyte behind it";
            EXPECT_EQ(w.work.bytesAllocated, 0u) << listed;
            EXPECT_EQ(w.work.bytesInflated, 0u) << listed;
        }
    }
    // A short data file is still refused when listed (its length is checked, not read).
    growSparse(dir.file("mhd/big.raw"), kGiB - 2);
    const IoWork before = ioWorkSoFar();
    try {
        ImageSource::list(mhd);
        ADD_FAILURE() << "a data file 2 bytes short was listed";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
    }
    EXPECT_LT((ioWorkSoFar() - before).bytesRead, 1u << 20);
}

// A .nii.gz inflates its 348 header bytes when listed; loading inflates the voxels, only them.
TEST(HeaderOnly, GzipListingInflatesTheHeaderAlone) {
    TempDir dir;
    const std::string path = dir.file("z.nii.gz");
    std::string header = niftiHeader();
    const std::int16_t dim[4] = {3, 256, 256, 128};  // 16 MiB of int16
    std::memcpy(header.data() + 40, dim, sizeof dim);
    const std::string zeros(std::size_t(256) * 256 * 128 * 2, '\0');
    const auto gz = gzipBuffer({header, zeros});
    writeBytes(path, {gz.data(), gz.size()});
    const Work w = listWork(path);
    ASSERT_EQ(w.listing.series.size(), 1u);
    EXPECT_EQ(w.work.bytesInflated, 348u);
    EXPECT_LE(w.work.bytesRead, gz.size());
    const IoWork before = ioWorkSoFar();
    const Volume v = readVolumeFile(path);
    const IoWork work = ioWorkSoFar() - before;
    EXPECT_EQ(v.voxelCount(), zeros.size() / 2);
    // The header pass's 348 bytes, then vox_offset (352) and the voxels, each once.
    EXPECT_EQ(work.bytesInflated, 348u + 352u + zeros.size());
    // The volume's buffer and the header's 348 bytes: no copy of the voxels.
    EXPECT_EQ(work.bytesAllocated, zeros.size() + 348u);
}

// Loading reads each byte of the file once, straight into the volume's buffer: nothing else of the
// volume's size is allocated (before issue 24, the file, the voxels cut from it and the volume).
TEST(VolumeRead, EachByteIsReadOnceIntoTheVolumesOwnBuffer) {
    TempDir dir;
    Geometry g;
    g.dims = {96, 80, 40};
    Volume v(g, PixelType::Int16);
    for (std::size_t i = 0; i < v.voxelCount(); ++i) v.int16Data()[i] = std::int16_t(i * 7919 % 65536 - 32768);
    for (const char* name : {"v.nrrd", "v.mhd", "v.mha", "v.nii"}) {
        const std::string path = dir.file(name);
        writeVolumeFile(v, path);
        std::uint64_t onDisk = std::filesystem::file_size(path);
        if (std::string(name) == "v.mhd") onDisk += std::filesystem::file_size(dir.file("v.raw"));
        const IoWork before = ioWorkSoFar();
        const Volume back = readVolumeFile(path);
        const IoWork work = ioWorkSoFar() - before;
        ASSERT_EQ(back.byteSize(), v.byteSize()) << name;
        EXPECT_EQ(0, std::memcmp(back.data(), v.data(), v.byteSize())) << name;
        // Every byte once at most (a .nii's 4 extension bytes are not read at all).
        EXPECT_LE(work.bytesRead, onDisk) << name;
        EXPECT_GE(work.bytesRead, v.byteSize()) << name;
        EXPECT_EQ(work.bytesAllocated, v.byteSize()) << name << ": the volume alone";
    }
}

namespace {

/// A NRRD file of `n` x 1 x 1 scalars of type `T` (NRRD name `type`), value(i) each, in the given
/// byte order: written here byte by byte, not by Lucent's writer.
template <typename T>
void writeNrrd(const std::string& path, const char* type, std::size_t n, bool big,
               const std::function<T(std::size_t)>& value) {
    std::string bytes(n * sizeof(T), '\0');
    for (std::size_t i = 0; i < n; ++i) {
        T v = value(i);
        char* p = bytes.data() + i * sizeof(T);
        std::memcpy(p, &v, sizeof v);
        if (big != (std::endian::native == std::endian::big)) std::reverse(p, p + sizeof(T));
    }
    writeBytes(path, std::string("NRRD0004\ntype: ") + type + "\ndimension: 3\nsizes: " + std::to_string(n) +
                         " 1 1\nendian: " + (big ? "big" : "little") + "\nencoding: raw\n\n" + bytes);
}

template <typename T>
void expectConverted(const char* type, std::size_t n, bool big, PixelType expected,
                     const std::function<T(std::size_t)>& value) {
    TempDir dir;
    const std::string path = dir.file("t.nrrd");
    writeNrrd<T>(path, type, n, big, value);
    const Volume v = readVolumeFile(path);
    ASSERT_EQ(v.pixelType(), expected) << type << (big ? " big" : " little");
    ASSERT_EQ(v.voxelCount(), n);
    std::size_t wrong = 0, first = n;
    for (std::size_t i = 0; i < n; ++i) {
        const double want = expected == PixelType::Int16 ? double(value(i)) : double(static_cast<float>(value(i)));
        if (v.value(i) != want && wrong++ == 0) first = i;
    }
    EXPECT_EQ(wrong, 0u) << type << (big ? " big" : " little") << ": first wrong voxel " << first;
}

// Over two parallel parts (4 Mi scalars each) so that the in-place passes run on several threads.
constexpr std::size_t kMany = (std::size_t(4) << 20) * 2 + 5;

}  // namespace

TEST(VolumeRead, EveryScalarTypeAndByteOrderIsConvertedInPlace) {
    for (const bool big : {false, true}) {
        // Widening to int16 (uint8, int8) and to float32 (uint16 over 32767, uint32).
        expectConverted<std::uint8_t>("uchar", kMany, big, PixelType::Int16, [](std::size_t i) { return std::uint8_t(i * 7); });
        expectConverted<std::int8_t>("int8", 1000, big, PixelType::Int16, [](std::size_t i) { return std::int8_t(i * 5); });
        expectConverted<std::uint16_t>("ushort", kMany, big, PixelType::Float32,
                                       [](std::size_t i) { return std::uint16_t(i * 13 % 60001); });
        expectConverted<std::uint32_t>("uint", 1000, big, PixelType::Float32, [](std::size_t i) { return std::uint32_t(i * 100003); });
        // Same size: int16 (byte order only), uint16 that fits int16, float32.
        expectConverted<std::int16_t>("short", 1000, big, PixelType::Int16, [](std::size_t i) { return std::int16_t(i * 77 - 30000); });
        expectConverted<std::uint16_t>("ushort", 1000, big, PixelType::Int16, [](std::size_t i) { return std::uint16_t(i * 31); });
        expectConverted<float>("float", 1000, big, PixelType::Float32, [](std::size_t i) { return float(i) * 0.5f - 7.25f; });
        // Narrowing: int32 that fits int16, float64 to float32.
        expectConverted<std::int32_t>("int", kMany, big, PixelType::Int16, [](std::size_t i) { return std::int32_t(i % 2001) - 1000; });
        expectConverted<double>("double", kMany, big, PixelType::Float32, [](std::size_t i) { return double(i) * 0.25 - 1000.5; });
    }
}

// A text header that never ends (a large file of junk named .nrrd) is refused after a bounded read,
// not read whole.
TEST(HeaderOnly, AHeaderThatNeverEndsIsRefusedAfterABoundedRead) {
    TempDir dir;
    const std::string path = dir.file("junk.nrrd");
    writeBytes(path, "NRRD0004\ntype: short\n" + std::string(std::size_t(80) << 20, 'x'));
    const IoWork before = ioWorkSoFar();
    try {
        ImageSource::list(path);
        ADD_FAILURE() << "a header without an end was listed";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("no end of the header"), std::string::npos) << e.what();
    }
    EXPECT_LE((ioWorkSoFar() - before).bytesRead, std::uint64_t(64) << 20);
}
