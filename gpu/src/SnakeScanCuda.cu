/// @brief The snake's checkpoint scan kernels: a warp per row (narrow rows) and a block per row
/// (wide rows), both writing the same records.
#include "CudaCheck.h"
#include "SnakeExecParts.cuh"
#include "SnakeScanCuda.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace lucent::gpu {

namespace {

constexpr int kGroup = 1 << snake::kGroupShift;  // pixels a record
constexpr unsigned kAll = 0xffffffffu;
constexpr int kWarpScanThreads = 256;  // a warp per row, 8 rows a block
constexpr int kRowThreads = 256;       // a block per row
constexpr int kRowWarps = kRowThreads / 32;
/// Groups a block per row stages at a time (16384 pixels, 32 KB of shared memory); wider rows are
/// scanned in tiles with a carry.
constexpr int kTileGroups = 2048;
/// Rows from this many groups on go to the block per row (2048 pixels).
constexpr int kRowFromGroups = 256;

/// Sums of a group's pixels.
struct GroupSums {
    long long z = 0, z2 = 0;
};

__device__ inline GroupSums groupSums(const std::int16_t (&px)[kGroup]) {
    GroupSums s;
#pragma unroll
    for (int k = 0; k < kGroup; ++k) {
        const long long p = px[k];
        s.z += p;
        s.z2 += p * p;
    }
    return s;
}

/// Inclusive warp scan of each lane's group sums.
__device__ inline GroupSums warpInclusive(GroupSums s, int lane) {
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const long long a = __shfl_up_sync(kAll, s.z, o), b = __shfl_up_sync(kAll, s.z2, o);
        if (lane >= o) {
            s.z += a;
            s.z2 += b;
        }
    }
    return s;
}

/// A warp per row: the warp takes 32 groups of 8 pixels at a time (loaded coalesced into its own
/// shared memory, the next 32 loaded while these scan), each lane sums its group into its record,
/// and a warp scan with a carry gives the sums before each group; the row's totals go to the
/// slice's sums. Few loads are in flight a warp, and a 150 MP slice's 12,000 rows are 1.5 waves of
/// the H100's resident warps: wide rows take the block per row below.
__global__ void __launch_bounds__(kWarpScanThreads)
    warpRowsKernel(const std::int16_t* slice, int width, int height, int pitch, int groups, snake::Checkpoint* out,
                   ExactSums* image) {
    constexpr int kSpan = 32 * kGroup;
    __shared__ __align__(16) std::int16_t staged[kWarpScanThreads / 32][kSpan];
    const int warp = int(threadIdx.x) >> 5, lane = int(threadIdx.x) & 31;
    const int y = int(blockIdx.x) * (kWarpScanThreads / 32) + warp;
    if (y >= height) return;  // whole warps: only warp barriers below
    const std::int16_t* row = slice + std::size_t(y) * pitch;
    std::int16_t* mine = staged[warp];
    std::int16_t ahead[kGroup];
    auto load = [&](int x0) {
#pragma unroll
        for (int k = 0; k < kGroup; ++k) {
            const int x = x0 + k * 32 + lane;
            ahead[k] = x < width ? row[x] : std::int16_t(0);
        }
    };
    load(0);
    GroupSums carry;
    for (int base = 0; base < groups; base += 32) {
#pragma unroll
        for (int k = 0; k < kGroup; ++k) mine[k * 32 + lane] = ahead[k];
        __syncwarp();
        if (base + 32 < groups) load((base + 32) * kGroup);
        snake::Checkpoint c{};
        *reinterpret_cast<int4*>(c.px) = reinterpret_cast<const int4*>(mine)[lane];  // 0 past the row's end
        __syncwarp();  // every lane has its group before the next round overwrites them
        const GroupSums own = groupSums(c.px), in = warpInclusive(own, lane);
        if (base + lane < groups) {
            c.z = carry.z + in.z - own.z;
            c.z2 = carry.z2 + in.z2 - own.z2;
            out[std::size_t(y) * groups + base + lane] = c;
        }
        carry.z += __shfl_sync(kAll, in.z, 31);
        carry.z2 += __shfl_sync(kAll, in.z2, 31);
    }
    if (lane == 0) snakeexec::atomicAddSums(image, ExactSums{width, carry.z, carry.z2});
}

