/// @brief One thread a cell over the device label buffer (LabelReductionCuda.h).
#include "LabelReductionCuda.h"

#include "CudaCheck.h"

#include <cuda_runtime.h>

#include <algorithm>

namespace lucent::gpu {

namespace {

__global__ void reduceKernel(const std::uint8_t* labels, int nx, int ny, int nz, int f, int cx, int cy, std::size_t cells,
                             std::uint8_t* out) {
    for (std::size_t c = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; c < cells; c += std::size_t(gridDim.x) * blockDim.x) {
        const int ci = int(c % std::size_t(cx)), cj = int((c / std::size_t(cx)) % std::size_t(cy));
        const int ck = int(c / (std::size_t(cx) * std::size_t(cy)));
        out[c] = reducedCell(labels, nx, ny, nz, f, ci, cj, ck);
    }
}

}  // namespace

void reduceLabelsOnDevice(const std::uint8_t* labels, const LabelReduction& plan, std::uint8_t* cells, void* stream) {
    const std::size_t n = plan.cellCount();
    if (!n) return;
    const int threads = 256;
    const int blocks = int(std::min<std::size_t>((n + threads - 1) / threads, 65535));
    reduceKernel<<<blocks, threads, 0, static_cast<cudaStream_t>(stream)>>>(labels, plan.fine[0], plan.fine[1], plan.fine[2],
                                                                             plan.factor, plan.cells[0], plan.cells[1], n, cells);
    launchCheck("label reduction");
}

}  // namespace lucent::gpu
