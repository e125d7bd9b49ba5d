/// @brief 6- and 26-neighbour offsets and the in-bounds test shared by the voxel engines.
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/seg/HostDevice.h"

#include <cstddef>

namespace lucent {

/// Offsets (di, dj, dk): the 6 face neighbours first, then the 20 edge and corner neighbours.
constexpr int kNeighbourOffsets[26][3] = {
    {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1},
    {-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}, {1, 1, 0}, {-1, 0, -1}, {1, 0, -1}, {-1, 0, 1}, {1, 0, 1},
    {0, -1, -1}, {0, 1, -1}, {0, -1, 1}, {0, 1, 1}, {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
    {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}};

/// Calls f(ni, nj, nk, u) for each face neighbour inside the grid of the voxel at linear index `v`
/// (u: the neighbour's linear index). Host code: the CPU engines' propagations.
template <class F>
void forEachFaceNeighbour(const Geometry& g, std::size_t v, F&& f) {
    const int i = int(v % std::size_t(g.dims[0])), j = int((v / std::size_t(g.dims[0])) % std::size_t(g.dims[1])),
              k = int(v / g.sliceSize());
    for (int n = 0; n < 6; ++n) {
        const int ni = i + kNeighbourOffsets[n][0], nj = j + kNeighbourOffsets[n][1], nk = k + kNeighbourOffsets[n][2];
        if (g.contains(ni, nj, nk)) f(ni, nj, nk, g.index(ni, nj, nk));
    }
}

}  // namespace lucent
