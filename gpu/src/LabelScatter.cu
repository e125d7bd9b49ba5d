/// @brief One thread a packed voxel: its index in the low 63 bits, its label in the top bit (LabelScatter.h).
#include "LabelScatter.h"

#include "CudaCheck.h"

#include <cuda_runtime.h>

#include <algorithm>

namespace lucent::gpu {

namespace {

constexpr std::uint64_t kVoxelBits = ~std::uint64_t(0) >> 1;

__global__ void setLabelsKernel(std::uint8_t* labels, const std::uint64_t* voxels, std::size_t count) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x) {
        const std::uint64_t v = voxels[i];
        labels[v & kVoxelBits] = std::uint8_t(v >> 63);
    }
}

}  // namespace

void setLabelsAtOnDevice(std::uint8_t* labels, const std::uint64_t* voxels, std::size_t count, void* stream) {
    if (count == 0) return;
    const int threads = 256;
    const int blocks = int(std::min<std::size_t>((count + threads - 1) / threads, 4096));
    setLabelsKernel<<<blocks, threads, 0, static_cast<cudaStream_t>(stream)>>>(labels, voxels, count);
    launchCheck("label scatter");
}

}  // namespace lucent::gpu
