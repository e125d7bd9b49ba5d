/// @brief File helpers over stdio/POSIX and zlib.
#include "lucent/io/FileUtil.h"

#include "lucent/core/Errors.h"
#include "lucent/core/StageTimes.h"
#include "lucent/io/IoWork.h"
#include "lucent/io/ReadLimits.h"
#include "lucent/io/StagedOutputs.h"
#include "lucent/io/TemporaryFile.h"
#include "GzipMembers.h"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lucent::io {

std::string whyNotRegularFile(const std::string& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    switch (status.type()) {
    case std::filesystem::file_type::not_found: return path + ": no such file";
    case std::filesystem::file_type::directory: return path + ": not a regular file (a folder)";
    case std::filesystem::file_type::fifo: return path + ": not a regular file (a FIFO)";
    case std::filesystem::file_type::character: return path + ": not a regular file (a character device)";
    case std::filesystem::file_type::block: return path + ": not a regular file (a block device)";
    case std::filesystem::file_type::socket: return path + ": not a regular file (a socket)";
    case std::filesystem::file_type::regular: return {};
    default: break;
    }
    return path + ": not a regular file" + (ec ? " (" + ec.message() + ")" : std::string());
}

std::string whyNotWritable(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    const std::string folder = parent.empty() ? "." : parent.string();
    if (fs::is_directory(path, ec)) return "cannot write " + path + ": it is a folder";
    if (!fs::exists(folder, ec)) return "cannot write " + path + ": folder " + folder + " does not exist";
    if (!fs::is_directory(folder, ec)) return "cannot write " + path + ": " + folder + " is not a folder";
    // The kernel's own answer: permissions, a read-only file system, an immutable folder.
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        return "cannot write " + path + ": folder " + folder + " is not writable (" + std::strerror(errno) + ")";
    return {};
}

std::vector<char> readFile(const std::string& path) {
    // Checked before opening: opening a FIFO blocks, and /dev/zero never ends.
    if (const std::string why = whyNotRegularFile(path); !why.empty()) throw IoError(why);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError("cannot open " + path + ": " + std::strerror(errno));
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(in.tellg());
    in.seekg(0);
    if (size > readLimitBytes())
        throw IoError(path + ": file of " + formatBytes(size) + " is larger than " + readLimitText());
    std::vector<char> data(size);
    if (!in.read(data.data(), static_cast<std::streamsize>(size)))
        throw IoError("cannot read " + path);
    countIoWork({.bytesRead = size});
    return data;
}

std::string dataFilePath(const std::string& header, const std::string& name) {
    return (std::filesystem::path(header).parent_path() / name).lexically_normal().string();
}

