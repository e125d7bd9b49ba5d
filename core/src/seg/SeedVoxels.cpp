/// @brief Seed voxels gathered slice by slice on all cores, rows read a word at a time (SeedVoxels.h).
#include "lucent/core/seg/SeedVoxels.h"

#include "lucent/core/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace lucent {

namespace {

/// Calls f(offset) for each non-zero byte of row[0..n): eight bytes at a time where they are all zero.
template <class F>
void forNonZero(const std::uint8_t* row, std::size_t n, F&& f) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t word;
        std::memcpy(&word, row + i, sizeof word);
        if (!word) continue;
        for (std::size_t b = 0; b < 8; ++b)
            if (row[i + b]) f(i + b);
    }
    for (; i < n; ++i)
        if (row[i]) f(i);
}

bool anyNonZero(const std::uint8_t* bytes, std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t word;
        std::memcpy(&word, bytes + i, sizeof word);
        if (word) return true;
    }
    for (; i < n; ++i)
        if (bytes[i]) return true;
    return false;
}

/// Bytes a task of holdsSeed reads: large enough that handing out tasks costs nothing, small enough
/// that a seed near the start ends the search early.
constexpr std::size_t kChunkBytes = std::size_t(1) << 22;

}  // namespace

std::vector<std::uint64_t> gatherSeedVoxels(const LabelMap& seeds, const VoxelBox& box, unsigned threads) {
    const Geometry& g = seeds.geometry();
    const int lo[3] = {std::max(0, box.lo[0]), std::max(0, box.lo[1]), std::max(0, box.lo[2])};
    const int hi[3] = {std::min(g.dims[0] - 1, box.hi[0]), std::min(g.dims[1] - 1, box.hi[1]), std::min(g.dims[2] - 1, box.hi[2])};
    if (lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]) return {};
    const std::size_t slices = std::size_t(hi[2] - lo[2] + 1), width = std::size_t(hi[0] - lo[0] + 1);
    std::vector<std::vector<std::uint64_t>> perSlice(slices);
    parallelFor(slices, threads, [&](std::size_t s) {
        const int k = lo[2] + int(s);
        for (int j = lo[1]; j <= hi[1]; ++j) {
            const std::size_t start = g.index(lo[0], j, k);
            const std::uint8_t* row = seeds.data() + start;
            forNonZero(row, width, [&](std::size_t i) { perSlice[s].push_back(packSeedVoxel(start + i, row[i])); });
        }
    });
    std::size_t total = 0;
    for (const auto& v : perSlice) total += v.size();
    std::vector<std::uint64_t> out;
    out.reserve(total);
    for (const auto& v : perSlice) out.insert(out.end(), v.begin(), v.end());
    return out;
}

bool holdsSeed(const LabelMap& seeds, unsigned threads) {
    const std::size_t n = seeds.voxelCount(), chunks = (n + kChunkBytes - 1) / kChunkBytes;
    std::atomic<bool> found{false};
    parallelFor(chunks, threads, [&](std::size_t c) {
        if (found.load(std::memory_order_relaxed)) return;
        const std::size_t begin = c * kChunkBytes, count = std::min(kChunkBytes, n - begin);
        if (anyNonZero(seeds.data() + begin, count)) found.store(true, std::memory_order_relaxed);
    });
    return found.load();
}

}  // namespace lucent
