/// @brief The 3D snake's states as flipped voxels beside a mirror of the latest (Snake3dHistory.h).
#include "lucent/ui/Snake3dHistory.h"

#include <algorithm>

namespace lucent::ui {

void Snake3dHistory::clear() {
    m_flips.clear();
    m_states.clear();
    m_shown = -1;
    m_dropped = 0;
    m_mirror = LabelMap();  // the next run may be on another volume; a new mirror starts empty
}

bool Snake3dHistory::record(const Geometry& grid, int iteration, const VoxelBox& box,
                            const std::function<void(LabelMap&)>& fill) {
    if (!fits(grid, m_budget) || m_shown >= 0) return false;
    if (m_mirror.voxelCount() != grid.voxelCount()) m_mirror = LabelMap(grid);
    const auto& d = grid.dims;
    const int i0 = std::max(0, box.lo[0]), i1 = std::min(box.hi[0], d[0] - 1);
    m_before.clear();
    for (int k = std::max(0, box.lo[2]); k <= std::min(box.hi[2], d[2] - 1); ++k)
        for (int j = std::max(0, box.lo[1]); j <= std::min(box.hi[1], d[1] - 1); ++j) {
            const std::uint8_t* row = m_mirror.data() + grid.index(0, j, k);
            m_before.insert(m_before.end(), row + i0, row + i1 + 1);
        }
    fill(m_mirror);
    // The 3D snake labels 0 or 1: a changed voxel flipped, and flipping it again undoes it.
    std::size_t voxels = m_states.empty() ? 0 : m_states.back().voxels, n = 0;
    for (int k = std::max(0, box.lo[2]); k <= std::min(box.hi[2], d[2] - 1); ++k)
        for (int j = std::max(0, box.lo[1]); j <= std::min(box.hi[1], d[1] - 1); ++j) {
            const std::size_t row = grid.index(0, j, k);
            for (int i = i0; i <= i1; ++i, ++n) {
                const bool now = m_mirror[row + std::size_t(i)] != 0, was = m_before[n] != 0;
                if (now == was) continue;
                m_flips.push_back(row + std::size_t(i));
                voxels = now ? voxels + 1 : voxels - 1;
            }
        }
    m_states.push_back({iteration, voxels, m_flips.size()});
    // Nothing goes back before the first state: the flips that led to it are never flipped again.
    if (m_states.size() == 1) {
        m_flips.clear();
        m_states.front().flipsEnd = 0;
    }
    while (bytes() > m_budget && m_states.size() > 1) dropOldest();
    return true;
}

void Snake3dHistory::dropOldest() {
    // The scrubber then starts at the second state: the flips that led to it go with the first.
    m_states.erase(m_states.begin());
    const std::size_t end = m_states.front().flipsEnd;
    m_flips.erase(m_flips.begin(), m_flips.begin() + std::ptrdiff_t(end));
    for (State& s : m_states) s.flipsEnd -= end;
    ++m_dropped;
}

void Snake3dHistory::flip(std::size_t from, std::size_t to, std::optional<VoxelBox>& changed) {
    const Geometry& g = m_mirror.geometry();
    const std::size_t plane = std::size_t(g.dims[0]) * std::size_t(g.dims[1]);
    for (std::size_t f = from; f < to; ++f) {
        const std::size_t v = m_flips[f];
        m_mirror[v] = m_mirror[v] ? 0 : 1;
        const int k = int(v / plane), j = int(v % plane / std::size_t(g.dims[0])), i = int(v % std::size_t(g.dims[0]));
        changed = merge(changed, VoxelBox{{i, j, k}, {i, j, k}});
    }
}

std::optional<VoxelBox> Snake3dHistory::show(int index) {
    std::optional<VoxelBox> changed;
    const int last = count() - 1;
    const int target = index < 0 || index >= last ? last : index;
    const int now = m_shown < 0 ? last : m_shown;
    if (target < 0 || target == now) {
        m_shown = index < 0 || target == last ? -1 : target;
        return changed;
    }
    // From state a to state b flips the voxels of the states between them (either way: a flip is its
    // own inverse).
    const int lo = std::min(now, target), hi = std::max(now, target);
    flip(m_states[std::size_t(lo)].flipsEnd, m_states[std::size_t(hi)].flipsEnd, changed);
    m_shown = target == last ? -1 : target;
    return changed;
}

}  // namespace lucent::ui
