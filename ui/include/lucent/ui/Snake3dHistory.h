/// @brief The 3D snake's scrubber: the states of a run the views were shown, kept as the voxels each
/// one flipped (a step of the morphological snake moves its surface by at most a voxel layer, so a
/// step costs its surface, not its volume) beside a host mirror of the latest state. Showing an earlier
/// state flips the mirror back, in place; the flips of the oldest states go first when the history
/// passes its memory bound, so the scrubber always reaches back from the latest state.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace lucent::ui {

/// What the 3D snake's history may hold: its mirror of the volume's labels and the flipped voxels.
inline constexpr std::size_t kSnake3dHistoryBytes = std::size_t(256) << 20;

class Snake3dHistory {
public:
    explicit Snake3dHistory(std::size_t budgetBytes = kSnake3dHistoryBytes) : m_budget(budgetBytes) {}
    /// Forgets every state (a new run, a cancelled one).
    void clear();
    /// False for a volume whose mirror alone would take over half the budget: no scrubber then.
    static bool fits(const Geometry& grid, std::size_t budgetBytes = kSnake3dHistoryBytes) {
        return grid.voxelCount() <= budgetBytes / 2;
    }
    /// A published state: `fill` writes the run's labels of `box` into the mirror (a host copy or a
    /// device download); the voxels that changed are kept as this state's flips. Not while an earlier
    /// state is shown. False (nothing kept) when the volume does not fit.
    bool record(const Geometry& grid, int iteration, const VoxelBox& box, const std::function<void(LabelMap&)>& fill);

    /// States kept (the oldest may have gone to the bound).
    int count() const { return int(m_states.size()); }
    /// The engine's iteration of state `index`, and its voxels.
    int iteration(int index) const { return m_states.at(std::size_t(index)).iteration; }
    std::size_t voxels(int index) const { return m_states.at(std::size_t(index)).voxels; }
    /// States the bound took away since the run began (the scrubber starts after them).
    int dropped() const { return m_dropped; }
    /// The state the mirror holds: -1 the latest (following the run).
    int shown() const { return m_shown; }
    /// Puts the mirror at state `index` (-1 or the last: the latest); the box of the voxels it changed
    /// (none when none did).
    std::optional<VoxelBox> show(int index);
    const LabelMap& mirror() const { return m_mirror; }
    std::size_t bytes() const { return m_mirror.voxelCount() + m_flips.size() * sizeof(std::size_t); }

private:
    struct State {
        int iteration = 0;
        std::size_t voxels = 0;
        // m_flips[previous flipsEnd, flipsEnd) lead from the state before to this one; the first state's is 0
        std::size_t flipsEnd = 0;
    };
    void flip(std::size_t from, std::size_t to, std::optional<VoxelBox>& changed);
    void dropOldest();

    std::size_t m_budget;
    LabelMap m_mirror;
    std::vector<std::size_t> m_flips;
    std::vector<State> m_states;
    std::vector<std::uint8_t> m_before;  // the box's labels before a record (scratch)
    int m_shown = -1;
    int m_dropped = 0;
};

}  // namespace lucent::ui
