/// @brief Device-side conversion of a resident int16 volume to the viewer's unsigned 16-bit texels.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace lucent::gpu {

/// out[i] = in[i] + 32768 (the unsigned 16-bit texel the slice shader reads back as value + offset).
void launchUnsignedTexels(const std::int16_t* in, std::uint16_t* out, std::size_t count, cudaStream_t stream);

}  // namespace lucent::gpu
