/// @brief Voxel bytes from raw or compressed data, attached or detached, with the NRRD / MetaImage skips.
#include "VoxelRead.h"

#include "GzipMembers.h"
#include "ScalarConversion.h"
#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/IoWork.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <optional>

namespace lucent::io {

namespace {

/// Deflate's largest expansion (1032:1) plus slack: the most a stream of `compressed` bytes gives.
std::uint64_t inflateBound(std::uint64_t compressed) { return compressed * 1032 + (1u << 16); }

std::string truncated(const std::string& path, std::uint64_t present, std::uint64_t skip, std::uint64_t need,
                      bool compressed) {
    return path + ": truncated voxel data (" + std::to_string(present) + (compressed ? " compressed" : "") +
           " bytes" + (skip > 0 ? " with a byte skip of " + std::to_string(skip) : std::string()) + ", " +
           std::to_string(need) + " bytes of voxels expected)";
}

/// The file holding the voxels: the header file itself, or the detached one opened now; errors
/// name the header too ("H.nhdr: data file /dev/zero: not a regular file").
ByteFile& dataFile(const RawImage& header, ByteFile& headerFile, std::optional<ByteFile>& detached) {
    if (header.source.file.empty() || header.source.file == headerFile.path()) return headerFile;
    try {
        detached.emplace(header.source.file);
    } catch (const IoError& e) {
        throw IoError(headerFile.path() + ": data file " + e.what());
    }
    return *detached;
}

/// Offset just past `lines` newline-terminated lines from `start`; the lines must end by `end`.
std::uint64_t skipLines(ByteFile& in, std::uint64_t start, std::int64_t lines, std::uint64_t end, const std::string& path) {
    std::vector<char> chunk(1 << 16);
    std::uint64_t pos = start;
    for (std::int64_t l = 0; l < lines;) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(chunk.size(), end - std::min(end, pos)));
        if (n == 0) {
            const std::uint64_t after = in.size() - std::min(in.size(), end);
            throw IoError(path + ": line skip " + std::to_string(lines) + " passes the end of the data (" +
                          std::to_string(l) + " lines present" +
                          (after > 0 ? " before the last " + std::to_string(after) + " bytes, which the voxels need"
                                     : std::string()) +
                          ")");
        }
        in.readAt(pos, chunk.data(), n);
        std::size_t i = 0;
        for (; i < n && l < lines; ++i)
            if (chunk[i] == '\n') ++l;
        pos += i;
    }
    return pos;
}

/// Where the voxels (or their stream) start: the source's offset, past its line skip. Raw voxels
/// need `bytes` (and the byte skip) after the lines, so the lines must end that far before the end
/// of the file; reading them costs their own length only.
std::uint64_t dataStart(const VoxelSource& src, ByteFile& in, std::uint64_t bytes, const std::string& path) {
    if (src.lineSkip <= 0) return src.offset;
    const std::uint64_t room = src.compressed ? 0 : bytes + (src.atEnd ? 0 : src.skip);
    return skipLines(in, src.offset, src.lineSkip, in.size() - std::min(in.size(), room), path);
}

/// Checks that `src` can give `bytes` voxel bytes (checkVoxelSource) and returns where they start.
std::uint64_t checkedStart(const VoxelSource& src, ByteFile& in, std::uint64_t bytes, const std::string& path) {
    const std::uint64_t start = dataStart(src, in, bytes, path);
    const std::uint64_t present = in.size() - std::min(in.size(), start);
    if (src.compressed) {
        // The skipped bytes of a stream are inflated too: they count against the memory limit.
        if (inflateBound(present) < bytes || inflateBound(present) - bytes < src.skip)
            throw IoError(truncated(path, present, src.skip, bytes, true) + " (deflate expands at most 1032:1)");
    } else if (src.atEnd ? present < bytes : (src.skip > present || present - src.skip < bytes)) {
        throw IoError(truncated(path, present, src.skip, bytes, false));
    }
    return start;
}

