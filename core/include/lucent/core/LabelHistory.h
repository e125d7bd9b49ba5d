/// @brief Undo and redo of label-map changes stored as run-length deltas (as ITK-SNAP's
/// UndoDataManager does): memory grows with what changed, never with the volume, unlike whole-map
/// copies (why Slicer's memory explodes on large volumes).
#pragma once

#include "lucent/core/LabelMap.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lucent {

class LabelHistory {
public:
    /// Keeps at most `maxBytes` of deltas: the oldest changes are forgotten first.
    explicit LabelHistory(std::size_t maxBytes = std::size_t(512) << 20) : m_maxBytes(maxBytes) {}

    /// Records the change from `before` to `after` (same grid) as one undoable step named
    /// `description` ("Accept region growing"); forgets anything that was undone. Returns false
    /// (and records nothing) when the maps are equal.
    bool record(const LabelMap& before, const LabelMap& after, std::string description);

    bool canUndo() const { return m_next > 0; }
    bool canRedo() const { return m_next < m_steps.size(); }
    /// What undo / redo would do, for the Edit menu ("Undo Accept region growing"); empty if nothing.
    std::string undoText() const { return canUndo() ? m_steps[m_next - 1].description : std::string(); }
    std::string redoText() const { return canRedo() ? m_steps[m_next].description : std::string(); }
    /// Restores `labels` to before the last recorded step; false when there is none. `labels` must
    /// be the map the step was recorded on (same grid, in its `after` state).
    bool undo(LabelMap& labels);
    bool redo(LabelMap& labels);
    /// Bytes the deltas take.
    std::size_t bytes() const { return m_bytes; }
    std::size_t steps() const { return m_steps.size(); }
    void clear();

private:
    /// Value runs: `count` voxels of `value`.
    struct Coded {
        std::uint32_t count;
        std::uint8_t value;
    };
    /// One change: maximal runs of changed voxels [start, start + length) in flat arrays (a few
    /// bytes per run), their old and new values run-length coded one after the other.
    struct Step {
        std::string description;
        std::vector<std::uint64_t> starts;
        std::vector<std::uint32_t> lengths;
        std::vector<Coded> before, after;
        std::size_t bytes() const {
            return starts.size() * sizeof(std::uint64_t) + lengths.size() * sizeof(std::uint32_t) +
                   (before.size() + after.size()) * sizeof(Coded);
        }
    };
    static void apply(LabelMap& labels, const Step& step, bool forward);
    static void encode(const std::uint8_t* values, std::size_t n, std::vector<Coded>& out);

    std::vector<Step> m_steps;
    std::size_t m_next = 0;  // steps [0, m_next) are applied
    std::size_t m_bytes = 0, m_maxBytes;
};

}  // namespace lucent
