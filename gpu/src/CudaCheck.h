/// @brief Turns CUDA errors into GpuError exceptions whose message says what was being done.
#pragma once

#include "lucent/core/Errors.h"

#include <cuda_runtime_api.h>

#include <string>

namespace lucent::gpu {

inline void cudaCheck(cudaError_t status, const std::string& what) {
    if (status != cudaSuccess) {
        cudaGetLastError();
        throw GpuError(what + ": " + cudaGetErrorString(status));
    }
}

/// After a kernel launch: a bad configuration shows here, a fault in the kernel at the next sync.
inline void launchCheck(const std::string& what) { cudaCheck(cudaGetLastError(), what); }

}  // namespace lucent::gpu
