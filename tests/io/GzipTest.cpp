/// @brief gzip written on several cores is one member whose data are the input, the same bytes on any
/// thread count; gzip files of several members (other tools write them) read as one stream.
#include "TempDir.h"

#include "lucent/io/FileUtil.h"
#include "lucent/io/NiftiFormat.h"
#include "lucent/io/VolumeFile.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <fstream>
#include <random>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::TempDir;

namespace {

/// 5.5 MiB of what masks and scans hold: long runs, then noise (several 1 MiB pieces, the last short).
std::string mixedBytes() {
    std::mt19937 rng(3);
    std::string s;
    while (s.size() < (std::size_t(11) << 19)) {
        const char c = char(rng() % 4);
        s.append(rng() % 3 ? std::size_t(rng() % 5000) : 1, c);
        for (int i = 0; i < 300; ++i) s.push_back(char(rng()));
    }
    return s;
}

/// Inflates with a single inflate() pass and no member handling: what a reader that knows one member
/// (Python's zlib.decompressobj, pynrrd) does. Returns the data; `end` says the stream ended at the
/// last byte of `gz`.
std::string inflateOneMember(std::string_view gz, bool& end) {
    z_stream zs{};
    inflateInit2(&zs, 16 + 15);
    std::string out(std::size_t(64) << 20, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
    zs.avail_in = uInt(gz.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = uInt(out.size());
    end = inflate(&zs, Z_FINISH) == Z_STREAM_END && zs.avail_in == 0;
    out.resize(zs.total_out);
    inflateEnd(&zs);
    return out;
}

/// One gzip member of `data` by zlib's own single-stream writer.
std::string zlibMember(std::string_view data) {
    z_stream zs{};
    deflateInit2(&zs, 6, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&zs, uLong(data.size())) + 64, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in = uInt(data.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = uInt(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

/// `data` as several gzip members, cut at `cuts` (as `cat a.gz b.gz`, bgzip and pigz -i files are).
std::string members(std::string_view data, const std::vector<std::size_t>& cuts) {
    std::string out;
    std::size_t from = 0;
    for (std::size_t to : cuts) {
        out += zlibMember(data.substr(from, to - from));
        from = to;
    }
    return out + zlibMember(data.substr(from));
}

void writeBytes(const std::string& path, std::string_view bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

}  // namespace

TEST(Gzip, PiecesOnSeveralCoresAreOneMemberWhoseDataAreTheInput) {
    const std::string data = mixedBytes();
    // Three parts whose boundaries fall inside pieces, as a NIfTI's header, extension and voxels do.
    const std::vector<std::string_view> parts{std::string_view(data).substr(0, 348), std::string_view(data).substr(348, 4),
                                              std::string_view(data).substr(352)};
    const std::vector<char> one = [&] {
        std::vector<char> out;
        for (const auto& c : gzipParts(parts, 1).chunks) out.insert(out.end(), c.begin(), c.end());
        return out;
    }();
    const std::string_view gz(one.data(), one.size());
    bool end = false;
    EXPECT_EQ(inflateOneMember(gz, end), data);
    EXPECT_TRUE(end) << "the stream must end with the file: one member, not several";
    EXPECT_EQ(gz.substr(0, 3), std::string_view("\x1f\x8b\x08", 3));
    // The same bytes whatever the thread count: the pieces are the input's, not the threads'.
    for (unsigned threads : {2u, 5u}) {
        const GzipStream many = gzipParts(parts, threads);
        std::string joined;
        for (std::string_view p : many.parts()) joined += p;
        EXPECT_EQ(joined, gz) << threads << " threads";
    }
    EXPECT_EQ(std::string_view(gzipBuffer(parts).data(), one.size()), gz);
    // The empty input is a valid stream too.
    const auto empty = gzipBuffer({});
    EXPECT_EQ(inflateOneMember({empty.data(), empty.size()}, end), "");
    EXPECT_TRUE(end);
}

TEST(Gzip, FilesOfSeveralMembersReadAsOneStream) {
    TempDir dir;
    Geometry g;
    g.dims = {97, 61, 23};
    g.spacing = {0.5, 0.7, 1.5};
    Volume v(g, PixelType::Int16);
    for (std::size_t i = 0; i < v.voxelCount(); ++i) v.setValue(i, double(int(i * 7919 % 4001) - 2000));
    const std::string nii = dir.file("one.nii");
    writeVolumeFile(v, nii);
    std::ifstream in(nii, std::ios::binary);
    const std::string plain((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // The header cut in two members (its first 100 bytes alone), the voxels in three more.
    const std::string multi = members(plain, {100, 352, 50000, 200001});
    const std::string gzPath = dir.file("multi.nii.gz");
    writeBytes(gzPath, multi);
    const Volume back = readVolumeFile(gzPath);
    ASSERT_EQ(back.voxelCount(), v.voxelCount());
    EXPECT_EQ(std::memcmp(back.data(), v.data(), v.byteSize()), 0);
    EXPECT_EQ(readRawImageHeader(gzPath).geometry.dims, g.dims);
    // The whole-buffer inflater (headers, sessions) reads across members too, up to its limit.
    EXPECT_EQ(std::string_view(inflateBuffer(multi, "multi", plain.size()).data(), plain.size()), plain);
    EXPECT_EQ(inflateBuffer(multi, "multi", 1000).size(), 1000u);
    // A gzip NRRD whose data are two members.
    const std::string header = "NRRD0004\ntype: short\ndimension: 3\nsizes: 97 61 23\nencoding: gzip\nendian: little\n\n";
    const std::string_view voxels(static_cast<const char*>(v.data()), v.byteSize());
    writeBytes(dir.file("multi.nrrd"), header + members(voxels, {v.byteSize() / 3}));
    const Volume nrrd = readVolumeFile(dir.file("multi.nrrd"));
    EXPECT_EQ(std::memcmp(nrrd.data(), v.data(), v.byteSize()), 0);
}

TEST(Gzip, WrittenMasksAndVolumesInflateToTheUncompressedFilesBytes) {
    TempDir dir;
    Geometry g;
    g.dims = {256, 200, 60};  // 3 M voxels: several pieces for the mask, more for the volume
    Volume v(g, PixelType::Int16);
    LabelMap m(g);
    for (std::size_t i = 0; i < v.voxelCount(); ++i) {
        v.setValue(i, double(int(i % 977) - 500));
        m[i] = std::uint8_t((i / 1000) % 3);
    }
    auto bytesOf = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    writeVolumeFile(v, dir.file("v.nii"));
    writeVolumeFile(v, dir.file("v.nii.gz"));
    writeLabelMapFile(m, dir.file("m.nii"));
    writeLabelMapFile(m, dir.file("m.nii.gz"));
    bool end = false;
    EXPECT_EQ(inflateOneMember(bytesOf(dir.file("v.nii.gz")), end), bytesOf(dir.file("v.nii")));
    EXPECT_TRUE(end);
    EXPECT_EQ(inflateOneMember(bytesOf(dir.file("m.nii.gz")), end), bytesOf(dir.file("m.nii")));
    EXPECT_TRUE(end);
    // A NRRD mask is gzip: its data inflate to the mask's bytes.
    writeLabelMapFile(m, dir.file("m.nrrd"));
    const std::string nrrd = bytesOf(dir.file("m.nrrd"));
    const std::string data = inflateOneMember(std::string_view(nrrd).substr(nrrd.find("\n\n") + 2), end);
    EXPECT_TRUE(end);
    EXPECT_EQ(data, std::string_view(reinterpret_cast<const char*>(m.data()), m.voxelCount()));
}
