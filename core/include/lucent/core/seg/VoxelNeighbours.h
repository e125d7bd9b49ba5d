/// @brief 6- and 26-neighbour offsets and the in-bounds test shared by the voxel engines.
#pragma once

#include "lucent/core/seg/HostDevice.h"

namespace lucent {

/// Offsets (di, dj, dk): the 6 face neighbours first, then the 20 edge and corner neighbours.
constexpr int kNeighbourOffsets[26][3] = {
    {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1},
    {-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}, {1, 1, 0}, {-1, 0, -1}, {1, 0, -1}, {-1, 0, 1}, {1, 0, 1},
    {0, -1, -1}, {0, 1, -1}, {0, -1, 1}, {0, 1, 1}, {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
    {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}};

}  // namespace lucent
