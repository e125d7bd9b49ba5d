/// @brief The 3D snake's states on their way from the worker to the scrubber (Snake3dHistory): after the
/// engine's start and after each step the worker copies the level set (Segmenter::copyLevelSet, a download
/// for CUDA) and queues the bits that changed since the state before, with the state's labelled voxels and
/// its inside / outside statistics, kept up to date by the flips; the GUI takes the queue every frame. A
/// frame never waits for a download or a pass over the domain. Qt-free.
#pragma once

#include "lucent/core/seg/Segmenter.h"
#include "lucent/ui/Snake3dHistory.h"

#include <cstdint>
#include <mutex>
#include <vector>

namespace lucent::ui {

class Snake3dSteps {
public:
    /// For a run on `request` (its volume and mask outlive the run). The queue holds at most `boundBytes`
    /// of flips: past it the oldest states go, and the history begins again after them.
    Snake3dSteps(const SegmentationRequest& request, std::size_t boundBytes);
    /// On the worker: the engine after its start, a step or a restart. A level set that cannot be copied
    /// (a device fault) is a state lost: the next one begins the history again.
    void observe(const Segmenter& engine, int iteration);
    /// On the GUI: the states queued since the last take, oldest first.
    std::vector<Snake3dState> take();
    /// The level set of the latest state queued, its domain and its serial: what the scrubber flips back from.
    void latest(std::vector<std::uint64_t>& words, VoxelBox& domain, std::uint64_t& serial) const;

private:
    /// A first state: its voxels and the statistics over the whole domain.
    void countAll(Snake3dState& s);
    /// A next state: the flips from the last one, and the voxels and statistics they change.
    void countFlips(Snake3dState& s);
    double value(std::size_t voxel) const;
    std::size_t voxelOf(std::uint64_t bit) const;

    const Volume* m_volume;
    const LabelMap* m_mask;
    std::size_t m_bound;
    // the worker's: the last state's level set (read by latest() under the lock) and the next one's
    std::vector<std::uint64_t> m_words, m_next;
    VoxelBox m_domain;
    Snake3dShape m_shape;
    bool m_broken = true;  // the next state is a first one
    std::size_t m_voxels = 0;
    Snake3dContrast m_contrast;
    mutable std::mutex m_mutex;
    std::uint64_t m_serial = 0;
    std::vector<Snake3dState> m_queue;
    std::size_t m_queuedBytes = 0;
};

}  // namespace lucent::ui
