/// @brief Crafted headers for every reader: each is refused with one IoError naming the file, with little work
/// (bytes read and allocated, frame records: IoWork.h), small, no output.
#include "TempDir.h"

#include "lucent/core/Errors.h"
#include "lucent/io/DicomReader.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/GeometryCheck.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/IoWork.h"
#include "lucent/io/ReadLimits.h"
#include "lucent/io/VolumeFile.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <sys/resource.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::TempDir;

namespace {

void writeBytes(const std::string& path, std::string_view bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string asString(const std::vector<char>& v) { return {v.data(), v.size()}; }

/// Peak resident memory of this process so far: a case that allocated what its header claims shows here.
double peakRssMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

/// Bytes of the regular files in `path`'s folder: the file and any data file it names beside it.
std::uint64_t folderBytes(const std::string& path) {
    std::uint64_t bytes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
        if (entry.is_regular_file()) bytes += entry.file_size();
    return bytes;
}

/// zlib's bound: deflate expands at most 1032:1, so inflating a stream may reserve that much of it
/// (FileUtil.h), plus 64 KiB of slack.
std::uint64_t inflateBound(std::uint64_t compressed) { return compressed * 1032 + (1u << 16); }

/// Reads `path` and converts it to `out` as `lucent convert` does; expects one IoError whose message
/// names the file, holds `needle`, has no control characters; reading no more than the files beside
/// it hold, allocating no more than they could inflate to (never what a header claims), without
/// growing memory, and without leaving an output file. Returns the message.
std::string expectRefused(const std::string& path, const std::string& needle = {}) {
    const TempDir outDir;
    const std::string out = outDir.file("out.nii");
    const IoWork before = ioWorkSoFar();
    std::string message;
    try {
        writeVolumeFile(readVolumeFile(path), out);
        ADD_FAILURE() << path << " was accepted";
    } catch (const IoError& e) {
        message = e.what();
    }
    const IoWork work = ioWorkSoFar() - before;
    const std::uint64_t input = folderBytes(path);
    EXPECT_LE(work.bytesRead, input) << message;
    // Two inflations at most (a .nii.gz inflates its header first), each bounded by the stream.
    EXPECT_LE(work.bytesAllocated, 2 * inflateBound(input)) << "allocated reading " << path << ": " << message;
    EXPECT_LT(peakRssMiB(), 1024.0) << "memory grew reading " << path;
    EXPECT_NE(message.find(std::filesystem::path(path).filename().string()), std::string::npos) << message;
    EXPECT_NE(message.find(needle), std::string::npos) << "'" << needle << "' not in: " << message;
    for (const char c : message) EXPECT_FALSE((unsigned char)c < 0x20 || c == 0x7f) << message;
    EXPECT_TRUE(std::filesystem::is_empty(outDir.path())) << "output left behind";
    return message;
}

// ---------------------------------------------------------------- NRRD

std::string nrrd(const std::string& fields, const std::string& data = std::string(64, '\1')) {
    return "NRRD0004\ntype: uchar\ndimension: 3\n" + fields + "\n\n" + data;
}

std::string nrrdFile(const TempDir& dir, const std::string& fields, const std::string& data = std::string(64, '\1')) {
    const std::string path = dir.file("h.nrrd");
    writeBytes(path, nrrd(fields, data));
    return path;
}

// ---------------------------------------------------------------- NIfTI

/// A valid 4x4x4 int16 NIfTI file's bytes, to be patched at nifti1.h's offsets.
std::vector<char> niftiBytes(const TempDir& dir) {
    Geometry g;
    g.dims = {4, 4, 4};
    writeVolumeFile(Volume(g, PixelType::Int16), dir.file("valid.nii"));
    return readFile(dir.file("valid.nii"));
}

template <typename T>
void patch(std::vector<char>& bytes, std::size_t offset, T value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
}

constexpr std::size_t kDim = 40, kPixdim = 76, kVoxOffset = 108, kSformCode = 254, kSrowX = 280;

std::string niftiFile(const TempDir& dir, const std::vector<char>& bytes, const std::string& name = "h.nii") {
    const std::string path = dir.file(name);
    writeBytes(path, name.ends_with(".gz") ? asString(gzipBuffer({{bytes.data(), bytes.size()}})) : asString(bytes));
    return path;
}

// ---------------------------------------------------------------- MetaImage

std::string mhaFile(const TempDir& dir, const std::string& fields, const std::string& data = std::string(64, '\1')) {
    const std::string path = dir.file("h.mha");
    writeBytes(path, "ObjectType = Image\nNDims = 3\n" + fields + "\nElementDataFile = LOCAL\n" + data);
    return path;
}

bool warned(const std::vector<std::string>& warnings, const std::string& needle) {
    for (const auto& w : warnings)
        if (w.find(needle) != std::string::npos) return true;
    return false;
}

// ---------------------------------------------------------------- DICOM, written byte by byte

/// One explicit-VR little-endian element; strings are padded to even length as DICOM requires.
/// `claimedLength` (long-form VRs) puts another length in the header than the value has.
std::string element(std::uint16_t group, std::uint16_t tag, const char* vr, std::string value,
                    std::uint32_t claimedLength = 0) {
    if (value.size() % 2) value += std::string(vr) == "UI" ? '\0' : ' ';
    std::string out;
    auto put = [&](std::uint64_t v, int bytes) {
        for (int b = 0; b < bytes; ++b) out += static_cast<char>((v >> (8 * b)) & 0xff);
    };
    put(group, 2);
    put(tag, 2);
    out += vr;
    const bool longForm = std::string(vr) == "OB" || std::string(vr) == "OW";
    if (longForm) put(0, 2);
    put(claimedLength ? claimedLength : value.size(), longForm ? 4 : 2);
    return out + value;
}

/// Raw deflate (no zlib header), as the Deflated Explicit VR Little Endian transfer syntax stores a dataset.
std::string rawDeflate(const std::string& in) {
    z_stream zs{};
    deflateInit2(&zs, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&zs, static_cast<uLong>(in.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

std::string us(std::uint16_t v) { return std::string{static_cast<char>(v & 0xff), static_cast<char>(v >> 8)}; }

struct DicomSpec {
    int rows = 4, columns = 4, frames = 1, slice = 0, bitsAllocated = 16;
    std::size_t pixelBytes = 32;
    std::uint32_t pixelLengthClaim = 0;  ///< a PixelData length field other than pixelBytes
    bool deflated = false;               ///< the dataset raw-deflated (transfer syntax 1.2.840.10008.1.2.1.99)
    std::string series = "1.2.3.4", orientation = "1\\0\\0\\0\\1\\0", spacing = "0.5\\0.5";
};

void writeDicom(const std::string& path, const DicomSpec& d) {
    const std::string sop = "1.2.840.10008.5.1.4.1.1.2", instance = d.series + "." + std::to_string(d.slice + 1);
    std::string meta = element(0x0002, 0x0001, "OB", std::string("\0\1", 2)) + element(0x0002, 0x0002, "UI", sop) +
                       element(0x0002, 0x0003, "UI", instance) +
                       element(0x0002, 0x0010, "UI", d.deflated ? "1.2.840.10008.1.2.1.99" : "1.2.840.10008.1.2.1");
    meta = element(0x0002, 0x0000, "UL",
                   std::string{static_cast<char>(meta.size()), static_cast<char>(meta.size() >> 8), 0, 0}) +
           meta;
    std::string ds = element(0x0008, 0x0016, "UI", sop) + element(0x0008, 0x0018, "UI", instance) +
                     element(0x0008, 0x0060, "CS", "CT") + element(0x0020, 0x000d, "UI", "1.2.3") +
                     element(0x0020, 0x000e, "UI", d.series) +
                     element(0x0020, 0x0013, "IS", std::to_string(d.slice + 1)) +
                     element(0x0020, 0x0032, "DS", "0\\0\\" + std::to_string(d.slice * 2)) +
                     element(0x0020, 0x0037, "DS", d.orientation) + element(0x0028, 0x0002, "US", us(1)) +
                     element(0x0028, 0x0004, "CS", "MONOCHROME2");
    if (d.frames != 1) ds += element(0x0028, 0x0008, "IS", std::to_string(d.frames));
    ds += element(0x0028, 0x0010, "US", us(static_cast<std::uint16_t>(d.rows))) +
          element(0x0028, 0x0011, "US", us(static_cast<std::uint16_t>(d.columns))) +
          element(0x0028, 0x0030, "DS", d.spacing) +
          element(0x0028, 0x0100, "US", us(static_cast<std::uint16_t>(d.bitsAllocated))) +
          element(0x0028, 0x0101, "US", us(static_cast<std::uint16_t>(d.bitsAllocated))) +
          element(0x0028, 0x0102, "US", us(static_cast<std::uint16_t>(d.bitsAllocated - 1))) +
          element(0x0028, 0x0103, "US", us(1)) +
          element(0x7fe0, 0x0010, "OW", std::string(d.pixelBytes, '\1'), d.pixelLengthClaim);
    writeBytes(path, std::string(128, '\0') + "DICM" + meta + (d.deflated ? rawDeflate(ds) : ds));
}

/// A good 4 x 4 x 3 series in `folder`.
void writeGoodSeries(const std::string& folder) {
    std::filesystem::create_directories(folder);
    for (int k = 0; k < 3; ++k) {
        DicomSpec d;
        d.slice = k;
        writeDicom(folder + "/good" + std::to_string(k) + ".dcm", d);
    }
}

}  // namespace

TEST(HostileNrrd, ByteSkipOutsideTheDataIsRefused) {
    TempDir dir;
    expectRefused(nrrdFile(dir, "sizes: 4 4 4\nencoding: raw\nbyte skip: 1000000000000"), "truncated");
    expectRefused(nrrdFile(dir, "sizes: 4 4 4\nencoding: raw\nbyte skip: 9223372036854775807"), "truncated");
    expectRefused(nrrdFile(dir, "sizes: 4 4 4\nencoding: raw\nbyte skip: 9223372036854775808"), "byte skip");
    expectRefused(nrrdFile(dir, "sizes: 4 4 4\nencoding: raw\nbyte skip: -5"), "byte skip");
    // A small skip must not read past the end: 64 bytes present, 10 skipped, 64 needed.
    expectRefused(nrrdFile(dir, "sizes: 4 4 4\nencoding: raw\nbyte skip: 10"), "truncated");
    expectRefused(nrrdFile(dir, "sizes: 4 4 4\nencoding: gzip\nbyte skip: -1"), "byte skip -1");
}

TEST(HostileNrrd, ByteAndLineSkipAreHonoured) {
    TempDir dir;
    const std::string data = std::string(3, '\x7f') + std::string(64, '\2');
    const Volume v = readVolumeFile(nrrdFile(dir, "sizes: 4 4 4\nencoding: raw\nbyte skip: 3", data));
    EXPECT_EQ(v.value(0, 0, 0), 2);
    EXPECT_EQ(v.value(3, 3, 3), 2);
    const Volume w = readVolumeFile(
        nrrdFile(dir, "sizes: 4 4 4\nencoding: raw\nline skip: 2", "junk\n\x7f\n" + std::string(64, '\3')));
    EXPECT_EQ(w.value(0, 0, 0), 3);
    EXPECT_EQ(w.value(3, 3, 3), 3);
    expectRefused(nrrdFile(dir, "sizes: 4 4 4\nencoding: raw\nline skip: 5", "a\nb\n" + std::string(64, '\3')),
                  "line skip");
    expectRefused(nrrdFile(dir, "sizes: 4 4 4\nencoding: raw\nline skip: -1"), "line skip");
}

TEST(HostileNrrd, BogusEndianAndFieldsAreRefused) {
    TempDir dir;
    expectRefused(nrrdFile(dir, "sizes: 4 4 4\nencoding: raw\nendian: middle"), "endian");
    writeBytes(dir.file("d.nrrd"),
               "NRRD0004\ntype: uchar\ndimension: three\nsizes: 4 4 4\nencoding: raw\n\n" + std::string(64, '\1'));
    expectRefused(dir.file("d.nrrd"), "dimension");
    expectRefused(nrrdFile(dir, "sizes: 4 4 4\nencoding: bzip2"), "encoding");
}

TEST(HostileNrrd, ImpossibleSizesAreRefused) {
    TempDir dir;
    expectRefused(nrrdFile(dir, "sizes: 4294967296 1 1\nencoding: raw"), "sizes");  // was -2^31
    expectRefused(nrrdFile(dir, "sizes: 0 4 4\nencoding: raw"), "sizes");
    expectRefused(nrrdFile(dir, "sizes: 4 -4 4\nencoding: raw"), "sizes");
    expectRefused(nrrdFile(dir, "sizes: 4 2.5 4\nencoding: raw"), "sizes");
    // Each size fits an int, the product does not fit 64 bits.
    expectRefused(nrrdFile(dir, "sizes: 2147483647 2147483647 2147483647\nencoding: raw"), "too large");
}

TEST(HostileNrrd, VolumeOverTheMemoryLimitIsRefusedWithItsSize) {
    TempDir dir;
    const std::string message = expectRefused(nrrdFile(dir, "sizes: 100000 100000 1000\nencoding: raw"), "TiB");
    EXPECT_NE(message.find(formatBytes(readLimitBytes())), std::string::npos) << message;
}

TEST(HostileInput, InflationStopsAtTheLimit) {
    const auto gz = gzipBuffer({std::string(48u << 20, '\0')});
    EXPECT_EQ(inflateBuffer({gz.data(), gz.size()}, "z.gz", 64).size(), 64u);
    const auto small = gzipBuffer({std::string(100, 'x')});
    EXPECT_EQ(inflateBuffer({small.data(), small.size()}, "s.gz", 1000).size(), 100u);  // ends first
    EXPECT_THROW(inflateBuffer("not gzip at all", "bad.gz", 1000), IoError);
}

TEST(HostileNrrd, GzipInflatesNoMoreThanTheHeaderPromises) {
    TempDir dir;
    // 64 voxels promised, 48 MiB of zeros in the stream: only the promise is inflated.
    const std::string zeros(48u << 20, '\0');
    const auto gz = gzipBuffer({zeros});
    const IoWork before = ioWorkSoFar();
    const Volume v = readVolumeFile(nrrdFile(dir, "sizes: 4 4 4\nencoding: gzip", asString(gz)));
    const IoWork work = ioWorkSoFar() - before;
    EXPECT_EQ(v.voxelCount(), 64u);
    EXPECT_EQ(work.bytesInflated, 64u) << "the 64 bytes promised, not the stream's 48 MiB";
    // The inflated promise, the voxels taken from it and the int16 volume.
    EXPECT_LE(work.bytesAllocated, 64u + 64u + 64u * 2);
    // A promise that a few kilobytes of gzip cannot keep fails without reserving the promise.
    expectRefused(nrrdFile(dir, "sizes: 2000 2000 100\nencoding: gzip", asString(gz).substr(0, 4000)), "truncated");
}

TEST(HostileNrrd, DataFileThatIsNotARegularFileIsRefused) {
    TempDir dir;
    writeBytes(dir.file("z.nhdr"),
               "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 4 4 4\nencoding: raw\ndata file: /dev/zero\n\n");
    expectRefused(dir.file("z.nhdr"), "not a regular file");
}

TEST(HostileNifti, NegativeZeroAndOddDimensionsAreRefused) {
    TempDir dir;
    auto bytes = niftiBytes(dir);
    patch<std::int16_t>(bytes, kDim + 2 * 3, -5);
    expectRefused(niftiFile(dir, bytes), "dim[3] is -5");
    bytes = niftiBytes(dir);
    patch<std::int16_t>(bytes, kDim + 2 * 1, 0);
    expectRefused(niftiFile(dir, bytes), "dim[1] is 0");
    bytes = niftiBytes(dir);
    patch<std::int16_t>(bytes, kDim, 9);
    expectRefused(niftiFile(dir, bytes), "dim[0]");
}

TEST(HostileNifti, AbsurdVoxOffsetIsRefused) {
    TempDir dir;
    for (const float offset : {3e38f, std::numeric_limits<float>::quiet_NaN(), -400.0f, 1e6f}) {
        auto bytes = niftiBytes(dir);
        patch<float>(bytes, kVoxOffset, offset);
        expectRefused(niftiFile(dir, bytes), "vox_offset");
    }
}

TEST(HostileNifti, GzipClaimingMoreThanItHoldsFailsFast) {
    TempDir dir;
    auto bytes = niftiBytes(dir);
    // 2000 x 2000 x 400 int16 = 3 GiB promised (under or over this machine's limit), 1 KiB of gzip.
    patch<std::int16_t>(bytes, kDim + 2, 2000);
    patch<std::int16_t>(bytes, kDim + 4, 2000);
    patch<std::int16_t>(bytes, kDim + 6, 400);
    expectRefused(niftiFile(dir, bytes, "claim.nii.gz"));
    // 30000^2 x 3000 int16: far over any limit, refused by size before inflating.
    patch<std::int16_t>(bytes, kDim + 2, 30000);
    patch<std::int16_t>(bytes, kDim + 4, 30000);
    patch<std::int16_t>(bytes, kDim + 6, 3000);
    expectRefused(niftiFile(dir, bytes, "huge.nii.gz"), "more than the");
}

TEST(HostileNifti, GzipBombBehindASmallHeaderIsNotInflated) {
    TempDir dir;
    auto bytes = niftiBytes(dir);
    bytes.resize(bytes.size() + (48u << 20), '\0');
    const std::string path = niftiFile(dir, bytes, "bomb.nii.gz");
    const IoWork before = ioWorkSoFar();
    EXPECT_EQ(readVolumeFile(path).voxelCount(), 64u);
    const IoWork work = ioWorkSoFar() - before;
    // Inflated twice, each time no further than the header asks: its 348 bytes, then up to the end
    // of the voxels (vox_offset 352, 4 x 4 x 4 int16); never the 48 MiB of zeros behind them.
    constexpr std::uint64_t header = 348, voxOffset = 352, voxels = 4 * 4 * 4 * 2;
    EXPECT_EQ(work.bytesInflated, header + voxOffset + voxels);
    // Those two buffers, the voxels taken from the second and the volume.
    EXPECT_LE(work.bytesAllocated, header + voxOffset + voxels + voxels + voxels);
}

TEST(HostileNifti, NonFiniteGeometryIsRefused) {
    TempDir dir;
    auto bytes = niftiBytes(dir);
    patch<float>(bytes, kSrowX, std::numeric_limits<float>::quiet_NaN());
    expectRefused(niftiFile(dir, bytes), "not finite");
    bytes = niftiBytes(dir);
    patch<std::int16_t>(bytes, kSformCode, 0);  // qform path: pixdim gives the spacing
    patch<float>(bytes, kPixdim + 4 * 2, std::numeric_limits<float>::infinity());
    expectRefused(niftiFile(dir, bytes), "spacing");
}

TEST(HostileNifti, DegenerateAxesAreRepairedAloud) {
    TempDir dir;
    auto bytes = niftiBytes(dir);
    for (int r = 0; r < 3; ++r) patch<float>(bytes, kSrowX + 16 * r + 4 * 2, 0.0f);  // k column zero
    RawImage raw = readRawImage(niftiFile(dir, bytes));
    EXPECT_TRUE(warned(raw.warnings, "1 mm assumed"));
    EXPECT_TRUE(warned(raw.warnings, "perpendicular"));
    EXPECT_NEAR(std::abs(raw.geometry.direction.col[2].z), 1.0, 1e-9);
    bytes = niftiBytes(dir);
    for (int r = 0; r < 3; ++r) patch<float>(bytes, kSrowX + 16 * r + 4 * 1, r == 0 ? -1.0f : 0.0f);  // j parallel to i
    raw = readRawImage(niftiFile(dir, bytes));
    EXPECT_TRUE(warned(raw.warnings, "identity orientation"));
    EXPECT_NEAR(raw.geometry.direction.determinant(), 1.0, 1e-12);
    // The listing shows what was assumed.
    const SourceListing listing = ImageSource::list(dir.file("h.nii"));
    ASSERT_EQ(listing.series.size(), 1u);
    EXPECT_TRUE(warned(listing.series[0].warnings, "identity orientation"));
}

TEST(HostileMetaImage, ImpossibleSizesAndFieldsAreRefused) {
    TempDir dir;
    expectRefused(mhaFile(dir, "DimSize = 4294967296 1 1\nElementType = MET_UCHAR"), "DimSize");
    expectRefused(mhaFile(dir, "DimSize = 0 4 4\nElementType = MET_UCHAR"), "DimSize");
    expectRefused(mhaFile(dir, "DimSize = 4 4 4\nElementType = MET_UCHAR\nElementSpacing = 1 nan 1"), "ElementSpacing");
    writeBytes(dir.file("n.mha"), "NDims = x\nDimSize = 4 4 4\nElementType = MET_UCHAR\nElementDataFile = LOCAL\n");
    expectRefused(dir.file("n.mha"), "NDims");
    expectRefused(mhaFile(dir, "DimSize = 100000 100000 1000\nElementType = MET_UCHAR"), "more than the");
}

TEST(HostileMetaImage, DataFilesAreCheckedBeforeUse) {
    TempDir dir;
    writeBytes(dir.file("z.mhd"), "NDims = 3\nDimSize = 4 4 4\nElementType = MET_UCHAR\nElementDataFile = /dev/zero\n");
    expectRefused(dir.file("z.mhd"), "not a regular file");
    writeBytes(dir.file("d.raw"), std::string(64, '\1'));
    writeBytes(dir.file("s.mhd"),
               "NDims = 3\nDimSize = 4 4 4\nElementType = MET_UCHAR\nHeaderSize = 9000000000\n"
               "ElementDataFile = d.raw\n");
    expectRefused(dir.file("s.mhd"), "truncated");
    const auto gz = gzipBuffer({std::string(48u << 20, '\0')});
    const Volume v =
        readVolumeFile(mhaFile(dir, "DimSize = 4 4 4\nElementType = MET_UCHAR\nCompressedData = True", asString(gz)));
    EXPECT_EQ(v.voxelCount(), 64u);
}

TEST(HostileMetaImage, BadSpacingAndAxesAreRepairedAloud) {
    TempDir dir;
    RawImage raw = readRawImage(mhaFile(dir, "DimSize = 4 4 4\nElementType = MET_UCHAR\nElementSpacing = 0 -2 1"));
    EXPECT_TRUE(warned(raw.warnings, "i axis is 0: 1 mm assumed"));
    EXPECT_TRUE(warned(raw.warnings, "axis reversed"));
    EXPECT_DOUBLE_EQ(raw.geometry.spacing.y, 2.0);
    EXPECT_DOUBLE_EQ(raw.geometry.direction.col[1].y, -1.0);
    raw = readRawImage(mhaFile(dir, "DimSize = 4 4 4\nElementType = MET_UCHAR\nTransformMatrix = 0 0 0 0 0 0 0 0 0"));
    EXPECT_TRUE(warned(raw.warnings, "identity orientation"));
}

TEST(HostileInput, ControlCharactersInHeadersAreEscaped) {
    TempDir dir;
    const std::string message =
        expectRefused(mhaFile(dir, "DimSize = 4 4 4\nElementType = MET_\x1b[31m\rUCHAR"), "\\x1b");
    EXPECT_NE(message.find("\\r"), std::string::npos) << message;
    EXPECT_EQ(printable("a\nb\x1b\x7f\xc3\xa9\xc2\x9b\xff"), "a\\nb\\x1b\\x7f\xc3\xa9\\xc2\\x9b\\xff");
}

TEST(HostileInput, FifoAndDevicesAreNotRegularFiles) {
    TempDir dir;
    ASSERT_EQ(::mkfifo(dir.file("pipe.nii").c_str(), 0600), 0);
    expectRefused(dir.file("pipe.nii"), "not a regular file (a FIFO)");
    try {
        ImageSource::list(dir.file("pipe.nii"));
        ADD_FAILURE();
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
    try {
        ImageSource::list("/dev/zero");
        ADD_FAILURE();
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("/dev/zero: not a regular file"), std::string::npos) << e.what();
    }
}

TEST(GeometryCheck, RefusesWhatHasNoReadingAndRepairsTheRest) {
    std::vector<std::string> warnings;
    Geometry g;
    g.dims = {2, 2, 2};
    g.origin.y = std::nan("");
    EXPECT_THROW(checkGeometry(g, "f", warnings), IoError);
    g = Geometry{};
    g.dims = {2, 0, 2};
    EXPECT_THROW(checkGeometry(g, "f", warnings), IoError);
    g.dims = {2, 2, 2};
    g.spacing.z = 1e9;
    EXPECT_THROW(checkGeometry(g, "f", warnings), IoError);
    // Sheared but independent: kept, with a warning.
    g = Geometry{};
    g.dims = {2, 2, 2};
    g.direction.col[1] = normalized(Vec3{1, 1, 0});
    const Mat3 sheared = g.direction;
    checkGeometry(g, "f", warnings);
    EXPECT_EQ(g.direction, sheared);
    EXPECT_TRUE(warned(warnings, "sheared"));
    // A good geometry passes untouched and silent.
    warnings.clear();
    g = Geometry{};
    g.dims = {2, 2, 2};
    checkGeometry(g, "f", warnings);
    EXPECT_TRUE(warnings.empty());
}

TEST(HostileDicom, HeadersClaimingMorePixelsThanPresentAreSkippedAndTheRestLoads) {
    if (!DicomReader::available()) GTEST_SKIP() << "built without DCMTK";
    TempDir dir;
    writeGoodSeries(dir.file("scan"));
    DicomSpec huge;  // 65535 x 65535 over 128 KiB
    huge.series = "9.9.1";
    huge.rows = huge.columns = 65535;
    huge.pixelBytes = 128 << 10;
    writeDicom(dir.file("scan/huge.dcm"), huge);
    DicomSpec frames;  // 2^31 - 1 frames over 32 bytes
    frames.series = "9.9.2";
    frames.frames = std::numeric_limits<std::int32_t>::max();
    writeDicom(dir.file("scan/frames.dcm"), frames);
    IoWork before = ioWorkSoFar();
    const SourceListing listing = ImageSource::list(dir.file("scan"));
    EXPECT_EQ((ioWorkSoFar() - before).frameRecords, 3u) << "the good files' frames only";
    ASSERT_EQ(listing.series.size(), 1u);
    EXPECT_EQ(listing.series[0].uid, "1.2.3.4");
    EXPECT_TRUE(warned(listing.warnings, "huge.dcm: pixel data holds 131072 bytes"));
    EXPECT_TRUE(warned(listing.warnings, "frames.dcm: pixel data holds 32 bytes"));
    before = ioWorkSoFar();
    const Volume v = ImageSource::load(dir.file("scan"), "");
    EXPECT_EQ(v.geometry().dims, (std::array<int, 3>{4, 4, 3}));
    // The good volume (int16) and one decoded frame (int32) per file; nothing sized from the claims.
    EXPECT_LE((ioWorkSoFar() - before).bytesAllocated, 4u * 4 * 3 * 2 + 3u * 4 * 4 * 4);
    EXPECT_LT(peakRssMiB(), 1024.0);
    // Asked for by name, the bad file is an error that names it.
    try {
        ImageSource::load(dir.file("scan/frames.dcm"), "");
        ADD_FAILURE();
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("frames.dcm"), std::string::npos) << e.what();
    }
}

// Found by the fuzzer (tests/fuzz, dicom_header): a frame of one 1-bit pixel needs 1/8 byte of
// pixel data but a frame record of several hundred bytes; 2^20 of them in a 128 KiB file took
// 3 GiB and 20 s to list. The file is now skipped, named, with the count it claimed.
TEST(HostileDicom, MillionsOfTinyFramesAreSkippedBeforeTheirRecordsExist) {
    if (!DicomReader::available()) GTEST_SKIP() << "built without DCMTK";
    TempDir dir;
    writeGoodSeries(dir.file("scan"));
    DicomSpec tiny;
    tiny.series = "9.9.4";
    tiny.rows = tiny.columns = 1;
    tiny.bitsAllocated = 1;
    tiny.pixelBytes = 128 << 10;
    tiny.frames = int(tiny.pixelBytes * 8);
    writeDicom(dir.file("scan/tiny.dcm"), tiny);
    const IoWork before = ioWorkSoFar();
    const SourceListing listing = ImageSource::list(dir.file("scan"));
    EXPECT_EQ((ioWorkSoFar() - before).frameRecords, 3u) << "the good files' frames, none of the million";
    ASSERT_EQ(listing.series.size(), 1u);
    EXPECT_EQ(listing.series[0].uid, "1.2.3.4");
    EXPECT_TRUE(warned(listing.warnings, "tiny.dcm: NumberOfFrames 1048576 of 1 x 1 pixels"));
    EXPECT_LT(peakRssMiB(), 1024.0);
    // A few hundred small frames (a short cine of thumbnails) still list.
    DicomSpec some = tiny;
    some.series = "9.9.5";
    some.rows = some.columns = 8;
    some.bitsAllocated = 16;
    some.frames = 400;
    some.pixelBytes = 8 * 8 * 2 * 400;
    std::filesystem::create_directories(dir.file("some"));
    writeDicom(dir.file("some/some.dcm"), some);
    EXPECT_EQ(ImageSource::list(dir.file("some")).series.size(), 1u);
}

// Found by the fuzzer (tests/fuzz, dicom_header and dicom_pixels): in a deflated dataset DCMTK
// cannot leave a large value on disk, so it allocates the length a header claims (up to 4 GiB)
// before it finds the stream too short. That memory is never touched; the file is listed from
// what was parsed (like a file with junk after its dataset) and refused by name when loaded.
TEST(HostileDicom, DeflatedPixelDataClaimingAGigabyteCostsNoMemory) {
    if (!DicomReader::available()) GTEST_SKIP() << "built without DCMTK";
    TempDir dir;
    writeGoodSeries(dir.file("scan"));
    DicomSpec claim;
    claim.series = "9.9.3";
    claim.deflated = true;
    claim.pixelLengthClaim = 1u << 30;  // over 32 bytes
    writeDicom(dir.file("scan/claim.dcm"), claim);
    const SourceListing listing = ImageSource::list(dir.file("scan"));
    EXPECT_EQ(listing.series.size(), 2u);
    const Volume v = ImageSource::load(dir.file("scan"), "1.2.3.4");
    EXPECT_EQ(v.geometry().dims, (std::array<int, 3>{4, 4, 3}));
    const IoWork before = ioWorkSoFar();
    try {
        ImageSource::load(dir.file("scan"), "9.9.3");
        ADD_FAILURE() << "the truncated deflated file loaded";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("claim.dcm"), std::string::npos) << e.what();
    }
    // Its one 4 x 4 int16 slice (and a decoded frame) at most, not the gigabyte the header claims.
    EXPECT_LE((ioWorkSoFar() - before).bytesAllocated, 4u * 4 * 2 + 4u * 4 * 4);
    EXPECT_LT(peakRssMiB(), 1024.0);
}

TEST(HostileDicom, UnusableOrientationAndSpacingAreTreatedAsAbsentAloud) {
    if (!DicomReader::available()) GTEST_SKIP() << "built without DCMTK";
    TempDir dir;
    for (int k = 0; k < 3; ++k) {
        DicomSpec d;
        d.slice = k;
        d.orientation = "1\\0\\0\\1\\0\\0";  // row and column parallel
        d.spacing = "0\\-1";
        writeDicom(dir.file("s" + std::to_string(k) + ".dcm"), d);
    }
    std::vector<std::string> warnings;
    const Volume v = ImageSource::load(dir.path(), "", {}, &warnings);
    EXPECT_TRUE(warned(warnings, "ImageOrientationPatient"));
    EXPECT_TRUE(warned(warnings, "PixelSpacing"));
    EXPECT_EQ(v.geometry().direction, Mat3{});
    EXPECT_EQ(v.geometry().dims, (std::array<int, 3>{4, 4, 3}));
    EXPECT_DOUBLE_EQ(v.geometry().spacing.x, 1.0);
    EXPECT_DOUBLE_EQ(v.geometry().spacing.z, 2.0);
}
