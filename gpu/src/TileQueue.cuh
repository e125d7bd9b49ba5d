/// @brief A worklist of active tiles for rounds of tile-wise propagation, kept entirely on the
/// device: round r reads queue r%3 and appends the tiles it activates to queue (r+1)%3, and
/// empties queue (r+2)%3 for the round after (three queues, so no round waits on the host).
#pragma once

#include "TileQueue.h"

#include <cstdint>

namespace lucent::gpu {

/// Device view of the queues; passed by value to kernels.
struct TileQueueView {
    std::uint32_t* items;   // three queues of `tiles` entries, one after the other
    std::uint32_t* counts;  // [3]
    std::uint32_t* stamp;   // per tile: the last round it was queued for
    std::uint32_t tiles;
    int round;              // the round being run (>= 1)

    __device__ std::uint32_t size() const { return counts[round % 3]; }
    __device__ std::uint32_t at(std::uint32_t i) const { return items[std::size_t(round % 3) * tiles + i]; }
    /// Queues `tile` for round + 1 once, however many neighbours ask.
    __device__ void activate(std::uint32_t tile) const {
        const std::uint32_t next = std::uint32_t(round + 1);
        const int slot = (round + 1) % 3;
        if (atomicMax(&stamp[tile], next) < next) items[std::size_t(slot) * tiles + atomicAdd(&counts[slot], 1u)] = tile;
    }
    /// Queues the tile at (tx, ty, tz) and the 26 around it (those inside the grid of `tiles`): a
    /// seed on a tile's face is in its neighbour's halo, and only gains would queue the neighbour.
    __device__ void activateAround(int tx, int ty, int tz, int tilesX, int tilesY, int tilesZ) const {
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const int x = tx + dx, y = ty + dy, z = tz + dz;
                    if (x >= 0 && y >= 0 && z >= 0 && x < tilesX && y < tilesY && z < tilesZ)
                        activate((std::uint32_t(z) * tilesY + std::uint32_t(y)) * tilesX + std::uint32_t(x));
                }
    }
    /// Called by one thread of the round: empties the queue of round + 2.
    __device__ void resetAfterNext() const { counts[(round + 2) % 3] = 0; }
};

/// Widens the changed box of RoundFigures to hold voxels lo..hi.
__device__ inline void addChangedBox(std::uint32_t* figures, int x0, int y0, int z0, int x1, int y1, int z1) {
    atomicMin(&figures[0], std::uint32_t(x0));
    atomicMin(&figures[1], std::uint32_t(y0));
    atomicMin(&figures[2], std::uint32_t(z0));
    atomicMax(&figures[3], std::uint32_t(x1));
    atomicMax(&figures[4], std::uint32_t(y1));
    atomicMax(&figures[5], std::uint32_t(z1));
}

/// The faces of a TX x TY x TZ tile that a changed voxel at (x, y, z) of it lies on (bits 0-5: -x, +x,
/// -y, +y, -z, +z), with bit 6 set: the tile changed. A block ORs its threads' bits for spreadFromTile.
template <int TX, int TY, int TZ>
__device__ inline std::uint32_t changedFaces(int x, int y, int z) {
    return 64u | (x == 0 ? 1u : 0u) | (x == TX - 1 ? 2u : 0u) | (y == 0 ? 4u : 0u) | (y == TY - 1 ? 8u : 0u) |
           (z == 0 ? 16u : 0u) | (z == TZ - 1 ? 32u : 0u);
}

/// After tile (bx, by, bz) of a grid of g.tx x g.ty x g.tz tiles changed (`faces`: its changedFaces, ORed):
/// threads 0-5 queue the neighbour across each face that changed, thread 6 widens the changed box by the
/// tile. Voxels on a face are in the neighbour's halo, so only those neighbours can gain.
template <int TX, int TY, int TZ, class Grid>
__device__ inline void spreadFromTile(const TileQueueView& queue, std::uint32_t* figures, const Grid& g,
                                      std::uint32_t faces, int tid, int bx, int by, int bz) {
    if (!faces) return;
    if (tid < 6) {
        const int axis = tid / 2, dir = tid % 2 ? 1 : -1;
        const int nx = bx + (axis == 0 ? dir : 0), ny = by + (axis == 1 ? dir : 0), nz = bz + (axis == 2 ? dir : 0);
        if ((faces & (1u << tid)) && nx >= 0 && ny >= 0 && nz >= 0 && nx < g.tx && ny < g.ty && nz < g.tz)
            queue.activate((std::uint32_t(nz) * g.ty + std::uint32_t(ny)) * g.tx + std::uint32_t(nx));
    }
    if (tid == 6) {
        const int x0 = bx * TX, y0 = by * TY, z0 = bz * TZ;
        addChangedBox(figures, x0, y0, z0, min(g.nx - 1, x0 + TX - 1), min(g.ny - 1, y0 + TY - 1),
                      min(g.nz - 1, z0 + TZ - 1));
    }
}

/// Called by one thread per tile a block works on: counts the visits (figures[6]).
__device__ inline void countVisit(std::uint32_t* figures) { atomicAdd(&figures[6], 1u); }

/// Called by one thread of a round: counts it when it has tiles, and empties the queue of
/// the round after next.
__device__ inline void beginRound(const TileQueueView& queue, std::uint32_t* figures) {
    if (queue.size() > 0) atomicAdd(&figures[7], 1u);
    queue.resetAfterNext();
}

}  // namespace lucent::gpu
