/// @brief The memberships pass: the bytes that must move are the volume read once and c floats (plus
/// a label byte) written per voxel, so the flat kernel takes 8 voxels a thread in one 16-byte load
/// and writes each plane with two 16-byte stores.
#include "CudaCheck.h"
#include "FcmMembershipMaps.h"

#include <algorithm>

namespace lucent::gpu {

namespace {

struct MapsPass {
    const std::int16_t* volume;
    FcmScope s;
    std::size_t n, plane;  // voxels; floats per map
    int minValue, c;
    const std::uint8_t* binLabel;
    const float* binU;
    std::uint8_t* labels;
    float* maps;
};

/// The plain case: every voxel counts, n a multiple of 8 handled in chunks, the tail by block 0.
__global__ void flatMapsKernel(MapsPass p) {
    const auto* v8 = reinterpret_cast<const uint4*>(p.volume);
    const std::size_t chunks = p.n / 8;
    for (std::size_t ch = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; ch < chunks;
         ch += std::size_t(gridDim.x) * blockDim.x) {
        const uint4 q = v8[ch];
        const unsigned words[4] = {q.x, q.y, q.z, q.w};
        int bin[8];
#pragma unroll
        for (int w = 0; w < 4; ++w) {
            bin[2 * w] = int(std::int16_t(words[w] & 0xffffu)) - p.minValue;
            bin[2 * w + 1] = int(std::int16_t(words[w] >> 16)) - p.minValue;
        }
        if (p.labels) {
            unsigned packed[2] = {0, 0};
#pragma unroll
            for (int i = 0; i < 8; ++i) packed[i / 4] |= unsigned(p.binLabel[bin[i]]) << (8 * (i % 4));
            reinterpret_cast<uint2*>(p.labels)[ch] = make_uint2(packed[0], packed[1]);
        }
        for (int k = 0; k < p.c; ++k) {
            float u[8];
#pragma unroll
            for (int i = 0; i < 8; ++i) u[i] = p.binU[std::size_t(bin[i]) * p.c + k];
            auto* out = reinterpret_cast<float4*>(p.maps + std::size_t(k) * p.plane) + 2 * ch;
            out[0] = make_float4(u[0], u[1], u[2], u[3]);
            out[1] = make_float4(u[4], u[5], u[6], u[7]);
        }
    }
    if (blockIdx.x == 0)
        for (std::size_t i = chunks * 8 + threadIdx.x; i < p.n; i += blockDim.x) {
            const int bin = p.volume[i] - p.minValue;
            if (p.labels) p.labels[i] = p.binLabel[bin];
            for (int k = 0; k < p.c; ++k) p.maps[std::size_t(k) * p.plane + i] = p.binU[std::size_t(bin) * p.c + k];
        }
}

/// With an ROI or a mask: a voxel a thread, 0 outside the scope.
__global__ void scopedMapsKernel(MapsPass p) {
    const std::size_t slice = std::size_t(p.s.nx) * p.s.ny;
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.n;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const int z = int(i / slice), y = int((i % slice) / p.s.nx), x = int(i % p.s.nx);
        const bool in = p.s.included(x, y, z, i);
        const int bin = p.volume[i] - p.minValue;
        if (p.labels) p.labels[i] = in ? p.binLabel[bin] : 0;
        for (int k = 0; k < p.c; ++k) p.maps[std::size_t(k) * p.plane + i] = in ? p.binU[std::size_t(bin) * p.c + k] : 0.f;
    }
}

}  // namespace

void writeMembershipMaps(const std::int16_t* volume, const FcmScope& scope, int minValue, int c,
                         const std::uint8_t* binLabel, const float* binU, std::uint8_t* labels, float* maps,
                         void* stream) {
    const std::size_t n = std::size_t(scope.nx) * scope.ny * scope.nz;
    const MapsPass p{volume, scope, n, n, minValue, c, binLabel, binU, labels, maps};
    auto s = static_cast<cudaStream_t>(stream);
    // 16-byte stores need every plane 16-byte aligned: n a multiple of 4 (planes follow each other).
    const bool aligned = (reinterpret_cast<std::uintptr_t>(maps) & 15u) == 0 && n % 4 == 0 &&
                         (reinterpret_cast<std::uintptr_t>(labels) & 7u) == 0;
    if (scope.whole() && aligned) {
        const std::size_t threads = n / 8 + 1;
        flatMapsKernel<<<int(std::min<std::size_t>((threads + 255) / 256, 1u << 20)), 256, 0, s>>>(p);
    } else {
        scopedMapsKernel<<<int(std::min<std::size_t>((n + 255) / 256, 1u << 20)), 256, 0, s>>>(p);
    }
    launchCheck("FCM membership maps");
}

}  // namespace lucent::gpu