/// Inflates the stream at `start` of `in`, drops its first `skip` bytes and writes the next `bytes`
/// to `out`; reads the stream in parts, stops as soon as `out` is full.
void inflateInto(ByteFile& in, std::uint64_t start, std::uint64_t skip, char* out, std::size_t bytes,
                 const std::string& path) {
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK) throw IoError(path + ": zlib init failed");
    std::vector<char> input(std::size_t(4) << 20), scratch(skip > 0 ? std::size_t(1) << 18 : 0);
    std::uint64_t consumed = start, produced = 0;
    const std::uint64_t total = skip + bytes;
    int rc = Z_OK;
    while (produced < total && rc != Z_STREAM_END) {
        if (zs.avail_in == 0 && consumed < in.size()) {
            const std::size_t n = std::size_t(std::min<std::uint64_t>(input.size(), in.size() - consumed));
            in.readAt(consumed, input.data(), n);
            consumed += n;
            zs.next_in = reinterpret_cast<Bytef*>(input.data());
            zs.avail_in = static_cast<uInt>(n);
        }
        // zlib counts output in 32 bits: at most 1 GiB a call.
        const bool skipping = produced < skip;
        char* to = skipping ? scratch.data() : out + (produced - skip);
        const std::uint64_t room = skipping ? std::min<std::uint64_t>(scratch.size(), skip - produced) : total - produced;
        zs.next_out = reinterpret_cast<Bytef*>(to);
        zs.avail_out = static_cast<uInt>(std::min<std::uint64_t>(room, std::uint64_t(1) << 30));
        const uInt before = zs.avail_out;
        rc = inflate(&zs, Z_NO_FLUSH);
        produced += before - zs.avail_out;
        if (rc == Z_STREAM_END && (zs.avail_in > 0 || consumed < in.size()) && produced < total) rc = nextGzipMember(zs);
        if (rc == Z_BUF_ERROR && zs.avail_in == 0 && consumed >= in.size()) break;  // the stream ends early
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
            const std::string why = zs.msg ? printable(zs.msg) : std::string("zlib error");
            inflateEnd(&zs);
            countIoWork({.bytesInflated = produced});
            throw IoError(path + ": corrupt compressed data (" + why + ")");
        }
    }
    inflateEnd(&zs);
    countIoWork({.bytesInflated = produced});
    if (produced < total)
        throw IoError(path + ": truncated voxel data (the stream gives " + std::to_string(produced - std::min(produced, skip)) +
                      " bytes" + (skip > 0 ? " after a skip of " + std::to_string(skip) : std::string()) + ", " +
                      std::to_string(bytes) + " expected)");
}

}  // namespace

void checkVoxelSource(const RawImage& header, std::uint64_t bytes, ByteFile& headerFile) {
    std::optional<ByteFile> detached;
    checkedStart(header.source, dataFile(header, headerFile, detached), bytes, headerFile.path());
}

void readVoxels(const RawImage& header, ByteFile& headerFile, char* out, std::size_t bytes) {
    const VoxelSource& src = header.source;
    const std::string& path = headerFile.path();
    std::optional<ByteFile> detached;
    ByteFile& in = dataFile(header, headerFile, detached);
    const std::uint64_t start = checkedStart(src, in, bytes, path);
    if (src.compressed)
        inflateInto(in, start, src.skip, out, bytes, path);
    else
        in.readAt(src.atEnd ? in.size() - bytes : start + src.skip, out, bytes);
    if (src.swapped) swapBytesInParallel(out, bytes / scalarSize(header.type), scalarSize(header.type));
}

std::vector<char> readAllVoxels(const RawImage& header, ByteFile& headerFile) {
    const std::size_t bytes = header.frameBytes() * std::size_t(std::max(1, header.frames));
    checkVoxelSource(header, bytes, headerFile);  // before allocating what the header claims
    std::vector<char> out(bytes);
    countIoWork({.bytesAllocated = bytes});
    readVoxels(header, headerFile, out.data(), bytes);
    return out;
}

}  // namespace lucent::io
