/// @brief The bit-tile layout of region growing's mask and region (BitTile.cuh has its device helpers).
#pragma once

#include <cstddef>
#include <cstdint>

namespace lucent::gpu {

/// Bit-tile layout: a tile is one 32-voxel word along x by 32 rows (y) by 32 slices (z), stored
/// contiguously (1024 words) so a block loads its tile in one coalesced sweep.
struct BitGrid {
    int nx = 0, ny = 0, nz = 0;
    int tx = 0, ty = 0, tz = 0;  // tiles along x (words), y, z
    std::uint32_t tiles() const { return std::uint32_t(tx) * ty * tz; }
    std::size_t words() const { return std::size_t(tiles()) * 1024; }
};

}  // namespace lucent::gpu