std::vector<std::string> filesUnder(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) return {path};
    if (!fs::is_directory(path, ec)) {
        // A FIFO or device is named as such: it exists, and reading it would block or never end.
        if (fs::exists(fs::symlink_status(path, ec))) throw IoError(whyNotRegularFile(path));
        throw IoError(path + ": no such file or folder");
    }
    // Folders reached through symbolic links are listed too (series are often linked in from
    // elsewhere), each real folder once: a link back up the tree, or to a folder seen already, is
    // not entered again, so loops end.
    std::set<fs::path> seen{fs::canonical(path, ec)};
    std::vector<std::string> files;
    const auto options = fs::directory_options::skip_permission_denied | fs::directory_options::follow_directory_symlink;
    for (fs::recursive_directory_iterator it(path, options, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code entryError;
        if (it->is_directory(entryError)) {
            const fs::path real = fs::canonical(it->path(), entryError);
            if (entryError || !seen.insert(real).second) it.disable_recursion_pending();
        } else if (it->is_regular_file(entryError)) {
            files.push_back(it->path().string());
        }
    }
    if (ec) throw IoError(path + ": cannot list folder (" + ec.message() + ")");
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<char> readDataFile(const std::string& header, const std::string& name) {
    try {
        return readFile(dataFilePath(header, name));
    } catch (const IoError& e) {
        throw IoError(header + ": data file " + e.what());
    }
}

namespace {

/// Bytes written before their writeback to the disk is started: a large output then reaches the
/// disk while the rest of it is still being copied into the page cache, and the closing fsync waits
/// for the last piece only (it waited for all of it, after the copy).
constexpr std::size_t kWritebackPiece = std::size_t(16) << 20;

/// Writes `data` at the end of what `written` bytes of `fd` hold; 0, or the errno of the failure.
int writeWithWriteback(int fd, std::string_view data, std::size_t& written) {
    while (!data.empty()) {
        const std::size_t n = std::min(data.size(), kWritebackPiece - written % kWritebackPiece);
        const ssize_t w = ::write(fd, data.data(), n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return w < 0 ? errno : EIO;
        const std::size_t pieces = written / kWritebackPiece;
        written += std::size_t(w);
        data.remove_prefix(std::size_t(w));
        // A hint, not a promise (no metadata, no wait; a file system without it ignores it): the
        // fsync at the end is what makes the file durable.
        if (written / kWritebackPiece != pieces)
            ::sync_file_range(fd, off_t(pieces * kWritebackPiece), off_t(kWritebackPiece), SYNC_FILE_RANGE_WRITE);
    }
    return 0;
}

}  // namespace

void dropCachedPages(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
}

void writeFileAtomically(const std::string& path, const std::vector<std::string_view>& parts) {
    static std::atomic<unsigned> counter{0};
    // Registered before it exists: failures, and SIGINT / SIGTERM / SIGHUP, remove it.
    TemporaryFile tmp(path + ".partial-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    const int fd = ::open(tmp.path().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw IoError("cannot write " + path + ": " + std::strerror(errno));
    auto fail = [&](int err) {
        ::close(fd);
        throw IoError("cannot write " + path + ": " + std::strerror(err ? err : EIO));
    };
    std::size_t written = 0;
    for (auto part : parts)
        if (const int err = writeWithWriteback(fd, part, written)) fail(err);
    {
        const stages::Scope stage("fsync");
        if (::fsync(fd) != 0 && errno != EINVAL) fail(errno);
    }
    if (::close(fd) != 0) throw IoError("cannot write " + path + ": " + std::strerror(errno));
    // Part of a command's outputs: renamed with the others when all are written.
    if (StagedOutputs* staged = StagedOutputs::current()) {
        staged->adopt(std::move(tmp), path);
        return;
    }
    if (std::rename(tmp.path().c_str(), path.c_str()) != 0)
        throw IoError("cannot write " + path + ": " + std::strerror(errno));
    tmp.release();
}

std::vector<char> inflateBuffer(std::string_view compressed, const std::string& source, std::size_t limit) {
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK) throw IoError(source + ": zlib init failed");
    // Deflate expands at most 1032:1, so the stream bounds the output as well as the promise does;
    // reserving touches no memory, so a stream that ends early costs only what it held.
    std::vector<char> out;
    const std::size_t bound = compressed.size() > (std::size_t(1) << 48) ? limit : compressed.size() * 1032 + (1 << 16);
    out.reserve(std::min(limit, bound));
    countIoWork({.bytesAllocated = out.capacity()});
    std::vector<char> chunk(1 << 18);
    std::size_t consumed = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END && out.size() < limit) {
        if (zs.avail_in == 0) {  // zlib counts input in 32 bits: feed large buffers in parts
            const std::size_t part = std::min<std::size_t>(compressed.size() - consumed, 1u << 30);
            zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data() + consumed));
            zs.avail_in = static_cast<uInt>(part);
            consumed += part;
        }
        const std::size_t want = std::min(chunk.size(), limit - out.size());
        zs.next_out = reinterpret_cast<Bytef*>(chunk.data());
        zs.avail_out = static_cast<uInt>(want);
        rc = inflate(&zs, Z_NO_FLUSH);
        out.insert(out.end(), chunk.data(), chunk.data() + (want - zs.avail_out));
        if (rc == Z_STREAM_END && (zs.avail_in > 0 || consumed < compressed.size()) && out.size() < limit)
            rc = nextGzipMember(zs);
        if (rc == Z_BUF_ERROR && zs.avail_in == 0 && consumed == compressed.size()) break;  // ends early
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
            const std::string why = zs.msg ? printable(zs.msg) : std::string("zlib error");
            inflateEnd(&zs);
            throw IoError(source + ": corrupt compressed data (" + why + ")");
        }
    }
    inflateEnd(&zs);
    countIoWork({.bytesInflated = out.size()});
    return out;
}

std::string printable(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    auto hex = [&](unsigned char c) {
        static const char digits[] = "0123456789abcdef";
        out += "\\x";
        out += digits[c >> 4];
        out += digits[c & 15];
    };
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '\n' || c == '\r' || c == '\t') {
            out += c == '\n' ? "\\n" : (c == '\r' ? "\\r" : "\\t");
            ++i;
        } else if (c < 0x20 || c == 0x7f) {
            hex(c);
            ++i;
        } else if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
        } else {
            // Valid UTF-8 passes (names in any script); stray bytes and C1 controls (U+0080..U+009F,
            // which some terminals obey) are escaped.
            const std::size_t len = c >= 0xf0 && c < 0xf5 ? 4 : (c >= 0xe0 ? 3 : (c >= 0xc2 && c < 0xe0 ? 2 : 0));
            bool valid = len > 0 && i + len <= s.size();
            for (std::size_t k = 1; valid && k < len; ++k)
                valid = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
            if (valid && c == 0xc2 && static_cast<unsigned char>(s[i + 1]) < 0xa0) valid = false;
            if (!valid) {
                hex(c);
                ++i;
                continue;
            }
            out.append(s.substr(i, len));
            i += len;
        }
    }
    return out;
}

std::string toLower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(b, e - b + 1));
}

}  // namespace lucent::io
