/// @brief Turns CUDA errors into exceptions whose message says what was being done.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace lucent::gpu {

inline void cudaCheck(cudaError_t status, const std::string& what) {
    if (status != cudaSuccess) {
        cudaGetLastError();
        throw std::runtime_error(what + ": " + cudaGetErrorString(status));
    }
}

}  // namespace lucent::gpu
