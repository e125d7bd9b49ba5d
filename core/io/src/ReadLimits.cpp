/// @brief The per-image memory limit (physical memory, rlimits, cgroup) and overflow-checked image sizes.
#include "lucent/io/ReadLimits.h"

#include "lucent/core/Errors.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>

namespace lucent::io {

namespace {

std::uint64_t physicalMemory() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return std::uint64_t(8) << 30;  // unknown: assume a modest 8 GiB
    return std::uint64_t(pages) * std::uint64_t(pageSize);
}

/// The soft limit of `resource`, or the largest value when there is none.
std::uint64_t rlimitOf(int resource) {
    rlimit r{};
    if (::getrlimit(resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return std::numeric_limits<std::uint64_t>::max();
    return r.rlim_cur;
}

/// A container's memory cap (cgroup v2), which physical memory does not show.
std::uint64_t cgroupLimit() {
    std::ifstream in("/sys/fs/cgroup/memory.max");
    std::uint64_t v = 0;
    if (in >> v && v > 0) return v;
    return std::numeric_limits<std::uint64_t>::max();
}

/// LUCENT_READ_LIMIT_MB (fractions allowed), or the largest value when unset or not a positive
/// number. It can only lower the limit: the fuzzers and tests use it where the address-space
/// rlimit cannot be used (AddressSanitizer reserves terabytes of shadow memory).
std::uint64_t environmentLimit() {
    const char* text = std::getenv("LUCENT_READ_LIMIT_MB");
    if (!text) return std::numeric_limits<std::uint64_t>::max();
    char* end = nullptr;
    const double mb = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(mb > 0) || mb >= 1e12) return std::numeric_limits<std::uint64_t>::max();
    return static_cast<std::uint64_t>(mb * 1024 * 1024);
}

}  // namespace

std::size_t readLimitBytes() {
    static const std::size_t limit = [] {
        const std::uint64_t memory =
            std::min({physicalMemory(), rlimitOf(RLIMIT_AS), rlimitOf(RLIMIT_DATA), cgroupLimit()});
        return static_cast<std::size_t>(
            std::min<std::uint64_t>({memory / 2, environmentLimit(), std::numeric_limits<std::size_t>::max()}));
    }();
    return limit;
}

std::string readLimitText() {
    const bool capped = readLimitBytes() == environmentLimit();
    return "the " + formatBytes(readLimitBytes()) + " one image may take on this machine (" +
           (capped ? "LUCENT_READ_LIMIT_MB" : "half its memory") + ")";
}

std::string formatBytes(std::uint64_t bytes) {
    static const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    double v = double(bytes) / 1024;
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.2f %s" : (v < 100 ? "%.1f %s" : "%.0f %s"), v, units[u]);
    return buf;
}

std::size_t imageBytes(const std::vector<std::int64_t>& sizes, std::size_t scalarBytes, const std::string& source) {
    std::string shape;
    for (const auto s : sizes) shape += (shape.empty() ? "" : " x ") + std::to_string(s);
    std::uint64_t total = scalarBytes;
    bool overflow = false;
    for (const auto s : sizes) {
        if (s < 1)
            throw IoError(source + ": image size " + shape + " has an axis of " + std::to_string(s) +
                          " (every size must be 1 or more)");
        overflow = overflow || __builtin_mul_overflow(total, std::uint64_t(s), &total);
    }
    const std::string what = shape + " voxels of " + std::to_string(scalarBytes) + " byte(s)";
    if (overflow) throw IoError(source + ": image size " + what + " is too large to address (over 2^64 bytes)");
    if (total > readLimitBytes())
        throw IoError(source + ": image of " + what + " needs " + formatBytes(total) + ", more than " +
                      readLimitText());
    return static_cast<std::size_t>(total);
}

}  // namespace lucent::io
