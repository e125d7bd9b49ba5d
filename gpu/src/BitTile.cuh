/// @brief Device helpers of the bit-tile layout (BitGrid): word addresses and the fill of runs.
#pragma once

#include "BitGrid.h"

#include <cstdint>

namespace lucent::gpu {

/// Index of the word holding voxels x = 32 wx .. 32 wx + 31 of row y, slice z.
__device__ __host__ inline std::size_t bitWord(const BitGrid& g, int wx, int y, int z) {
    const std::size_t tile = (std::size_t(z >> 5) * g.ty + std::size_t(y >> 5)) * g.tx + wx;
    return tile * 1024 + std::size_t(z & 31) * 32 + std::size_t(y & 31);
}

/// The word, or 0 outside the grid.
__device__ inline std::uint32_t bitWordOr0(const std::uint32_t* bits, const BitGrid& g, int wx, int y, int z) {
    if (wx < 0 || wx >= g.tx || y < 0 || y >= g.ny || z < 0 || z >= g.nz) return 0;
    return bits[bitWord(g, wx, y, z)];
}

/// Extends every set bit of `seeds` along the runs of `mask` it lies in, both ways (Kogge-Stone:
/// five doubling steps each way). `seeds` must be a subset of `mask`.
__device__ inline std::uint32_t fillRuns(std::uint32_t seeds, std::uint32_t mask) {
    std::uint32_t up = seeds, p = mask;
    up |= p & (up << 1);
    p &= p << 1;
    up |= p & (up << 2);
    p &= p << 2;
    up |= p & (up << 4);
    p &= p << 4;
    up |= p & (up << 8);
    p &= p << 8;
    up |= p & (up << 16);
    std::uint32_t down = seeds;
    p = mask;
    down |= p & (down >> 1);
    p &= p >> 1;
    down |= p & (down >> 2);
    p &= p >> 2;
    down |= p & (down >> 4);
    p &= p >> 4;
    down |= p & (down >> 8);
    p &= p >> 8;
    down |= p & (down >> 16);
    return up | down;
}

}  // namespace lucent::gpu
