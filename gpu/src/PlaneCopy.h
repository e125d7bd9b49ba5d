/// @brief Device-side extraction of one plane of a resident volume into a packed 2D image.
#pragma once

#include "lucent/core/VolumePlane.h"

#include <array>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace lucent::gpu {

/// out (planeSize(plane, dims), i fastest) = the plane of `in` (x fastest on dims), bytes as they are.
void launchPlaneBytes(const std::uint8_t* in, std::array<int, 3> dims, VolumePlane plane, std::uint8_t* out, cudaStream_t stream);
/// The same for int16 voxels, written as value + 32768 (the slice shader's unsigned 16-bit texels).
void launchPlaneUnsigned16(const std::int16_t* in, std::array<int, 3> dims, VolumePlane plane, std::uint16_t* out,
                           cudaStream_t stream);

}  // namespace lucent::gpu
