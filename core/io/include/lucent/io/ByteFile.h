/// @brief A file read by offset: a kept prefix for its header, large reads on several threads for its voxels.
#pragma once

#include "lucent/core/Errors.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lucent::io {

/// One open regular file (or bytes already in memory standing for one). Headers are parsed from a
/// prefix that grows only as far as the header goes, so reading a header costs its own bytes and
/// never the voxels behind it; the voxels are then read straight into their buffer. Every byte read
/// from disk is counted in IoWork::bytesRead.
class ByteFile {
public:
    /// Opens `path`; IoError naming it when it is missing, not a regular file (a FIFO would block,
    /// /dev/zero never ends) or unreadable.
    explicit ByteFile(const std::string& path);
    /// `bytes` (kept by the caller while this lives) standing for the file `path`: parse()'s and
    /// the fuzzers' input. Nothing is read from disk.
    ByteFile(std::string_view bytes, std::string path);
    ~ByteFile();
    ByteFile(const ByteFile&) = delete;
    ByteFile& operator=(const ByteFile&) = delete;

    const std::string& path() const { return m_path; }
    std::uint64_t size() const { return m_size; }
    /// The first min(n, size()) bytes, read once and kept (later calls read only what is new).
    std::string_view prefix(std::size_t n);
    /// Copies bytes [offset, offset + length) to `out`: from the kept prefix as far as it covers
    /// them, the rest read in large parts on several threads. IoError naming the file when they
    /// pass its end or a read fails.
    void readAt(std::uint64_t offset, char* out, std::size_t length);

private:
    std::string m_path;
    int m_fd = -1;
    std::uint64_t m_size = 0;
    std::string_view m_memory;  ///< the bytes when in memory (m_fd < 0)
    std::vector<char> m_prefix;
};

/// The longest text header read (NRRD, MetaImage): real ones take kilobytes; past this a file
/// whose header never ends is refused rather than read whole.
inline constexpr std::size_t kMaxHeaderBytes = std::size_t(64) << 20;

/// Calls `parse(bytes, whole)` on growing prefixes of `file` (from 64 KiB, four times larger each
/// time) until it returns true (the header ended within them) or `whole` (the file is all there).
/// A parser given a prefix that is not whole must not judge a line it has not seen the end of.
/// IoError naming the file when no header ends within kMaxHeaderBytes.
template <typename Parse>
void parseGrowingPrefix(ByteFile& file, Parse&& parse) {
    for (std::size_t n = std::size_t(64) << 10;; n *= 4) {
        const std::string_view bytes = file.prefix(std::min(n, kMaxHeaderBytes));
        const bool whole = bytes.size() >= file.size();
        if (parse(bytes, whole) || whole) return;
        if (n >= kMaxHeaderBytes)
            throw IoError(file.path() + ": no end of the header within its first " + std::to_string(kMaxHeaderBytes >> 20) +
                          " MiB (not a volume file of this kind?)");
    }
}

}  // namespace lucent::io
