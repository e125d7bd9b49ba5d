/// @brief Counting labelled voxels where they are: on the device, so the viewer's live voxel count
/// and mL never download the label map (reading it on the device costs far less than a download).
#pragma once

#include <cstddef>
#include <cstdint>

namespace lucent::gpu {

/// Non-zero bytes among the `n` bytes at device pointer `labels`, on `stream` (a cudaStream_t);
/// `counter` is 8 bytes of device memory for the result. Waits for the result.
std::uint64_t countNonZeroOnDevice(const std::uint8_t* labels, std::size_t n, void* stream, void* counter);

}  // namespace lucent::gpu
