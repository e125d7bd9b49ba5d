/// @brief One brush stroke (press .. release) on a label layer: paints or erases along the path of
/// the mouse, leaves locked labels' voxels alone, and becomes one undoable step.
#pragma once

#include "lucent/core/LabelBrush.h"
#include "lucent/core/LabelHistory.h"
#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelTable.h"
#include "lucent/core/Volume.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace lucent {

/// Which labels the eraser clears.
enum class EraseScope {
    ActiveLabel,  ///< the active label's voxels only: erasing a stroke leaves the labels under it
    AllLabels,    ///< every unlocked label's
};

class LabelStroke {
public:
    /// Starts a stroke on `layer` with `brush`: paints `label`, or erases when `label` is 0. It
    /// replaces any unlocked label, or with `over` only voxels of that value (ITK-SNAP's "draw
    /// over": 0 paints only clear voxels, a label's value paints or erases only that label). The
    /// locks are read from `table` now. Keeps a copy of the layer for the undo step (the same cost
    /// as accepting a result); the layer is edited in place as the stroke goes, so the views show
    /// it live.
    LabelStroke(LabelMap& layer, const LabelBrush& brush, std::uint8_t label, const LabelTable& table,
                std::optional<std::uint8_t> over = std::nullopt);

    /// An eraser stroke: clears the voxels of `active` only (EraseScope::ActiveLabel, the default in
    /// the viewer) or of every unlocked label (AllLabels). `over` naming a label (the panel's "Paint
    /// over" choice) narrows either scope to that label; 0 or none leaves the scope's choice. Locked
    /// labels' voxels stay. Named "Erase Label 2" when it clears one label, "Erase" for all.
    static LabelStroke eraser(LabelMap& layer, const LabelBrush& brush, std::uint8_t active, EraseScope scope,
                              const LabelTable& table, std::optional<std::uint8_t> over = std::nullopt);

    /// Slicer's editable intensity range: voxels whose value in `volume` (on the layer's grid) lies
    /// outside [lower, upper] are left alone, painting and erasing. `volume` must outlive the stroke.
    /// std::invalid_argument for another grid or lower > upper.
    void limitToValues(const Volume& volume, double lower, double upper);

    /// False when the stroke can change nothing: painting a locked label, or erasing only one.
    bool allowed() const { return m_allowed; }
    /// Moves the brush to continuous voxel position `at`: the first call stamps there, later ones
    /// stamp along the segment from the previous position at most half a voxel apart, so a fast
    /// drag leaves no gaps. Returns the box of voxels changed by this call (empty when none).
    VoxelBox moveTo(Vec3 at);
    /// Whether any voxel changed so far.
    bool changed() const { return m_changed; }
    /// "Paint Label 2" (the label's name), "Erase Label 2" (an eraser of one label) or "Erase".
    const std::string& description() const { return m_description; }
    /// Records the stroke as one step in `history`; false (nothing recorded) when nothing changed.
    /// The stroke is over afterwards.
    bool finish(LabelHistory& history);

private:
    VoxelBox stamp(const VoxelIndex& centre, Vec3 at);

    LabelMap& m_layer;
    LabelMap m_before;
    LabelBrush m_brush;
    std::uint8_t m_label;
    std::optional<std::uint8_t> m_over;
    const Volume* m_values = nullptr;  ///< with limitToValues(): the voxels' values and their range
    double m_lower = 0, m_upper = 0;
    std::array<bool, 256> m_locked{};
    std::string m_description;
    std::optional<Vec3> m_last;
    std::optional<VoxelIndex> m_lastCentre;
    bool m_allowed = true, m_changed = false, m_finished = false;
};

}  // namespace lucent
