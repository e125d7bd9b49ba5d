/// @brief int16 -> unsigned 16-bit texels on the device (a bandwidth-bound pass: 4 bytes per voxel).
#include "VolumeTextureFill.h"

#include "CudaCheck.h"

namespace lucent::gpu {

namespace {

__global__ void unsignedTexels(const short2* in, ushort2* out, std::size_t pairs) {
    // Two voxels per thread: 32-bit loads and stores, so the pass runs near the memory's bandwidth.
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < pairs; i += std::size_t(gridDim.x) * blockDim.x) {
        const short2 v = in[i];
        out[i] = make_ushort2(static_cast<unsigned short>(v.x + 32768), static_cast<unsigned short>(v.y + 32768));
    }
}

__global__ void unsignedTail(const std::int16_t* in, std::uint16_t* out, std::size_t at) {
    out[at] = static_cast<std::uint16_t>(in[at] + 32768);
}

}  // namespace

void launchUnsignedTexels(const std::int16_t* in, std::uint16_t* out, std::size_t count, cudaStream_t stream) {
    const std::size_t pairs = count / 2;
    if (pairs) {
        const unsigned blocks = unsigned(std::min<std::size_t>((pairs + 255) / 256, 132 * 32));
        unsignedTexels<<<blocks, 256, 0, stream>>>(reinterpret_cast<const short2*>(in), reinterpret_cast<ushort2*>(out), pairs);
    }
    if (count % 2) unsignedTail<<<1, 1, 0, stream>>>(in, out, count - 1);
    launchCheck("filling the volume texture");
}

}  // namespace lucent::gpu
