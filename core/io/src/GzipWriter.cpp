/// @brief gzip on several cores: independently deflated pieces in one gzip member.
#include "lucent/io/FileUtil.h"

#include "lucent/core/ParallelFor.h"

#include <zlib.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace lucent::io {

namespace {

/// Input bytes per piece. Fixed, so that the file's bytes depend on the input alone (not on the
/// thread count); a piece forgets the 32 KiB of history before it, which costs well under 1 % of
/// the size at 1 MiB, and 1 MiB pieces balance across cores on a mask of a few megabytes.
constexpr std::size_t kPieceBytes = std::size_t(1) << 20;

/// The bytes [begin, end) of the concatenation of `parts`, as views into them.
std::vector<std::string_view> slice(const std::vector<std::string_view>& parts, std::size_t begin, std::size_t end) {
    std::vector<std::string_view> out;
    std::size_t at = 0;
    for (std::string_view p : parts) {
        const std::size_t from = std::max(begin, at), to = std::min(end, at + p.size());
        if (from < to) out.push_back(p.substr(from - at, to - from));
        at += p.size();
    }
    return out;
}

struct Piece {
    std::vector<char> deflated;
    uLong crc = 0;
    std::size_t size = 0;
};

/// One piece as raw deflate data that starts afresh and ends on a byte boundary (a sync flush), or
/// with the final block when `last`: so the pieces, concatenated, are one deflate stream.
Piece deflatePiece(const std::vector<std::string_view>& input, bool last) {
    Piece p;
    p.crc = crc32(0, nullptr, 0);
    z_stream zs{};
    // Level 1, as the single-stream writer had: masks and CT compress well already.
    if (deflateInit2(&zs, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw std::bad_alloc();
    for (std::string_view s : input) p.size += s.size();
    const std::size_t bound = deflateBound(&zs, uLong(p.size)) + 16;  // + the sync flush's empty block
    const std::unique_ptr<char[]> scratch(new char[bound]);          // not zeroed: only what is written is touched
    zs.next_out = reinterpret_cast<Bytef*>(scratch.get());
    zs.avail_out = uInt(bound);
    for (std::size_t i = 0; i < input.size(); ++i) {
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input[i].data()));
        zs.avail_in = uInt(input[i].size());
        p.crc = crc32(p.crc, zs.next_in, zs.avail_in);
        deflate(&zs, i + 1 < input.size() ? Z_NO_FLUSH : (last ? Z_FINISH : Z_SYNC_FLUSH));
    }
    if (input.empty()) deflate(&zs, last ? Z_FINISH : Z_SYNC_FLUSH);
    p.deflated.assign(scratch.get(), scratch.get() + zs.total_out);
    deflateEnd(&zs);
    return p;
}

void putLittleEndian32(std::vector<char>& out, std::uint32_t v) {
    for (int b = 0; b < 4; ++b) out.push_back(char((v >> (8 * b)) & 0xff));
}

}  // namespace

std::vector<std::string_view> GzipStream::parts() const {
    std::vector<std::string_view> out;
    for (const auto& c : chunks) out.emplace_back(c.data(), c.size());
    return out;
}

GzipStream gzipParts(const std::vector<std::string_view>& parts, unsigned threads) {
    std::size_t total = 0;
    for (std::string_view p : parts) total += p.size();
    const std::size_t count = std::max<std::size_t>(1, (total + kPieceBytes - 1) / kPieceBytes);
    std::vector<Piece> pieces(count);
    parallelFor(count, threads, [&](std::size_t i) {
        pieces[i] = deflatePiece(slice(parts, i * kPieceBytes, std::min(total, (i + 1) * kPieceBytes)), i + 1 == count);
    });
    GzipStream out;
    // RFC 1952 header: deflate, no name, no time, XFL 4 (fastest), OS 3 (Unix): what zlib writes.
    out.chunks.push_back({'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, 4, 3});
    uLong crc = crc32(0, nullptr, 0);
    for (Piece& p : pieces) {
        crc = crc32_combine(crc, p.crc, z_off_t(p.size));
        out.chunks.push_back(std::move(p.deflated));
    }
    std::vector<char> trailer;
    putLittleEndian32(trailer, std::uint32_t(crc));
    putLittleEndian32(trailer, std::uint32_t(total & 0xffffffffu));  // ISIZE: the size modulo 2^32
    out.chunks.push_back(std::move(trailer));
    return out;
}

std::vector<char> gzipBuffer(const std::vector<std::string_view>& parts) {
    const GzipStream gz = gzipParts(parts);
    std::vector<char> out;
    for (const auto& c : gz.chunks) out.insert(out.end(), c.begin(), c.end());
    return out;
}

}  // namespace lucent::io
