/// @brief Runs rounds of a tile-propagation engine in batches that grow (1, 2, 4 ... 16 rounds)
/// between read-backs, and reads back what the steps of the viewer need: whether tiles are left
/// and the box of tiles that changed.
#pragma once

#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/core/seg/Segmenter.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace lucent::gpu {

class TileQueue;
struct TileQueueView;
class DeviceBuffer;

struct RoundsDone {
    int rounds = 0;               ///< rounds that had tiles to work on
    std::uint32_t tilesLeft = 0;  ///< tiles queued for the next round (0: converged)
    std::uint32_t visits = 0;     ///< tiles worked on, all rounds together
    std::optional<VoxelBox> changed;
};

/// A tile-propagation engine's rounds since its start, and what its steps report of them.
struct RoundTally {
    bool finished = true;  ///< no run, or the run converged or was cancelled
    int rounds = 0;        ///< rounds that had tiles to work on
    long long visits = 0;  ///< tiles worked on

    /// A new run: nothing done yet.
    void restart() { *this = RoundTally{false, 0, 0}; }
    /// Adds a batch of rounds: finished when no tile is left; the report's convergence (tiles left)
    /// and changed box.
    void add(const RoundsDone& done, StepReport& report) {
        rounds += done.rounds;
        visits += done.visits;
        finished = done.tilesLeft == 0;
        report.convergence = double(done.tilesLeft);
        report.changed = done.changed;
    }
    /// The report's iterations and end; its progress an estimate that nears 1 over about `pace` rounds.
    void fill(StepReport& report, int pace) const {
        report.iterations = rounds;
        report.finished = finished;
        report.progress = finished ? 1.0 : double(rounds) / double(rounds + pace);
    }
};

/// Pinned host memory and a device buffer for the figures of a round (a changed box, a count).
class RoundFigures {
public:
    RoundFigures();
    ~RoundFigures();
    RoundFigures(const RoundFigures&) = delete;
    RoundFigures& operator=(const RoundFigures&) = delete;
    /// Allocates on first use (engines are made before anything touches the device).
    void allocate();
    /// Device array: [0..2] lowest and [3..5] highest voxel of the changed tiles, [6] tile visits,
    /// [7] rounds that had work (kernels add to them: addChangedBox, countVisit, beginRound).
    std::uint32_t* device() const;
    std::uint32_t* host() const { return m_host; }

private:
    std::uint32_t* m_host = nullptr;
    std::unique_ptr<DeviceBuffer> m_device;
};

/// Launches up to `maxRounds` rounds (`launch` enqueues one on `stream` with the view it gets).
RoundsDone runRounds(TileQueue& queue, RoundFigures& figures, void* stream, int maxRounds,
                     const std::function<void(const TileQueueView&)>& launch);

}  // namespace lucent::gpu