/// Bytes shift .. shift + 15 of the 32 bytes a, b (shift even, from 0 to 14).
__device__ inline int4 realign(const int4& a, const int4& b, int shift) {
    const unsigned w[8] = {unsigned(a.x), unsigned(a.y), unsigned(a.z), unsigned(a.w),
                           unsigned(b.x), unsigned(b.y), unsigned(b.z), unsigned(b.w)};
    const unsigned sel = shift & 2 ? 0x5432u : 0x3210u;  // two bytes into the next word, or none
    // q is a constant in each case below, so w stays in registers.
    auto from = [&](int q) {
        return make_int4(int(__byte_perm(w[q], w[q + 1], sel)), int(__byte_perm(w[q + 1], w[q + 2], sel)),
                         int(__byte_perm(w[q + 2], w[q + 3], sel)), int(__byte_perm(w[q + 3], w[q + 4], sel)));
    };
    switch (shift >> 2) {
        case 0:
            return from(0);
        case 1:
            return from(1);
        case 2:
            return from(2);
        default:
            return from(3);
    }
}

/// The group of pixels x .. x + 7 with those at or past the row's end set to 0.
__device__ inline int4 clipToRow(int4 v, int x, int width) {
    if (x + kGroup <= width) return v;
    auto* p = reinterpret_cast<std::int16_t*>(&v);
#pragma unroll
    for (int j = 0; j < kGroup; ++j)
        if (x + j >= width) p[j] = 0;
    return v;
}

/// Bulk copies into shared memory (sm_90's TMA, the project's baseline architecture:
/// packaging/cmake/LucentCuda.cmake), completing on an mbarrier.
__device__ inline unsigned sharedAddress(const void* p) { return unsigned(__cvta_generic_to_shared(p)); }

__device__ inline void barrierInit(unsigned long long* bar) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sharedAddress(bar)) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/// One thread: `bytes` (a multiple of 16, both addresses 16-aligned) from `from` to `to`; the
/// barrier's phase completes when they have landed.
__device__ inline void bulkLoad(void* to, const void* from, unsigned bytes, unsigned long long* bar) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sharedAddress(bar)), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     sharedAddress(to)),
                 "l"(from), "r"(bytes), "r"(sharedAddress(bar))
                 : "memory");
}

__device__ inline void barrierWait(unsigned long long* bar, unsigned phase) {
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(sharedAddress(bar)), "r"(phase)
                     : "memory");
}

