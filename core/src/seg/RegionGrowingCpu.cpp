/// @brief Front propagation for seeded region growing; fronts split across threads, voxels claimed atomically.
#include "lucent/core/seg/RegionGrowingCpu.h"

#include "lucent/core/ParallelFor.h"
#include "lucent/core/seg/Eligibility.h"
#include "lucent/core/seg/SeedMessages.h"
#include "lucent/core/seg/VoxelNeighbours.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
#include <variant>

namespace lucent {

void RegionGrowingCpu::start(const SegmentationRequest& request) {
    validateRequest(Method::RegionGrowing, request);
    m_request = request;
    const Geometry& g = request.volume->geometry();
    m_state.assign(g.voxelCount(), kOutside);
    m_front = emptyIndexLists<VoxelIndexList>(lucent::wideIndices(m_width, g.voxelCount()));
    m_iterations = 0;
    m_grown = 0;
    classify();
    const std::string rejected = plantSeeds(request.seeds);
    if (indexCount(m_front) == 0)
        throw std::invalid_argument(noSeedWithin(request.regionGrowing, rejected));
}

void RegionGrowingCpu::classify() {
    const Geometry& g = m_request.volume->geometry();
    const Eligibility eligible(m_request);
    const double lo = m_request.regionGrowing.lower, hi = m_request.regionGrowing.upper;
    const Volume& v = *m_request.volume;
    const bool plain = !m_request.roi && !m_request.mask;
    parallelFor(std::size_t(g.dims[2]), m_request.threads, [&](std::size_t k) {
        const std::size_t base = k * g.sliceSize();
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const std::size_t idx = base + std::size_t(j) * g.dims[0] + i;
                if (m_state[idx] == kGrown) continue;
                const double val = v.pixelType() == PixelType::Int16 ? v.int16Data()[idx] : v.float32Data()[idx];
                m_state[idx] = val >= lo && val <= hi && (plain || eligible(i, j, int(k), idx)) ? kCandidate : kOutside;
            }
    });
}

std::string RegionGrowingCpu::plantSeeds(const std::vector<VoxelIndex>& seeds) {
    const Geometry& g = m_request.volume->geometry();
    std::string rejected;
    for (const auto& s : seeds) {
        const std::size_t idx = g.index(s.i, s.j, s.k);
        if (m_state[idx] == kOutside) {
            if (rejected.empty())
                rejected = rejectedSeed(s, m_request.volume->value(idx));
            continue;
        }
        if (m_state[idx] == kCandidate) {
            m_state[idx] = kGrown;
            pushIndex(m_front, idx);
            ++m_grown;
        }
    }
    return rejected;
}

UpdateOutcome RegionGrowingCpu::update(const SegmentationRequest& request) {
    if (m_state.empty() || !growsOn(m_request, request)) {
        start(request);
        return UpdateOutcome::Restarted;
    }
    validateRequest(Method::RegionGrowing, request);
    m_request = request;
    classify();
    // The grown region is connected to the seeds, so growing on from every grown voxel (as a front)
    // reaches exactly what a fresh run over the wider interval would.
    const std::size_t n = m_state.size();
    clearIndices(m_front);
    for (std::size_t idx = 0; idx < n; ++idx)
        if (m_state[idx] == kGrown) pushIndex(m_front, idx);
    plantSeeds(request.seeds);
    return UpdateOutcome::Continued;
}

