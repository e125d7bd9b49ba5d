/// @brief Stamping a brush along a stroke with lock rules, recorded as one undo step.
#include "lucent/core/LabelStroke.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lucent {

LabelStroke::LabelStroke(LabelMap& layer, const LabelBrush& brush, std::uint8_t label, const LabelTable& table,
                         std::optional<std::uint8_t> over)
    : m_layer(layer), m_before(layer), m_brush(brush), m_label(label), m_over(over) {
    for (const auto& l : table.labels()) m_locked[l.value] = l.locked;
    m_allowed = !(label != 0 && m_locked[label]);
    m_description = label == 0 ? std::string("Erase") : "Paint " + table.nameOf(label);
}

LabelStroke LabelStroke::eraser(LabelMap& layer, const LabelBrush& brush, std::uint8_t active, EraseScope scope,
                                const LabelTable& table, std::optional<std::uint8_t> over) {
    // The one label cleared, if any: an explicit "Paint over" label wins over the scope.
    std::optional<std::uint8_t> only;
    if (over && *over != 0)
        only = over;
    else if (scope == EraseScope::ActiveLabel)
        only = active;
    LabelStroke stroke(layer, brush, 0, table, only);
    if (only && *only != 0) {
        stroke.m_allowed = !stroke.m_locked[*only];
        stroke.m_description = "Erase " + table.nameOf(*only);
    }
    return stroke;
}

void LabelStroke::limitToValues(const Volume& volume, double lower, double upper) {
    if (volume.geometry().dims != m_layer.geometry().dims)
        throw std::invalid_argument("brush value range: the volume's grid is not the label layer's");
    if (!(lower <= upper)) throw std::invalid_argument("brush value range: the lower bound is above the upper");
    m_values = &volume;
    m_lower = lower;
    m_upper = upper;
}

VoxelBox LabelStroke::stamp(const VoxelIndex& centre, Vec3 at) {
    VoxelBox changed = VoxelBox::none();
    if (!m_allowed) return changed;
    const Geometry& g = m_layer.geometry();
    const Vec3 fromBrush = Vec3{double(centre.i), double(centre.j), double(centre.k)} - at;
    for (const auto& o : m_brush.offsets()) {
        const int i = centre.i + o[0], j = centre.j + o[1], k = centre.k + o[2];
        if (!g.contains(i, j, k) || !m_brush.covers(o, fromBrush)) continue;
        std::uint8_t& v = m_layer[g.index(i, j, k)];
        // A locked label's voxels stay as they are, whether painting over them or erasing; with
        // `over`, so do all but that value's.
        if (v == m_label || m_locked[v] || (m_over && v != *m_over)) continue;
        if (m_values) {
            const double value = m_values->value(g.index(i, j, k));
            if (value < m_lower || value > m_upper) continue;
        }
        v = m_label;
        changed.add(i, j, k);
    }
    if (!changed.empty()) m_changed = true;
    return changed;
}

VoxelBox LabelStroke::moveTo(Vec3 at) {
    VoxelBox changed = VoxelBox::none();
    const Vec3 from = m_last.value_or(at);
    const double travel = std::max({std::abs(at.x - from.x), std::abs(at.y - from.y), std::abs(at.z - from.z)});
    const int steps = std::max(1, int(std::ceil(travel * 2)));
    for (int s = m_last ? 1 : 0; s <= steps; ++s) {
        const Vec3 p = from + (at - from) * (double(s) / steps);
        const VoxelIndex c{int(std::lround(p.x)), int(std::lround(p.y)), int(std::lround(p.z))};
        // The same stamp again changes nothing (a plane disc's cover moves with the sub-voxel position).
        if (m_lastCentre && *m_lastCentre == c && !m_brush.acrossPlane()) continue;
        m_lastCentre = c;
        changed = merge(changed, stamp(c, p)).value_or(changed);
    }
    m_last = at;
    return changed;
}

bool LabelStroke::finish(LabelHistory& history) {
    if (m_finished) return false;
    m_finished = true;
    const bool recorded = m_changed && history.record(m_before, m_layer, m_description);
    m_before = LabelMap();  // the copy is not needed any more
    return recorded;
}

}  // namespace lucent
