/// @brief A volume of more than 2^32 voxels for the engines' 64-bit paths: a ball across index 2^32, the rest untouched zero pages.
#pragma once

#include "lucent/core/Volume.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <new>
#include <optional>
#include <string>

namespace lucent::testing {

/// The environment variable that lets tests allocate such volumes (off by default: CI has little memory).
inline constexpr const char* kLargeTestsVariable = "LUCENT_LARGE_TESTS";

/// 2048 x 2048 x 1040: 2^32 + 2^26 voxels (8.7 GB as int16); slice 1024 starts at index 2^32.
inline Geometry largeGeometry() {
    Geometry g;
    g.dims = {2048, 2048, 1040};
    return g;
}

/// A ball of value kBallValue over 0 near the volume's end, cut by index 2^32 (slice 1024).
inline constexpr VoxelIndex kBallCentre{1000, 1100, 1026};
inline constexpr int kBallRadius = 10;
inline constexpr int kBallValue = 200;

inline bool inBall(int i, int j, int k) {
    const long long di = i - kBallCentre.i, dj = j - kBallCentre.j, dk = k - kBallCentre.k;
    return di * di + dj * dj + dk * dk <= (long long)kBallRadius * kBallRadius;
}

/// The ball's bounding box widened by `margin` voxels on every side.
inline VoxelBox ballBox(int margin = 0) {
    const int r = kBallRadius + margin;
    return {{kBallCentre.i - r, kBallCentre.j - r, kBallCentre.k - r}, {kBallCentre.i + r, kBallCentre.j + r, kBallCentre.k + r}};
}

/// The ROI the tests run in: the ball's box and 3 voxels more, whose last slice is the volume's last.
inline VoxelBox ballRoi() { return ballBox(3); }

/// Voxels of the ball, counted from its definition over its box.
inline std::size_t ballVoxels() {
    const VoxelBox b = ballBox();
    std::size_t n = 0;
    for (int k = b.lo[2]; k <= b.hi[2]; ++k)
        for (int j = b.lo[1]; j <= b.hi[1]; ++j)
            for (int i = b.lo[0]; i <= b.hi[0]; ++i) n += inBall(i, j, k);
    return n;
}

/// Host bytes the ball's slices take once written (the rest of the volume is never touched).
inline std::uint64_t ballSliceBytes() {
    return std::uint64_t(2 * kBallRadius + 1) * largeGeometry().sliceSize() * sizeof(std::int16_t);
}

/// The int16 volume with the ball, or nullptr when the system lends no 8.7 GB of address space. Its
/// voxels are calloc'ed: only the ball's slices are written, so reading the rest maps the shared
/// zero page and costs no memory.
inline std::unique_ptr<Volume> largeVolume() {
    std::unique_ptr<Volume> v;
    try {
        v = std::make_unique<Volume>(largeGeometry(), PixelType::Int16);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
    const VoxelBox b = ballBox();
    const Geometry& g = v->geometry();
    for (int k = b.lo[2]; k <= b.hi[2]; ++k)
        for (int j = b.lo[1]; j <= b.hi[1]; ++j)
            for (int i = b.lo[0]; i <= b.hi[0]; ++i)
                if (inBall(i, j, k)) v->int16Data()[g.index(i, j, k)] = std::int16_t(kBallValue);
    return v;
}

/// Voxels of `box` whose label in `labels` (one per voxel of the large grid) is not `inside` in the
/// ball and `outside` elsewhere.
inline std::size_t ballMismatches(const std::uint8_t* labels, const VoxelBox& box, std::uint8_t inside, std::uint8_t outside) {
    const Geometry g = largeGeometry();
    std::size_t n = 0;
    for (int k = box.lo[2]; k <= box.hi[2]; ++k)
        for (int j = box.lo[1]; j <= box.hi[1]; ++j)
            for (int i = box.lo[0]; i <= box.hi[0]; ++i) n += labels[g.index(i, j, k)] != (inBall(i, j, k) ? inside : outside);
    return n;
}

/// /proc/meminfo's MemAvailable in bytes (0 where it cannot be read).
inline std::uint64_t memAvailableBytes() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    while (in >> key >> kib) {
        if (key == "MemAvailable:") return kib * 1024;
        in.ignore(256, '\n');
    }
    return 0;
}

inline std::string gib(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(1ull << 30));
    return text;
}

/// Why a test that touches `hostBytes` of memory on top of the volume's ball slices cannot run here,
/// or nothing: host memory (MemAvailable, less a 1 GiB margin) must hold it.
inline std::optional<std::string> whyNoRoom(std::uint64_t hostBytes) {
    const std::uint64_t need = hostBytes + ballSliceBytes() + (1ull << 30), available = memAvailableBytes();
    if (available < need) return "needs " + gib(need) + " of host memory, MemAvailable is " + gib(available);
    return std::nullopt;
}

/// Why a CPU test on the large volume does not run here: LUCENT_LARGE_TESTS=1 is not set, or memory.
inline std::optional<std::string> whyNoLargeCpuRun(std::uint64_t hostBytes) {
    const char* on = std::getenv(kLargeTestsVariable);
    if (!on || std::string(on) != "1") return std::string("set ") + kLargeTestsVariable + "=1 to run (it touches " + gib(hostBytes) + ")";
    return whyNoRoom(hostBytes);
}

}  // namespace lucent::testing
