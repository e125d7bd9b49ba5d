/// @brief Front propagation for seeded region growing; fronts split across threads, voxels claimed atomically.
#include "lucent/core/seg/RegionGrowingCpu.h"

#include "lucent/core/ParallelFor.h"
#include "lucent/core/seg/Eligibility.h"
#include "lucent/core/seg/VoxelNeighbours.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

namespace lucent {

bool RegionGrowingCpu::inInterval(std::size_t index) const {
    const double v = m_request.volume->value(index);
    return v >= m_request.regionGrowing.lower && v <= m_request.regionGrowing.upper;
}

void RegionGrowingCpu::start(const SegmentationRequest& request) {
    validateRequest(Method::RegionGrowing, request);
    m_request = request;
    const Geometry& g = request.volume->geometry();
    m_region.assign(g.voxelCount(), 0);
    m_front.clear();
    m_iterations = 0;
    m_grown = 0;
    const Eligibility eligible(request);
    std::string rejected;
    for (const auto& s : request.seeds) {
        const std::size_t idx = g.index(s.i, s.j, s.k);
        if (!eligible(s.i, s.j, s.k, idx) || !inInterval(idx)) {
            if (rejected.empty())
                rejected = "seed " + std::to_string(s.i) + "," + std::to_string(s.j) + "," + std::to_string(s.k) +
                           " has value " + std::to_string(request.volume->value(idx));
            continue;
        }
        if (!m_region[idx]) {
            m_region[idx] = 1;
            m_front.push_back(idx);
            ++m_grown;
        }
    }
    if (m_front.empty())
        throw std::invalid_argument("no seed lies within [" + std::to_string(request.regionGrowing.lower) + ", " +
                                    std::to_string(request.regionGrowing.upper) + "] inside the ROI/mask (" + rejected +
                                    ")");
}

StepReport RegionGrowingCpu::step(int maxIterations) {
    const Geometry& g = m_request.volume->geometry();
    const Eligibility eligible(m_request);
    const int neighbours = m_request.regionGrowing.connectivity == 26 ? 26 : 6;
    const unsigned threads = m_request.threads ? m_request.threads : defaultThreadCount();
    for (int it = 0; it < maxIterations && !m_front.empty(); ++it) {
        // Split the front into chunks; each chunk collects the voxels it claims.
        const std::size_t chunks = std::min<std::size_t>(m_front.size() / 4096 + 1, threads * 4);
        std::vector<std::vector<std::size_t>> next(chunks);
        parallelFor(chunks, threads, [&](std::size_t c) {
            const std::size_t begin = m_front.size() * c / chunks, end = m_front.size() * (c + 1) / chunks;
            auto& out = next[c];
            for (std::size_t f = begin; f < end; ++f) {
                const std::size_t idx = m_front[f];
                const int i = int(idx % g.dims[0]), j = int((idx / g.dims[0]) % g.dims[1]),
                          k = int(idx / g.sliceSize());
                for (int n = 0; n < neighbours; ++n) {
                    const int ni = i + kNeighbourOffsets[n][0], nj = j + kNeighbourOffsets[n][1],
                              nk = k + kNeighbourOffsets[n][2];
                    if (!g.contains(ni, nj, nk)) continue;
                    const std::size_t nidx = g.index(ni, nj, nk);
                    std::atomic_ref<std::uint8_t> cell(m_region[nidx]);
                    if (cell.load(std::memory_order_relaxed) || !eligible(ni, nj, nk, nidx) || !inInterval(nidx))
                        continue;
                    std::uint8_t expected = 0;
                    if (cell.compare_exchange_strong(expected, 1, std::memory_order_relaxed)) out.push_back(nidx);
                }
            }
        });
        m_front.clear();
        for (auto& part : next) m_front.insert(m_front.end(), part.begin(), part.end());
        m_grown += m_front.size();
        ++m_iterations;
    }
    StepReport r;
    r.iterations = m_iterations;
    r.convergence = double(m_front.size());
    r.finished = m_front.empty();
    // Unknown final size: progress from the front shrinking relative to what has grown.
    r.progress = r.finished ? 1.0 : double(m_grown) / double(m_grown + 8 * m_front.size());
    return r;
}

void RegionGrowingCpu::result(LabelMap& out) const {
    out = LabelMap(m_request.volume->geometry());
    std::copy(m_region.begin(), m_region.end(), out.data());
}

}  // namespace lucent