/// A block per row: a tile of the row (up to kTileGroups groups) comes into shared memory in one
/// bulk copy of its 16-byte-aligned middle, its ragged ends pixel by pixel; each warp sums its own
/// run of the tile's groups (realigned from two 16-byte words by byte permutes; pixels past the
/// row's end zero), one barrier gives every warp the sums before its run, then it scans its run
/// 32 groups at a time and writes the records coalesced. The row's totals go to the slice's sums.
/// (A group a thread loaded by two 16-byte loads: fewer loads than 2-byte ones; two groups a thread
/// in flight, or 8 blocks an SM at 32 registers, were no faster. Figures in BENCHMARKS.md.)
__global__ void __launch_bounds__(kRowThreads) blockRowKernel(const std::int16_t* slice, int width, int pitch,
                                                              int groups, snake::Checkpoint* out, ExactSums* image) {
    // The tile's bytes from the 16-byte boundary at or before its first pixel: min(groups,
    // kTileGroups) + 2 words of 16 bytes.
    extern __shared__ __align__(16) int4 buffer[];
    __shared__ GroupSums warpTotals[kRowWarps];
    __shared__ unsigned long long landed;
    const int y = int(blockIdx.x), warp = int(threadIdx.x) >> 5, lane = int(threadIdx.x) & 31;
    const std::int16_t* row = slice + std::size_t(y) * pitch;
    snake::Checkpoint* records = out + std::size_t(y) * groups;
    auto* pixels = reinterpret_cast<std::int16_t*>(buffer);
    if (threadIdx.x == 0) barrierInit(&landed);
    __syncthreads();
    GroupSums carry;  // the row's sums before the tile
    unsigned phase = 0;
    for (int g0 = 0; g0 < groups; g0 += kTileGroups) {
        const int ng = min(kTileGroups, groups - g0), x0 = g0 * kGroup, x1 = min(width, x0 + ng * kGroup);
        const auto start = reinterpret_cast<std::uintptr_t>(row + x0),
                   stop = reinterpret_cast<std::uintptr_t>(row + x1);
        const int shift = int(start & 15);  // alike for every tile of the row
        const std::uintptr_t middle = (start + 15) & ~std::uintptr_t(15), middleEnd = stop & ~std::uintptr_t(15);
        const bool bulk = middleEnd > middle;
        // The pixels outside the middle: up to 7 before it, up to 7 after it (all, if it is empty).
        const int headPixels = bulk ? int(middle - start) / 2 : x1 - x0;
        const int tailFrom = bulk ? x0 + int(middleEnd - start) / 2 : x1;
        if (threadIdx.x == 0 && bulk)
            bulkLoad(buffer + (shift ? 1 : 0), reinterpret_cast<const void*>(middle), unsigned(middleEnd - middle),
                     &landed);
        const int t = int(threadIdx.x);
        if (t < headPixels) pixels[shift / 2 + t] = row[x0 + t];
        if (t >= 32 && tailFrom + t - 32 < x1) pixels[shift / 2 + tailFrom + t - 32 - x0] = row[tailFrom + t - 32];
        if (bulk) {
            barrierWait(&landed, phase);
            phase ^= 1;
        }
        __syncthreads();
        auto group = [&](int g) {  // the tile's group g (shift is alike in the block: no divergence)
            const int4 v = shift ? realign(buffer[g], buffer[g + 1], shift) : buffer[g];
            return clipToRow(v, x0 + g * kGroup, width);
        };
        // Each warp's run: whole rounds of 32 groups, runs in warp order.
        const int per = (ng + 32 * kRowWarps - 1) / (32 * kRowWarps) * 32;
        const int first = warp * per, last = min(ng, first + per);
        GroupSums own;
        for (int g = first + lane; g < last; g += 32) {
            const int4 word = group(g);
            const GroupSums s = groupSums(*reinterpret_cast<const std::int16_t(*)[kGroup]>(&word));
            own.z += s.z;
            own.z2 += s.z2;
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            own.z += __shfl_down_sync(kAll, own.z, o);
            own.z2 += __shfl_down_sync(kAll, own.z2, o);
        }
        if (lane == 0) warpTotals[warp] = own;
        __syncthreads();
        GroupSums before = carry;
        for (int w = 0; w < kRowWarps; ++w) {
            const GroupSums tw = warpTotals[w];
            if (w < warp) {
                before.z += tw.z;
                before.z2 += tw.z2;
            }
            carry.z += tw.z;
            carry.z2 += tw.z2;
        }
        for (int base = first; base < last; base += 32) {  // alike in the warp's lanes
            const int g = base + lane;
            snake::Checkpoint c{};
            if (g < last) *reinterpret_cast<int4*>(c.px) = group(g);
            const GroupSums s = groupSums(c.px), in = warpInclusive(s, lane);
            if (g < last) {
                c.z = before.z + in.z - s.z;
                c.z2 = before.z2 + in.z2 - s.z2;
                records[g0 + g] = c;
            }
            before.z += __shfl_sync(kAll, in.z, 31);
            before.z2 += __shfl_sync(kAll, in.z2, 31);
        }
        __syncthreads();  // the buffer and the warps' totals serve the next tile
        // The next bulk copy writes through the async proxy where these threads read.
        if (threadIdx.x == 0) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    if (threadIdx.x == 0) snakeexec::atomicAddSums(image, ExactSums{width, carry.z, carry.z2});
}

}  // namespace

void launchCheckpointScan(const std::int16_t* pixels, int width, int height, int pitch, snake::Checkpoint* out,
                          ExactSums* image, CheckpointScan scan, void* stream) {
    const int groups = snake::checkpointGroups(width);
    auto s = static_cast<cudaStream_t>(stream);
    const bool byRow = scan == CheckpointScan::Row || (scan == CheckpointScan::Auto && groups >= kRowFromGroups);
    if (byRow) {
        const std::size_t bytes = std::size_t(std::min(groups, kTileGroups) + 2) * sizeof(int4);
        blockRowKernel<<<height, kRowThreads, bytes, s>>>(pixels, width, pitch, groups, out, image);
    } else {
        const int rowsPerBlock = kWarpScanThreads / 32;
        warpRowsKernel<<<(height + rowsPerBlock - 1) / rowsPerBlock, kWarpScanThreads, 0, s>>>(
            pixels, width, height, pitch, groups, out, image);
    }
    launchCheck("snake cumulated images");
}

}  // namespace lucent::gpu
