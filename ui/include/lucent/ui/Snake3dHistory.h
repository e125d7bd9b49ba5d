/// @brief The 3D snake's scrubber: every state of a run (its start and each step), kept as the voxels each
/// step flipped in the level set (a step of the morphological snake moves its surface by at most a voxel
/// layer, so a step costs its surface, not its volume). Showing an earlier state takes the run's level set
/// now and flips it back, in place; when the flips pass the memory bound the oldest states go, so the
/// scrubber always reaches back from the latest state. Qt-free: the states come from Snake3dSteps.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/seg/Snake3dContrast.h"
#include "lucent/core/seg/Snake3dWords.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace lucent::ui {

/// What the 3D snake's history may hold of flipped voxels (and what its queue from the worker may hold).
inline constexpr std::size_t kSnake3dHistoryBytes = std::size_t(256) << 20;

/// One state of a 3D snake run, as the worker saw it (Snake3dSteps).
struct Snake3dState {
    std::uint64_t serial = 0;  ///< counts the run's states from 1: which level set the worker holds
    int iteration = 0;         ///< the engine's iterations so far
    /// The level set's bits (word * 64 + bit over the domain, Snake3dShape's packing) that differ from
    /// the state before; none for a first state.
    std::vector<std::uint64_t> flips;
    /// The history cannot reach the state before this one (the run's start, or the queue dropped the
    /// states between): it begins again here.
    bool first = false;
    int lost = 0;            ///< states the worker's queue let go just before this one (its bound)
    std::size_t voxels = 0;  ///< labels (the mask applied)
    Snake3dContrast contrast;
};

class Snake3dHistory {
public:
    explicit Snake3dHistory(std::size_t budgetBytes = kSnake3dHistoryBytes) : m_budget(budgetBytes) {}
    /// Forgets every state (a new run, a cancelled one).
    void clear();
    /// Appends the run's next state (only while the latest is shown: the run is paused while one is
    /// scrubbed); the oldest states go while the flips pass the bound.
    void record(Snake3dState state);

    /// States kept (the oldest may have gone to the bound).
    int count() const { return int(m_states.size()); }
    const Snake3dState& state(int index) const { return m_states.at(std::size_t(index)); }
    int iteration(int index) const { return state(index).iteration; }
    std::size_t voxels(int index) const { return state(index).voxels; }
    /// States the bound (or a queue that fell behind) took away since the run began.
    int dropped() const { return m_dropped; }
    /// The state the views show: -1 the latest (following the run).
    int shown() const { return m_shown; }
    std::size_t budget() const { return m_budget; }
    /// Bytes of flipped voxels kept (what the bound counts).
    std::size_t bytes() const { return m_flipBytes; }

    /// The run's level set now: its words, domain and state serial (Snake3dSteps::latest).
    using Latest = std::function<void(std::vector<std::uint64_t>& words, VoxelBox& domain, std::uint64_t& serial)>;
    /// Shows state `index` (-1 or the last: the latest): from the latest, `latest` gives the level set
    /// to flip back from. The box (volume coordinates) of the voxels whose state changed, none when
    /// none did, or when the level set is not the latest state's (the run moved on: nothing shown).
    std::optional<VoxelBox> show(int index, const Latest& latest);
    /// The shown state's labels of `box` (volume coordinates; 0 outside the domain and where `mask` is
    /// 0), box-sized, x fastest, as of the last show() (all 0 before one).
    void labels(const VoxelBox& box, const LabelMap* mask, std::uint8_t* out) const;
    /// Flips the last show() went through (a voxel flipped back and forth counts each time): what
    /// changedVoxels() holds.
    std::size_t changedCount() const;
    /// The voxels the last show() flipped, each as its volume index with the shown state's label (0 where
    /// `mask` is 0) in the top bit (gpu::GpuContext::setLabelsAt's packing): a scrub step changes the
    /// surface's voxels, far fewer than the box around them. A voxel may come twice, with one label.
    std::vector<std::uint64_t> changedVoxels(const Geometry& volume, const LabelMap* mask) const;
    /// The top bit of changedVoxels()' entries: the label.
    static constexpr std::uint64_t kLabelBit = std::uint64_t(1) << 63;

private:
    void flip(std::size_t state, std::optional<VoxelBox>& changed);
    void dropOldest();

    std::size_t m_budget;
    std::vector<Snake3dState> m_states;
    std::size_t m_flipBytes = 0;
    int m_shown = -1;
    int m_dropped = 0;
    int m_flippedFrom = 0, m_flippedTo = -1;  // the states whose flips the last show() applied
    // The shown state's level set (taken from the run when scrubbing begins)
    std::vector<std::uint64_t> m_words;
    VoxelBox m_domain;
    Snake3dShape m_shape;
};

}  // namespace lucent::ui