template <class Index>
std::vector<Index> RegionGrowingCpu::growLayer(const std::vector<Index>& front, VoxelBox& changed) {
    const Geometry& g = m_request.volume->geometry();
    const bool six = m_request.regionGrowing.connectivity != 26;
    const unsigned threads = m_request.threads ? m_request.threads : defaultThreadCount();
    const int nx = g.dims[0], ny = g.dims[1], nz = g.dims[2];
    const std::size_t sx = 1, sy = std::size_t(nx), sz = g.sliceSize();
    // Small fronts stay on one thread: starting threads costs more than the layer.
    const std::size_t chunks = front.size() < 32768 ? 1 : std::min<std::size_t>(front.size() / 8192, threads * 4);
    std::vector<std::vector<Index>> next(chunks);
    std::vector<VoxelBox> boxes(chunks, VoxelBox::none());
    parallelFor(chunks, threads, [&](std::size_t c) {
        const std::size_t begin = front.size() * c / chunks, end = front.size() * (c + 1) / chunks;
        auto& out = next[c];
        VoxelBox& box = boxes[c];
        // A relaxed load and store, not a CAS: two threads may both claim a voxel on the
        // boundary of their chunks and list it twice in the next front, which changes nothing
        // but a little repeated work; a CAS per voxel costs more than those rare repeats.
        auto claim = [&](std::size_t n) {
            std::atomic_ref<std::uint8_t> cell(m_state[n]);
            if (cell.load(std::memory_order_relaxed) != kCandidate) return;
            cell.store(kGrown, std::memory_order_relaxed);
            out.push_back(static_cast<Index>(n));
            box.add(int(n % sy), int((n / sy) % std::size_t(ny)), int(n / sz));
        };
        for (std::size_t f = begin; f < end; ++f) {
            const std::size_t idx = front[f];
            const int i = int(idx % sy), j = int((idx / sy) % std::size_t(ny)), k = int(idx / sz);
            if (six) {
                if (i > 0) claim(idx - sx);
                if (i + 1 < nx) claim(idx + sx);
                if (j > 0) claim(idx - sy);
                if (j + 1 < ny) claim(idx + sy);
                if (k > 0) claim(idx - sz);
                if (k + 1 < nz) claim(idx + sz);
                continue;
            }
            for (const auto& o : kNeighbourOffsets) {
                const int ni = i + o[0], nj = j + o[1], nk = k + o[2];
                if (g.contains(ni, nj, nk)) claim(g.index(ni, nj, nk));
            }
        }
    });
    std::vector<Index> layer;
    for (auto& part : next) layer.insert(layer.end(), part.begin(), part.end());
    for (const auto& b : boxes)
        if (!b.empty()) changed = *merge(changed, b);
    return layer;
}

template <class Index>
std::optional<VoxelBox> RegionGrowingCpu::growLayers(std::vector<Index>& front, int maxIterations) {
    VoxelBox changed = VoxelBox::none();
    for (int it = 0; it < maxIterations && !front.empty(); ++it) {
        front = growLayer(front, changed);
        m_grown += front.size();
        ++m_iterations;
    }
    if (changed.empty()) return std::nullopt;
    return changed;
}

StepReport RegionGrowingCpu::step(int maxIterations) {
    StepReport r;
    r.changed = std::visit([&](auto& front) { return growLayers(front, maxIterations); }, m_front);
    const std::size_t frontSize = indexCount(m_front);
    r.iterations = m_iterations;
    r.convergence = double(frontSize);
    r.finished = frontSize == 0;
    // Unknown final size: progress from the front shrinking relative to what has grown.
    r.progress = r.finished ? 1.0 : double(m_grown) / double(m_grown + 8 * frontSize);
    return r;
}

void RegionGrowingCpu::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    if (sink.onDevice) throw std::invalid_argument("the CPU region-growing engine writes host labels only");
    const Geometry& g = m_request.volume->geometry();
    const VoxelBox b = box ? *box : wholeBox(g);
    parallelFor(std::size_t(b.hi[2] - b.lo[2] + 1), m_request.threads, [&](std::size_t dk) {
        for (int j = b.lo[1]; j <= b.hi[1]; ++j) {
            const std::size_t row = g.index(0, j, b.lo[2] + int(dk));
            for (int i = b.lo[0]; i <= b.hi[0]; ++i) sink.data[row + i] = m_state[row + i] == kGrown ? 1 : 0;
        }
    });
}

void RegionGrowingCpu::takeResult(LabelMap& out) {
    const Geometry& g = m_request.volume->geometry();
    if (m_state.size() != g.voxelCount()) return result(out);
    parallelFor(std::size_t(g.dims[2]), m_request.threads, [&](std::size_t k) {
        std::uint8_t* slice = m_state.data() + k * g.sliceSize();
        for (std::size_t i = 0; i < g.sliceSize(); ++i) slice[i] = slice[i] == kGrown ? 1 : 0;
    });
    out = LabelMap(g, std::move(m_state));
    m_state = {};
    clearIndices(m_front, true);
}

}  // namespace lucent
