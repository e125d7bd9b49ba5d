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

void RegionGrowingCpu::start(const SegmentationRequest& request) {
    validateRequest(Method::RegionGrowing, request);
    m_request = request;
    const Geometry& g = request.volume->geometry();
    if (g.voxelCount() >= 0xffffffffull)
        throw std::invalid_argument("volume too large for the CPU region-growing engine (over 4G voxels)");
    m_state.assign(g.voxelCount(), kOutside);
    m_front.clear();
    m_iterations = 0;
    m_grown = 0;
    const Eligibility eligible(request);
    const double lo = request.regionGrowing.lower, hi = request.regionGrowing.upper;
    const Volume& v = *request.volume;
    const bool plain = !request.roi && !request.mask;
    parallelFor(std::size_t(g.dims[2]), request.threads, [&](std::size_t k) {
        const std::size_t base = k * g.sliceSize();
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const std::size_t idx = base + std::size_t(j) * g.dims[0] + i;
                const double val = v.pixelType() == PixelType::Int16 ? v.int16Data()[idx] : v.float32Data()[idx];
                if (val >= lo && val <= hi && (plain || eligible(i, j, int(k), idx))) m_state[idx] = kCandidate;
            }
    });
    std::string rejected;
    for (const auto& s : request.seeds) {
        const std::size_t idx = g.index(s.i, s.j, s.k);
        if (m_state[idx] == kOutside) {
            if (rejected.empty())
                rejected = "seed " + std::to_string(s.i) + "," + std::to_string(s.j) + "," + std::to_string(s.k) +
                           " has value " + std::to_string(request.volume->value(idx));
            continue;
        }
        if (m_state[idx] == kCandidate) {
            m_state[idx] = kGrown;
            m_front.push_back(static_cast<std::uint32_t>(idx));
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
    const int neighbours = m_request.regionGrowing.connectivity == 26 ? 26 : 6;
    const unsigned threads = m_request.threads ? m_request.threads : defaultThreadCount();
    const int nx = g.dims[0], ny = g.dims[1], nz = g.dims[2];
    const std::ptrdiff_t sx = 1, sy = nx, sz = std::ptrdiff_t(nx) * ny;
    for (int it = 0; it < maxIterations && !m_front.empty(); ++it) {
        // Small fronts stay on one thread: starting threads costs more than the layer.
        const std::size_t chunks = m_front.size() < 32768 ? 1 : std::min<std::size_t>(m_front.size() / 8192, threads * 4);
        std::vector<std::vector<std::uint32_t>> next(chunks);
        parallelFor(chunks, threads, [&](std::size_t c) {
            const std::size_t begin = m_front.size() * c / chunks, end = m_front.size() * (c + 1) / chunks;
            auto& out = next[c];
            // A relaxed load and store, not a CAS: two threads may both claim a voxel on the
            // boundary of their chunks and list it twice in the next front, which changes nothing
            // but a little repeated work; a CAS per voxel costs more than those rare repeats.
            auto claim = [&](std::size_t n) {
                std::atomic_ref<std::uint8_t> cell(m_state[n]);
                if (cell.load(std::memory_order_relaxed) != kCandidate) return;
                cell.store(kGrown, std::memory_order_relaxed);
                out.push_back(static_cast<std::uint32_t>(n));
            };
            for (std::size_t f = begin; f < end; ++f) {
                const std::size_t idx = m_front[f];
                const int i = int(idx % nx), j = int((idx / nx) % ny), k = int(idx / std::size_t(sz));
                if (neighbours == 6) {
                    if (i > 0) claim(idx - sx);
                    if (i + 1 < nx) claim(idx + sx);
                    if (j > 0) claim(idx - sy);
                    if (j + 1 < ny) claim(idx + sy);
                    if (k > 0) claim(idx - sz);
                    if (k + 1 < nz) claim(idx + sz);
                    continue;
                }
                for (int n = 0; n < 26; ++n) {
                    const int ni = i + kNeighbourOffsets[n][0], nj = j + kNeighbourOffsets[n][1],
                              nk = k + kNeighbourOffsets[n][2];
                    if (ni >= 0 && nj >= 0 && nk >= 0 && ni < nx && nj < ny && nk < nz) claim(g.index(ni, nj, nk));
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
    const std::size_t n = m_state.size();
    parallelFor(64, m_request.threads, [&](std::size_t c) {
        for (std::size_t i = n * c / 64; i < n * (c + 1) / 64; ++i) out[i] = m_state[i] == kGrown ? 1 : 0;
    });
}

}  // namespace lucent
