/// @brief Connected components by breadth-first flood over face neighbours, and the island tools.
#include "lucent/core/LabelIslands.h"

namespace lucent {

namespace {

/// Numbers the 6-connected components of the voxels where `inside(index)` holds: ids[v] = 1..n in the
/// order of each component's first voxel in memory order, 0 outside; sizes[c - 1] = voxels of c.
template <class Inside>
void floodComponents(const Geometry& g, Inside inside, std::vector<std::uint32_t>& ids,
                     std::vector<std::size_t>& sizes) {
    const auto& d = g.dims;
    const std::size_t nx = std::size_t(d[0]), nxy = g.sliceSize(), n = g.voxelCount();
    ids.assign(n, 0);
    sizes.clear();
    std::vector<std::size_t> queue;
    for (std::size_t start = 0; start < n; ++start) {
        if (!inside(start) || ids[start]) continue;
        const auto id = std::uint32_t(sizes.size() + 1);
        ids[start] = id;
        queue.assign(1, start);
        // The queue doubles as the component's voxel list: its length at the end is the size.
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const std::size_t v = queue[head];
            const std::size_t i = v % nx, j = (v / nx) % std::size_t(d[1]), k = v / nxy;
            auto visit = [&](std::size_t w) {
                if (inside(w) && !ids[w]) {
                    ids[w] = id;
                    queue.push_back(w);
                }
            };
            if (i > 0) visit(v - 1);
            if (i + 1 < nx) visit(v + 1);
            if (j > 0) visit(v - nx);
            if (j + 1 < std::size_t(d[1])) visit(v + nx);
            if (k > 0) visit(v - nxy);
            if (k + 1 < std::size_t(d[2])) visit(v + nxy);
        }
        sizes.push_back(queue.size());
    }
}

}  // namespace

LabelComponents::LabelComponents(const LabelMap& labels, std::uint8_t value) : m_value(value) {
    floodComponents(
        labels.geometry(), [&](std::size_t v) { return labels[v] == value; }, m_ids, m_sizes);
}

std::uint32_t LabelComponents::largest() const {
    std::uint32_t best = 0;
    for (std::size_t c = 0; c < m_sizes.size(); ++c)
        if (!best || m_sizes[c] > m_sizes[best - 1]) best = std::uint32_t(c + 1);  // strict: the first wins ties
    return best;
}

namespace {

/// Clears the voxels of `value` whose component `drop` says so.
template <class Drop>
std::size_t clearComponents(LabelMap& labels, const LabelComponents& components, Drop drop) {
    std::size_t cleared = 0;
    for (std::size_t i = 0; i < labels.voxelCount(); ++i) {
        const std::uint32_t c = components.componentOf(i);
        if (c && drop(c)) {
            labels[i] = 0;
            ++cleared;
        }
    }
    return cleared;
}

}  // namespace

std::size_t keepLargestIsland(LabelMap& labels, std::uint8_t value) {
    const LabelComponents components(labels, value);
    const std::uint32_t keep = components.largest();
    return clearComponents(labels, components, [&](std::uint32_t c) { return c != keep; });
}

std::size_t removeSmallIslands(LabelMap& labels, std::uint8_t value, std::size_t minVoxels) {
    const LabelComponents components(labels, value);
    return clearComponents(labels, components, [&](std::uint32_t c) { return components.size(c) < minVoxels; });
}

std::size_t keepIslandAt(LabelMap& labels, std::size_t index) {
    if (index >= labels.voxelCount() || labels[index] == 0) return 0;
    const LabelComponents components(labels, labels[index]);
    const std::uint32_t keep = components.componentOf(index);
    return clearComponents(labels, components, [&](std::uint32_t c) { return c != keep; });
}

std::size_t fillHoles(LabelMap& labels, std::uint8_t value) {
    const Geometry& g = labels.geometry();
    std::vector<std::uint32_t> ids;
    std::vector<std::size_t> sizes;
    floodComponents(
        g, [&](std::size_t v) { return labels[v] != value; }, ids, sizes);
    // A component is kept as it is when it reaches the border (it is outside, not a hole) or holds
    // another label (the cavity belongs to that structure too: filling would overwrite or engulf it).
    std::vector<char> keep(sizes.size() + 1, 0);
    const auto& d = g.dims;
    for (int k = 0; k < d[2]; ++k)
        for (int j = 0; j < d[1]; ++j)
            for (int i = 0; i < d[0]; ++i) {
                const std::size_t v = g.index(i, j, k);
                const std::uint32_t c = ids[v];
                const bool border = i == 0 || j == 0 || k == 0 || i + 1 == d[0] || j + 1 == d[1] || k + 1 == d[2];
                if (c && (border || labels[v] != 0)) keep[c] = 1;
            }
    std::size_t filled = 0;
    for (std::size_t v = 0; v < labels.voxelCount(); ++v)
        if (ids[v] && !keep[ids[v]]) {
            labels[v] = value;
            ++filled;
        }
    return filled;
}

}  // namespace lucent
