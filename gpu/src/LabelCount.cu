/// @brief One pass of 16-byte loads; per-byte compares by SIMD intrinsics, warp sums, one atomic
/// per warp.
#include "LabelCount.h"

#include "CudaCheck.h"

#include <cuda_runtime.h>

namespace lucent::gpu {

namespace {

__device__ unsigned nonZeroBytes(unsigned w) { return __popc(__vcmpne4(w, 0u)) / 8; }  // 0xff per non-zero byte

__global__ void countKernel(const std::uint8_t* labels, std::size_t n, unsigned long long* counter) {
    const std::size_t vectors = n / 16;
    const uint4* v = reinterpret_cast<const uint4*>(labels);
    unsigned long long mine = 0;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < vectors; i += std::size_t(gridDim.x) * blockDim.x) {
        const uint4 q = v[i];
        mine += nonZeroBytes(q.x) + nonZeroBytes(q.y) + nonZeroBytes(q.z) + nonZeroBytes(q.w);
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 16) mine += labels[vectors * 16 + threadIdx.x] != 0;
    for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xffffffffu, mine, offset);
    if ((threadIdx.x & 31) == 0 && mine) atomicAdd(counter, mine);
}

}  // namespace

std::uint64_t countNonZeroOnDevice(const std::uint8_t* labels, std::size_t n, void* stream, void* counter) {
    auto s = static_cast<cudaStream_t>(stream);
    auto* c = static_cast<unsigned long long*>(counter);
    cudaCheck(cudaMemsetAsync(c, 0, sizeof *c, s), "label count");
    // cudaMalloc'd buffers are 256-byte aligned, so the 16-byte loads are too.
    const std::size_t vectors = n / 16;
    const int threads = 256;
    const int blocks = int(std::min<std::size_t>(std::max<std::size_t>(1, (vectors + threads - 1) / threads), 1024));
    countKernel<<<blocks, threads, 0, s>>>(labels, n, c);
    launchCheck("label count");
    unsigned long long host = 0;
    cudaCheck(cudaMemcpyAsync(&host, c, sizeof host, cudaMemcpyDeviceToHost, s), "label count");
    cudaCheck(cudaStreamSynchronize(s), "label count");
    return host;
}

}  // namespace lucent::gpu
