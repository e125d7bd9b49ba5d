/// @brief The 3D snake's states on their way from the worker to the scrubber (Snake3dHistory): after the
/// engine's start and after each step the worker copies the level set (Segmenter::copyLevelSet, a download
/// for CUDA), and a thread of this object's own turns the copy into a state: the bits that changed since
/// the state before, the state's labelled voxels and its inside / outside statistics (of the values the run
/// saw: clamped to its clip), kept up to date by the flips. The GUI takes the states every frame. Neither a
/// frame nor the engine's lock waits for the state's pass over the domain; the worker waits only when it
/// would copy a level set before the thread has taken the last one (steps faster than states: every step
/// is kept). Qt-free.
#pragma once

#include "lucent/core/seg/Segmenter.h"
#include "lucent/core/seg/Snake3dWords.h"
#include "lucent/ui/Snake3dHistory.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace lucent::ui {

class Snake3dSteps {
public:
    /// For a run on `request` (its volume and mask outlive this object). The queue holds at most
    /// `boundBytes` of flips: past it the oldest states go, and the history begins again after them.
    Snake3dSteps(const SegmentationRequest& request, std::size_t boundBytes);
    /// Stops the thread (a state in the making is dropped).
    ~Snake3dSteps();
    Snake3dSteps(const Snake3dSteps&) = delete;
    Snake3dSteps& operator=(const Snake3dSteps&) = delete;

    /// On the worker: the engine after its start, a step or a restart; copies its level set. A level set
    /// that cannot be copied (a device fault) is a state lost: the next one begins the history again.
    void observe(const Segmenter& engine, int iteration);
    /// Waits until every level set observed is a state in the queue (a paused run's last step, a run's end).
    void flush();
    /// On the GUI: the states queued since the last take, oldest first.
    std::vector<Snake3dState> take();
    /// The level set of the latest state queued, its domain and its serial: what the scrubber flips back from.
    void latest(std::vector<std::uint64_t>& words, VoxelBox& domain, std::uint64_t& serial) const;

private:
    void run();  // the thread: copies into states
    /// A first state: its voxels and the statistics over the whole domain.
    void countAll(Snake3dState& s);
    /// A next state: the flips from the last one, and the voxels and statistics they change.
    void countFlips(Snake3dState& s);
    void enqueue(Snake3dState s);
    /// A voxel's value as the run sees it (clamped to its clip, Snake3dClamp).
    double value(std::size_t voxel, bool integer) const;

    const Volume* m_volume;
    const LabelMap* m_mask;
    std::optional<VoxelBox> m_box;  // the start box (Snake3dContrast's box share)
    Snake3dClamp m_clamp;           // the run's clip: the contrast compares the values the run compared
    std::size_t m_bound;
    // The hand-over from the worker to the thread: one copy at a time.
    std::mutex m_handOver;
    std::condition_variable m_changed;
    std::vector<std::uint64_t> m_copy;  // written by the worker while !m_pending
    VoxelBox m_copyDomain;
    int m_copyIteration = 0;
    bool m_pending = false, m_busy = false, m_stop = false;
    int m_copiesLost = 0;  // copies that failed since the last one handed over
    // The thread's: the next state's level set and the last state's (read by latest() under m_mutex)
    std::vector<std::uint64_t> m_words, m_next;
    VoxelBox m_domain;
    Snake3dShape m_shape;
    bool m_restart = true;  // the next state is a first one
    std::size_t m_voxels = 0;
    Snake3dContrast m_contrast;
    // The queue to the GUI, and the latest state's domain
    mutable std::mutex m_mutex;
    std::uint64_t m_serial = 0;
    VoxelBox m_latestDomain;
    std::vector<Snake3dState> m_queue;
    std::size_t m_queuedBytes = 0;
    std::thread m_thread;  // last: started once the members above exist
};

}  // namespace lucent::ui
