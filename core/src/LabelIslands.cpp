/// @brief Connected components by breadth-first flood over face neighbours, and the island tools.
#include "lucent/core/LabelIslands.h"

namespace lucent {

LabelComponents::LabelComponents(const LabelMap& labels, std::uint8_t value)
    : m_value(value), m_ids(labels.voxelCount(), 0) {
    const auto& d = labels.geometry().dims;
    const std::size_t nx = std::size_t(d[0]), nxy = labels.geometry().sliceSize(), n = labels.voxelCount();
    std::vector<std::size_t> queue;
    for (std::size_t start = 0; start < n; ++start) {
        if (labels[start] != value || m_ids[start]) continue;
        const auto id = std::uint32_t(m_sizes.size() + 1);
        m_ids[start] = id;
        queue.assign(1, start);
        // The queue doubles as the component's voxel list: its length at the end is the size.
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const std::size_t v = queue[head];
            const std::size_t i = v % nx, j = (v / nx) % std::size_t(d[1]), k = v / nxy;
            auto visit = [&](std::size_t w) {
                if (labels[w] == value && !m_ids[w]) {
                    m_ids[w] = id;
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
        m_sizes.push_back(queue.size());
    }
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

}  // namespace lucent
