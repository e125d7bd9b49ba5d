/// @brief Fuzzy connectedness at one threshold without the map: the seeds' component over the face
/// edges whose affinity reaches the threshold (DESIGN.md 7), one byte per voxel.
#include "lucent/core/seg/FuzzyConnectednessCpu.h"

#include "lucent/core/seg/Eligibility.h"
#include "lucent/core/seg/VoxelNeighbours.h"

#include <stdexcept>
#include <variant>

namespace lucent {

// connectivity(v) >= t  <=>  some path from an eligible seed through eligible voxels has every
// edge's affinity >= t (the seeds have full strength; a path's strength is its weakest edge). So
// the object is what a search along those edges reaches: the same voxels as the map's, exactly.

void FuzzyConnectednessCpu::startObject() {
    const Geometry& g = grid();
    std::vector<std::uint16_t>().swap(m_connectivity);
    m_buckets = emptyIndexLists<VoxelIndexBuckets>(false);
    m_level = 0;
    m_object.assign(g.voxelCount(), 0);
    m_queue = emptyIndexLists<VoxelIndexList>(lucent::wideIndices(m_width, g.voxelCount()));
    m_queueRead = 0;
    const Eligibility eligible(m_request);
    for (const auto& s : m_request.seeds) {
        const std::size_t idx = g.index(s.i, s.j, s.k);
        if (!eligible(s.i, s.j, s.k, idx) || m_object[idx]) continue;
        m_object[idx] = 1;
        pushIndex(m_queue, idx);
    }
    if (indexCount(m_queue) == 0) throw std::invalid_argument("every seed lies outside the ROI/mask");
}

template <class Index>
VoxelBox FuzzyConnectednessCpu::growObject(std::vector<Index>& queue, std::size_t budget) {
    const Geometry& g = grid();
    const Eligibility eligible(m_request);
    const std::uint16_t t = thresholdStrength(m_request.fuzzyConnectedness.threshold);
    VoxelBox changed = VoxelBox::none();
    while (m_queueRead < queue.size() && budget > 0) {
        const std::size_t v = queue[m_queueRead++];
        --budget;
        ++m_settled;
        forEachFaceNeighbour(g, v, [&](int ni, int nj, int nk, std::size_t u) {
            if (m_object[u] || !eligible(ni, nj, nk, u) || affinity(v, u) < t) return;
            m_object[u] = 1;
            changed.add(ni, nj, nk);
            queue.push_back(static_cast<Index>(u));
        });
    }
    // The queue holds the search's front, not all it reached: what was read is dropped as it goes.
    if (m_queueRead == queue.size()) {
        queue.clear();
        m_queueRead = 0;
    } else if (m_queueRead > queue.size() / 2) {
        queue.erase(queue.begin(), queue.begin() + std::ptrdiff_t(m_queueRead));
        m_queueRead = 0;
    }
    return changed;
}

template VoxelBox FuzzyConnectednessCpu::growObject(std::vector<std::uint32_t>&, std::size_t);
template VoxelBox FuzzyConnectednessCpu::growObject(std::vector<std::uint64_t>&, std::size_t);

}  // namespace lucent
