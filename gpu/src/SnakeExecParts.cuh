/// @brief Device pieces both snake kernels' executors use: a warp's sums added into a target with
/// exact 64-bit atomics, and a block scan in passes with a carry.
#pragma once

#include "lucent/core/seg/SnakeCriterion.h"

#include <cub/block/block_scan.cuh>

namespace lucent::gpu::snakeexec {

struct Plus {
    template <class T>
    __device__ T operator()(const T& a, const T& b) const {
        return a + b;
    }
};

/// Adds `v` to `*to` with atomics (two's complement: unsigned atomics add signed values exactly).
__device__ inline void atomicAddSums(ExactSums* to, const ExactSums& v) {
    atomicAdd(reinterpret_cast<unsigned long long*>(&to->n), static_cast<unsigned long long>(v.n));
    atomicAdd(reinterpret_cast<unsigned long long*>(&to->sz), static_cast<unsigned long long>(v.sz));
    atomicAdd(reinterpret_cast<unsigned long long*>(&to->sz2), static_cast<unsigned long long>(v.sz2));
}

/// The warp's `out` summed by shuffles: the total in lane 0 (every lane calls it).
__device__ inline ExactSums warpSums(ExactSums out) {
    for (int o = 16; o > 0; o >>= 1) {
        out.n += __shfl_down_sync(0xffffffffu, out.n, o);
        out.sz += __shfl_down_sync(0xffffffffu, out.sz, o);
        out.sz2 += __shfl_down_sync(0xffffffffu, out.sz2, o);
    }
    return out;
}

/// The warp's `out` summed by shuffles and added to `*target` by lane 0 (every lane calls it).
__device__ inline void addWarpSums(ExactSums out, ExactSums* target, int lane) {
    out = warpSums(out);
    if (lane == 0) atomicAddSums(target, out);
}

/// Exclusive prefix over [0, n) in passes of a block of `Threads` threads with a carry: put(i, the
/// sum before i); every thread gets the total.
template <int Threads, class V, class Get, class Put>
__device__ V scanWithCarry(int n, Get&& get, Put&& put) {
    using Scan = cub::BlockScan<V, Threads, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename Scan::TempStorage temp;
    V carry{};
    for (int base = 0; base < n; base += Threads) {
        const int i = base + int(threadIdx.x);
        const V v = i < n ? get(i) : V{};
        V before{}, all{};
        Scan(temp).ExclusiveScan(v, before, V{}, Plus{}, all);
        if (i < n) put(i, carry + before);
        carry = carry + all;
        __syncthreads();  // temp is reused by the next pass
    }
    return carry;
}

/// Lane `lane - o`'s value (a lane below o keeps its own).
__device__ inline int shflUp(int v, int o) { return __shfl_up_sync(0xffffffffu, v, o); }
__device__ inline ExactSums shflUp(const ExactSums& v, int o) {
    return {__shfl_up_sync(0xffffffffu, v.n, o), __shfl_up_sync(0xffffffffu, v.sz, o),
            __shfl_up_sync(0xffffffffu, v.sz2, o)};
}

/// Most items scanWarpZero takes: 8 a lane.
constexpr int kWarpZeroScanItems = 256;

/// scanWithCarry's result for n <= kWarpZeroScanItems on warp 0 alone: each lane takes a run of
/// consecutive items, a warp scan of the runs' totals by shuffles, and one block barrier to hand
/// the total to every thread. (A CUB block scan of 384 threads costs two barriers and a warp
/// scan in every warp, for the few dozen items a replica stage has.) get(i) is called twice for
/// each item, both times before put(i), on the same thread: for cheap get only (a get that reads
/// four nodes' stamps, as the move stage's stale scan does, made it slower than the block scan;
/// BENCHMARKS.md, commit 88e9ab8).
template <class V, class Get, class Put>
__device__ V scanWarpZero(int n, Get&& get, Put&& put) {
    __shared__ __align__(16) unsigned char totalBytes[sizeof(V)];
    V* total = reinterpret_cast<V*>(totalBytes);
    if (threadIdx.x < 32) {
        __syncwarp();  // what warp 0's threads wrote before (counters reset by one thread) is seen by all
        const int lane = int(threadIdx.x), per = (n + 31) / 32;
        const int first = min(n, lane * per), last = min(n, first + per);
        V own{};
        for (int i = first; i < last; ++i) own = own + get(i);
        V in = own;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const V below = shflUp(in, o);
            if (lane >= o) in = in + below;
        }
        V before = in - own;
        for (int i = first; i < last; ++i) {
            const V v = get(i);
            put(i, before);
            before = before + v;
        }
        if (lane == 31) *total = in;
    }
    __syncthreads();
    const V all = *total;
    __syncthreads();  // total serves the next scan
    return all;
}

}  // namespace lucent::gpu::snakeexec
