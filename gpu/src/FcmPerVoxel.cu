/// @brief The per-voxel FCM pass: each pass evaluates every voxel's memberships (and those of the
/// previous centres, for the change), sums Eq. 3 per block, and after one grid barrier every block
/// adds the blocks' sums in block order, so all blocks hold the same centres without a second barrier.
#include "CudaCheck.h"
#include "FcmPerVoxel.h"
#include "lucent/core/seg/FcmMath.h"

#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <string>

namespace lucent::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kWidth = 2 * kPerVoxelMaxClusters + 1;  // num[c], den[c], change

struct MaxOp {
    __device__ double operator()(double a, double b) const { return fmax(a, b); }
};

struct Pass {
    const std::int16_t* volume;
    FcmScope s;
    bool flat;
    std::size_t n;
    int c;
    double m, epsilon;
    int budget;
    double* partials;  // [2 parities][blocks][kWidth]
    FcmState* state;
};

/// Adds one voxel of value x to the thread's sums: memberships for `at`, and (primed) the change
/// against the memberships for `before`.
__device__ void addVoxel(double x, const double* at, const double* before, bool primed, int c, double m, double* num,
                         double* den, double& change) {
    double u[kPerVoxelMaxClusters], v[kPerVoxelMaxClusters];
    fcmMemberships(x, at, c, m, u);
    if (primed) fcmMemberships(x, before, c, m, v);
#pragma unroll
    for (int k = 0; k < kPerVoxelMaxClusters; ++k) {
        if (k >= c) break;
        const double w = fcmPow(u[k], m);
        num[k] += w * x;
        den[k] += w;
        if (primed) change = fmax(change, fabs(u[k] - v[k]));
    }
}

__global__ void __launch_bounds__(kThreads) perVoxelKernel(Pass p) {
    namespace cg = cooperative_groups;
    using Reduce = cub::BlockReduce<double, kThreads>;
    __shared__ typename Reduce::TempStorage temp;
    __shared__ double centres[kPerVoxelMaxClusters], next[kPerVoxelMaxClusters], sums[kWidth];
    __shared__ int primed, stop, iterations, done;
    const int c = p.c;
    if (threadIdx.x < c) {
        centres[threadIdx.x] = p.state->centres[threadIdx.x];
        next[threadIdx.x] = p.state->next[threadIdx.x];
    }
    if (threadIdx.x == 0) {
        primed = p.state->primed;
        stop = p.state->finished;
        iterations = p.state->iterations;
        done = 0;
    }
    __syncthreads();
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (int parity = 0; !stop && done < p.budget; parity ^= 1) {
        // The first pass after start() sums from the first centres' memberships; later passes
        // evaluate `next` (the centres being tested) against `centres` (the latest iteration's).
        const bool isPrimed = primed != 0;
        const double* at = isPrimed ? next : centres;
        double num[kPerVoxelMaxClusters] = {}, den[kPerVoxelMaxClusters] = {}, change = 0;
        if (p.flat) {
            for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.n; i += stride)
                addVoxel(p.volume[i], at, centres, isPrimed, c, p.m, num, den, change);
        } else {
            const std::size_t plane = std::size_t(p.s.nx) * p.s.ny;
            for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.n; i += stride) {
                const int z = int(i / plane), y = int((i % plane) / p.s.nx), x = int(i % p.s.nx);
                if (p.s.included(x, y, z, i)) addVoxel(p.volume[i], at, centres, isPrimed, c, p.m, num, den, change);
            }
        }
        // The block's sums (a fixed reduction tree: the same inputs give the same bits).
        for (int j = 0; j < 2 * c + 1; ++j) {
            const double v = j < c ? num[j] : (j < 2 * c ? den[j - c] : change);
            const double total = j < 2 * c ? Reduce(temp).Sum(v) : Reduce(temp).Reduce(v, MaxOp{});
            if (threadIdx.x == 0) sums[j] = total;
            __syncthreads();
        }
        double* mine = p.partials + (std::size_t(parity) * gridDim.x + blockIdx.x) * kWidth;
        if (threadIdx.x < 2 * c + 1) mine[threadIdx.x] = sums[threadIdx.x];
        cg::this_grid().sync();
        // Every block adds the blocks' sums in block order: identical centres everywhere. Read
        // through L2 (__ldcg): two passes ago this block may have cached these addresses.
        const double* all = p.partials + std::size_t(parity) * gridDim.x * kWidth;
        if (threadIdx.x < 2 * c + 1) {
            const int j = threadIdx.x;
            double t = 0;
            for (int b = 0; b < int(gridDim.x); ++b) {
                const double v = __ldcg(all + std::size_t(b) * kWidth + j);
                t = j < 2 * c ? t + v : fmax(t, v);
            }
            sums[j] = t;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            double fresh[kPerVoxelMaxClusters];
            for (int k = 0; k < c; ++k) fresh[k] = sums[c + k] > 0 ? sums[k] / sums[c + k] : at[k];
            if (isPrimed) {  // `next` has been evaluated: that completes an iteration
                ++iterations;
                ++done;
                for (int k = 0; k < c; ++k) centres[k] = next[k];
                if (sums[2 * c] < p.epsilon || iterations >= p.state->maxIterations) stop = 1;
                if (blockIdx.x == 0) p.state->change = sums[2 * c];
            }
            for (int k = 0; k < c; ++k) next[k] = fresh[k];
            primed = 1;
        }
        __syncthreads();
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        for (int k = 0; k < c; ++k) {
            p.state->centres[k] = centres[k];
            p.state->next[k] = next[k];
        }
        p.state->primed = primed;
        p.state->iterations = iterations;
        p.state->finished = stop;
    }
}

}  // namespace

void runPerVoxelIterations(const std::int16_t* volume, const FcmScope& scope, int c, double m, double epsilon,
                           int budget, FcmState* state, DeviceBuffer& partials, void* stream) {
    if (c > kPerVoxelMaxClusters)
        throw GpuError("the CUDA per-voxel FCM path takes up to " + std::to_string(kPerVoxelMaxClusters) +
                       " clusters (the histogram path takes any number)");
    int device = 0, sms = 0, cooperative = 0, perSm = 0;
    cudaCheck(cudaGetDevice(&device), "FCM launch");
    cudaCheck(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "FCM launch");
    cudaCheck(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device), "FCM launch");
    if (!cooperative) throw GpuError("the CUDA per-voxel FCM path needs cooperative launch, which this device lacks");
    cudaCheck(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, perVoxelKernel, kThreads, 0), "FCM launch");
    if (perSm < 1) throw GpuError("the CUDA per-voxel FCM kernel does not fit on this device");
    const int blocks = sms * perSm;  // all resident at once, as a grid barrier needs
    partials.reserve(std::size_t(2) * blocks * kWidth * sizeof(double), "the FCM block sums");
    Pass p{volume, scope, scope.whole(), std::size_t(scope.nx) * scope.ny * scope.nz, c, m, epsilon,
           std::max(1, budget), partials.as<double>(), state};
    void* args[] = {&p};
    cudaCheck(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(perVoxelKernel), dim3(blocks), dim3(kThreads), args, 0,
                                          static_cast<cudaStream_t>(stream)),
              "FCM per-voxel iterations");
}

}  // namespace lucent::gpu
