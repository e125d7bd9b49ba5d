/// @brief ByteFile over POSIX pread: the prefix kept for headers, voxels read in parallel parts.
#include "lucent/io/ByteFile.h"

#include "lucent/core/Errors.h"
#include "lucent/core/ParallelFor.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/IoWork.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace lucent::io {

namespace {

/// Large enough that a read is dominated by copying, small enough to spread over the cores.
constexpr std::size_t kReadPart = std::size_t(32) << 20;

/// Reads exactly `length` bytes at `offset`; false at an early end of file (errno 0) or an error.
bool preadFully(int fd, char* out, std::size_t length, std::uint64_t offset) {
    while (length > 0) {
        const ssize_t got = ::pread(fd, out, std::min<std::size_t>(length, std::size_t(1) << 30), off_t(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            if (got == 0) errno = 0;
            return false;
        }
        out += got;
        length -= std::size_t(got);
        offset += std::uint64_t(got);
    }
    return true;
}

}  // namespace

ByteFile::ByteFile(const std::string& path) : m_path(path) {
    // Checked before opening: opening a FIFO blocks, and /dev/zero never ends.
    if (const std::string why = whyNotRegularFile(path); !why.empty()) throw IoError(why);
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0) throw IoError("cannot open " + path + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(m_fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const int err = errno;
        ::close(m_fd);
        throw IoError(path + ": not a regular file" + (err ? std::string(" (") + std::strerror(err) + ")" : ""));
    }
    m_size = std::uint64_t(st.st_size);
}

ByteFile::ByteFile(std::string_view bytes, std::string path)
    : m_path(std::move(path)), m_size(bytes.size()), m_memory(bytes) {}

ByteFile::~ByteFile() {
    if (m_fd >= 0) ::close(m_fd);
}

std::string_view ByteFile::prefix(std::size_t n) {
    if (m_fd < 0) return m_memory.substr(0, std::min<std::uint64_t>(n, m_size));
    const std::size_t want = std::size_t(std::min<std::uint64_t>(n, m_size));
    if (want > m_prefix.size()) {
        const std::size_t had = m_prefix.size();
        m_prefix.resize(want);
        if (!preadFully(m_fd, m_prefix.data() + had, want - had, had)) {
            m_prefix.resize(had);
            throw IoError("cannot read " + m_path + (errno ? std::string(": ") + std::strerror(errno) : ": file shrank"));
        }
        countIoWork({.bytesRead = want - had});
    }
    return {m_prefix.data(), want};
}

void ByteFile::readAt(std::uint64_t offset, char* out, std::size_t length) {
    if (offset > m_size || m_size - offset < length)
        throw IoError(m_path + ": read of " + std::to_string(length) + " bytes at " + std::to_string(offset) +
                      " passes the end of the file (" + std::to_string(m_size) + " bytes)");
    if (m_fd < 0) {
        if (length) std::memcpy(out, m_memory.data() + offset, length);
        return;
    }
    // What the header pass already holds is not read again.
    if (offset < m_prefix.size()) {
        const std::size_t kept = std::min<std::size_t>(length, m_prefix.size() - std::size_t(offset));
        std::memcpy(out, m_prefix.data() + offset, kept);
        out += kept;
        offset += kept;
        length -= kept;
    }
    if (length == 0) return;
    const std::size_t parts = (length + kReadPart - 1) / kReadPart;
    parallelFor(parts, 0, [&](std::size_t p) {
        const std::size_t from = p * kReadPart, n = std::min(kReadPart, length - from);
        if (!preadFully(m_fd, out + from, n, offset + from))
            throw IoError("cannot read " + m_path + (errno ? std::string(": ") + std::strerror(errno) : ": file shrank"));
    });
    countIoWork({.bytesRead = length});
}

}  // namespace lucent::io
