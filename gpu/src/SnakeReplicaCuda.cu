/// @brief The replicated-decision snake kernel (SnakeReplica.h): its executor over one block's
/// threads and shared memory, cooperative groups for the one grid barrier of a stage.
#include "CudaCheck.h"
#include "SnakeExecParts.cuh"
#include "SnakeReplicaCuda.h"

#include "lucent/gpu/programs/SnakeReplica.h"

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdlib>

namespace lucent::gpu {

namespace {



/// SnakeReplica.h's executor for blocks of T threads: loops over the block's threads, warp jobs
/// reduced by shuffles and added into shared memory, CUB block scans, the block's counters in
/// shared memory.
template <int T>
struct ReplicaExec {
    static constexpr int kThreads = T;
    static_assert(T / 32 <= snake::kMaxWarps, "a row of Replica::acc a warp");
    __device__ int block() const { return blockIdx.x; }
    __device__ int blocks() const { return gridDim.x; }
    /// The blocks an item's parts spread over: all of them.
    __device__ int spread() const { return gridDim.x; }
    __device__ int warps() const { return kThreads / 32; }
    /// Adds into global memory (unsigned atomics add signed values exactly).
    __device__ void globalAdd(ExactSums* to, const ExactSums& v) { snakeexec::atomicAddSums(to, v); }
    /// Block-wide, after the block's globalAdds of `done` of an item's `parts`: true in the block
    /// that completes the item, which then sees every part (the threadFenceReduction pattern).
    __device__ bool lastToArrive(int* arrivals, int done, int parts) {
        __shared__ int last;
        __threadfence();  // this thread's adds before the arrival
        __syncthreads();
        if (threadIdx.x == 0) {
            last = atomicAdd(arrivals, done) + done == parts;
            if (last) __threadfence();
        }
        __syncthreads();
        return last;
    }
    __device__ long long clock() const { return clock64(); }
    __device__ void blockSync() { __syncthreads(); }
    /// Orders shared memory among warp 0's threads: blockFor(n) with n <= 32 runs there.
    __device__ void warpSync() { __syncwarp(); }
    __device__ void gridSync() { cooperative_groups::this_grid().sync(); }
    template <class F>
    __device__ void blockFor(long long n, F&& f) {
        for (long long i = threadIdx.x; i < n; i += kThreads) f(i);
    }
    template <class F>
    __device__ void blockJobs(long long jobs, F&& f) {
        const int lane = threadIdx.x & 31;
        for (long long job = threadIdx.x >> 5; job < jobs; job += kThreads / 32) {
            ExactSums out{};
            ExactSums* target = f(job, lane, 32, out);
            if (target) snakeexec::addWarpSums(out, target, lane);  // target: the same for every lane of the warp
        }
    }
    __device__ int warp() const { return int(threadIdx.x) >> 5; }
    /// blockJobs into targets of the warp's own (f returns one only its warp adds to): the warp's
    /// jobs two at a time (f straight-line code, so both loads are in flight at once), their sums
    /// kept in the lanes while the target stays the same (a long segment's chunks) and reduced by
    /// shuffles and added by lane 0, without atomics, when it changes.
    template <class F>
    __device__ void warpJobs(long long jobs, F&& f) {
        constexpr int W = kThreads / 32;
        const int lane = threadIdx.x & 31;
        ExactSums held{};
        ExactSums* heldFor = nullptr;
        auto flush = [&] {  // the held sums reduced by shuffles, added by lane 0
            if (!heldFor) return;
            const ExactSums total = snakeexec::warpSums(held);
            if (lane == 0) *heldFor += total;
        };
        auto add = [&](ExactSums* target, const ExactSums& out) {
            if (!target) return;  // the same for every lane of the warp
            if (target != heldFor) {
                flush();
                heldFor = target;
                held = ExactSums{};
            }
            held += out;
        };
        long long job = threadIdx.x >> 5;
        for (; job + W < jobs; job += 2 * W) {
            ExactSums a{}, b{};
            ExactSums* ta = f(job, lane, 32, a);
            ExactSums* tb = f(job + W, lane, 32, b);
            add(ta, a);
            add(tb, b);
        }
        if (job < jobs) {
            ExactSums a{};
            add(f(job, lane, 32, a), a);
        }
        flush();
    }
    /// Exclusive prefix over [0, n) in passes of the block with a carry; every thread gets the total.
    template <class V, class Get, class Put>
    __device__ V blockScan(int n, Get&& get, Put&& put) {
        return snakeexec::scanWithCarry<kThreads, V>(n, get, put);
    }
    /// blockScan for a cheap get (a speculation round's): a stage's few dozen items on warp 0.
    template <class V, class Get, class Put>
    __device__ V cheapScan(int n, Get&& get, Put&& put) {
        if (n <= snakeexec::kWarpZeroScanItems) return snakeexec::scanWarpZero<V>(n, get, put);
        return snakeexec::scanWithCarry<kThreads, V>(n, get, put);
    }
    /// blockScan of 0/1 flags: for n up to a flag a thread, a ballot a warp and one barrier (the
    /// move stage's stale scan, whose get reads four nodes' stamps: once here, on its own thread).
    template <class Get, class Put>
    __device__ int flagScan(int n, Get&& get, Put&& put) {
        if (n > kThreads) return blockScan<int>(n, get, put);
        __shared__ int warpCounts[kThreads / 32];
        const int t = int(threadIdx.x), lane = t & 31, w = t >> 5;
        const unsigned flags = __ballot_sync(0xffffffffu, t < n && get(t));
        if (lane == 0) warpCounts[w] = __popc(flags);
        __syncthreads();
        int before = __popc(flags & ((1u << lane) - 1u)), all = 0;
#pragma unroll
        for (int k = 0; k < kThreads / 32; ++k) {
            const int c = warpCounts[k];
            all += c;
            before += k < w ? c : 0;
        }
        if (t < n) put(t, before);
        __syncthreads();  // warpCounts serve the next scan
        return all;
    }
    __device__ int* sharedInt(int which) {
        __shared__ int counters[snake::kReplicaInts];
        return counters + which;
    }
    /// A counter after a barrier (volatile: not kept in a register across it).
    __device__ int readSharedInt(int which) { return *static_cast<volatile int*>(sharedInt(which)); }
    __device__ int atomicAddInt(int* p, int v) { return atomicAdd(p, v); }
    __device__ void atomicMinInt(int* p, int v) { atomicMin(p, v); }
    __device__ void atomicMaxInt(int* p, int v) { atomicMax(p, v); }
    __device__ void atomicSetInt(int* p, int v) { atomicExch(p, v); }
    __device__ int atomicExchInt(int* p, int v) { return atomicExch(p, v); }
};

template <int T>
__global__ void __launch_bounds__(T, 1) replicaKernel(snake::ReplicaProgram p, int capacity) {
    extern __shared__ __align__(16) unsigned char memory[];
    snake::Replica r;
    snake::replicaLayout(memory, capacity, &r);
    ReplicaExec<T> ex;
    snake::runReplica(ex, p, r);
}

/// Threads a block: 384 leaves room for 170 registers a thread, so nothing spills, where 512 spill
/// and ran slower (BENCHMARKS.md, a0553ea): fixed at the measured best.
constexpr int kReplicaThreads = 384;

void* replicaEntry() { return reinterpret_cast<void*>(replicaKernel<kReplicaThreads>); }

}  // namespace

SnakeReplicaShape snakeReplicaShape(int most) {
    int device = 0, sms = 0, optin = 0, perSm = 0, cooperative = 0;
    cudaCheck(cudaGetDevice(&device), "snake launch");
    cudaCheck(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "snake launch");
    cudaCheck(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "snake launch");
    cudaCheck(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device), "snake launch");
    SnakeReplicaShape shape;
    if (!cooperative) return shape;
    cudaFuncAttributes attributes{};
    cudaCheck(cudaFuncGetAttributes(&attributes, replicaEntry()), "snake launch");
    const std::size_t room = std::size_t(optin) > attributes.sharedSizeBytes ? optin - attributes.sharedSizeBytes : 0;
    // As many nodes as fit beside the kernel's own shared memory, in steps of 32.
    int capacity = 32;
    while (snake::replicaLayout(nullptr, capacity + 32, nullptr) <= room && (most <= 0 || capacity + 32 <= most))
        capacity += 32;
    if (most > 0) capacity = std::min(capacity, most);
    if (snake::replicaLayout(nullptr, capacity, nullptr) > room || capacity < 8) return shape;
    shape.bytes = snake::replicaLayout(nullptr, capacity, nullptr);
    cudaCheck(cudaFuncSetAttribute(replicaEntry(), cudaFuncAttributeMaxDynamicSharedMemorySize, int(shape.bytes)),
              "snake launch");
    cudaCheck(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, replicaEntry(), kReplicaThreads, shape.bytes),
              "snake launch");
    if (perSm < 1) return shape;
    shape.capacity = capacity;
    shape.maxBlocks = perSm * sms;
    return shape;
}

void launchSnakeReplica(const snake::ReplicaProgram& program, const SnakeReplicaShape& shape, int blocks,
                        void* stream) {
    snake::ReplicaProgram p = program;
    int capacity = shape.capacity;
    void* args[] = {&p, &capacity};
    cudaCheck(cudaLaunchCooperativeKernel(replicaEntry(), dim3(std::min(blocks, shape.maxBlocks)),
                                          dim3(kReplicaThreads), args, shape.bytes, static_cast<cudaStream_t>(stream)),
              "snake steps");
}

}  // namespace lucent::gpu
