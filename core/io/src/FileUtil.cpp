/// @brief File helpers over stdio/POSIX and zlib.
#include "lucent/io/FileUtil.h"

#include "lucent/core/Errors.h"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace lucent::io {

std::vector<char> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError("cannot open " + path + ": " + std::strerror(errno));
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(in.tellg());
    in.seekg(0);
    std::vector<char> data(size);
    if (!in.read(data.data(), static_cast<std::streamsize>(size)))
        throw IoError("cannot read " + path);
    return data;
}

void writeFileAtomically(const std::string& path, const std::vector<std::string_view>& parts) {
    static std::atomic<unsigned> counter{0};
    const std::string tmp = path + ".partial-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw IoError("cannot write " + path + ": " + std::strerror(errno));
    auto fail = [&](int err) {
        std::fclose(f);
        std::remove(tmp.c_str());
        throw IoError("cannot write " + path + ": " + std::strerror(err ? err : EIO));
    };
    for (auto part : parts)
        if (!part.empty() && std::fwrite(part.data(), 1, part.size(), f) != part.size()) fail(errno);
    if (std::fflush(f) != 0) fail(errno);
    if (::fsync(::fileno(f)) != 0 && errno != EINVAL) fail(errno);
    if (std::fclose(f) != 0) {
        const int err = errno;
        std::remove(tmp.c_str());
        throw IoError("cannot write " + path + ": " + std::strerror(err));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        std::remove(tmp.c_str());
        throw IoError("cannot write " + path + ": " + std::strerror(err));
    }
}

std::vector<char> inflateBuffer(std::string_view compressed, const std::string& source) {
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK) throw IoError(source + ": zlib init failed");
    std::vector<char> out(std::max<std::size_t>(compressed.size() * 4, 1 << 16));
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    zs.avail_in = static_cast<uInt>(compressed.size());
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (zs.total_out == out.size()) out.resize(out.size() * 2);
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + zs.total_out);
        zs.avail_out = static_cast<uInt>(std::min<std::size_t>(out.size() - zs.total_out, 1u << 30));
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
            inflateEnd(&zs);
            throw IoError(source + ": compressed data ends early (truncated file)");
        }
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
            inflateEnd(&zs);
            throw IoError(source + ": corrupt compressed data (" + (zs.msg ? zs.msg : "zlib error") + ")");
        }
    }
    out.resize(zs.total_out);
    inflateEnd(&zs);
    return out;
}

std::vector<char> gzipBuffer(const std::vector<std::string_view>& parts) {
    z_stream zs{};
    // Level 1: masks and CT compress well already; speed matters more for 100 MB volumes.
    deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::size_t total = 0;
    for (auto p : parts) total += p.size();
    std::vector<char> out(deflateBound(&zs, static_cast<uLong>(total)) + 64);
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(parts[i].data()));
        zs.avail_in = static_cast<uInt>(parts[i].size());
        const int flush = i + 1 == parts.size() ? Z_FINISH : Z_NO_FLUSH;
        deflate(&zs, flush);
    }
    if (parts.empty()) deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
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
