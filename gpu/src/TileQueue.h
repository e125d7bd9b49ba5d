/// @brief The memory of a device worklist of active tiles (three queues, counts and per-tile
/// stamps) and the round it is at; the device side is TileQueueView in TileQueue.cuh.
#pragma once

#include "DeviceBuffer.h"

#include <cstdint>

namespace lucent::gpu {

struct TileQueueView;

/// Owns the queue memory for `tiles` tiles.
class TileQueue {
public:
    void allocate(std::uint32_t tiles, const char* what) {
        m_tiles = tiles;
        m_memory.reserve((3 * std::size_t(tiles) + 3 + tiles) * sizeof(std::uint32_t), what);
    }
    /// Empties every queue and forgets every stamp; the next round is 1.
    void reset(void* stream);
    /// The view for activating tiles before the next round (as if from round `round`).
    TileQueueView view() const;
    /// Moves to the next round; returns its view.
    TileQueueView advance();
    int round() const { return m_round; }
    /// Device address of the count of the queue the next round will read.
    const std::uint32_t* nextCount() const;
    std::uint32_t tiles() const { return m_tiles; }

private:
    DeviceBuffer m_memory;
    std::uint32_t m_tiles = 0;
    int m_round = 0;
};

}  // namespace lucent::gpu
