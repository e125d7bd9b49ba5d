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

}  // namespace lucent::gpu::snakeexec
