/// @brief Grow from seeds on the CPU: Dial's bucket queue over exact integer distances (int16) or a
/// binary heap over float distances (float32), both settling voxels in (distance, label) order.
#include "lucent/core/seg/GrowCutCpu.h"

#include "lucent/core/seg/Eligibility.h"
#include "lucent/core/seg/GrowCutKey.h"
#include "lucent/core/StageTimes.h"

#include <algorithm>
#include <stdexcept>

namespace lucent {

namespace {

/// Calls f(i, j, k, u) for each face neighbour u of voxel v that a path may enter: inside the grid
/// and eligible (ROI, mask). Two divisions a voxel, and no eligibility test without an ROI or a
/// mask: this is the engine's inner loop. Seeds are left to the caller: a seed's key (0, label)
/// can only be beaten by a candidate at distance 0, so it looks at the seed byte only then.
class FreeNeighbours {
public:
    explicit FreeNeighbours(const SegmentationRequest& r)
        : m_g(r.volume->geometry()), m_eligible(r), m_restricted(r.roi || r.mask), m_nx(std::size_t(m_g.dims[0])), m_slice(m_g.sliceSize()) {}
    template <class F>
    void operator()(std::size_t v, F&& f) const {
        const std::size_t k = v / m_slice, rest = v - k * m_slice, j = rest / m_nx, i = rest - j * m_nx;
        visit(int(i) - 1, int(j), int(k), v - 1, i > 0, f);
        visit(int(i) + 1, int(j), int(k), v + 1, int(i) + 1 < m_g.dims[0], f);
        visit(int(i), int(j) - 1, int(k), v - m_nx, j > 0, f);
        visit(int(i), int(j) + 1, int(k), v + m_nx, int(j) + 1 < m_g.dims[1], f);
        visit(int(i), int(j), int(k) - 1, v - m_slice, k > 0, f);
        visit(int(i), int(j), int(k) + 1, v + m_slice, int(k) + 1 < m_g.dims[2], f);
    }

private:
    template <class F>
    void visit(int i, int j, int k, std::size_t u, bool inside, F& f) const {
        if (!inside || (m_restricted && !m_eligible(i, j, k, u))) return;
        f(i, j, k, u);
    }
    const Geometry& m_g;
    Eligibility m_eligible;
    bool m_restricted;
    std::size_t m_nx, m_slice;
};

}  // namespace

void GrowCutCpu::start(const SegmentationRequest& request) {
    validateRequest(Method::GrowCut, request);
    m_request = request;
    const Geometry& g = grid();
    const std::size_t n = g.voxelCount();
    cancel();
    m_keys.assign(n, kGrowCutUnreached);
    m_counts = {};
    m_counts[0] = n;
    m_seeded = {};
    m_seeds.assign(n, 0);
    m_ring.assign(floatVolume() ? 0 : kGrowCutCostSpan, {});
    m_distance = 0;
    m_settled = 0;
    m_iterations = 0;
    m_planted = VoxelBox::none();
    const Eligibility eligible(m_request);
    const bool restricted = request.roi || request.mask;
    m_eligibleCount = restricted ? 0 : n;  // the progress' denominator
    for (int k = 0; restricted && k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) m_eligibleCount += eligible(i, j, k, g.index(i, j, k));
    m_cancelled = false;
    plantSeeds(request.growCut.seeds->data(), wholeBox(g), false);
    if (m_queued == 0) throw std::invalid_argument("every seed lies outside the ROI/mask");
}

bool GrowCutCpu::plantSeeds(const std::uint8_t* seeds, const VoxelBox& box, bool onlyImproving) {
    const stages::Scope stage("grow from seeds: the new seeds planted");
    const Geometry& g = grid();
    const Eligibility eligible(m_request);
    for (int k = box.lo[2]; onlyImproving && k <= box.hi[2]; ++k)
        for (int j = box.lo[1]; j <= box.hi[1]; ++j)
            for (int i = box.lo[0]; i <= box.hi[0]; ++i) {
                const std::size_t v = g.index(i, j, k);
                if (seeds[v] != 0 && m_seeds[v] == 0 && m_keys[v] < growCutKey(0, seeds[v])) return false;
            }
    for (int k = box.lo[2]; k <= box.hi[2]; ++k)
        for (int j = box.lo[1]; j <= box.hi[1]; ++j) {
            const std::size_t row = g.index(0, j, k);
            for (int i = box.lo[0]; i <= box.hi[0]; ++i) {
                const std::size_t v = row + std::size_t(i);
                const std::uint8_t label = seeds[v];
                if (label == 0 || m_seeds[v] != 0) continue;
                m_seeds[v] = label;  // a seed keeps its label: no path relabels it
                m_seeded[label] = true;
                if (!eligible(i, j, k, v)) continue;
                setKey(v, growCutKey(0, label));  // 0 is also the float 0's bits
                push(v, m_keys[v]);
                m_planted.add(i, j, k);
            }
        }
    return true;
}

void GrowCutCpu::setKey(std::size_t v, std::uint64_t key) {
    --m_counts[growCutLabel(m_keys[v])];
    ++m_counts[growCutLabel(key)];
    m_keys[v] = key;
}

void GrowCutCpu::push(std::size_t v, std::uint64_t key) {
    if (floatVolume())
        m_heap.push({key, v});
    else
        m_ring[growCutDistance(key) % kGrowCutCostSpan].push_back(v);
    ++m_queued;
}

void GrowCutCpu::cancel() {
    m_cancelled = m_queued > 0;
    for (auto& bucket : m_ring) std::vector<std::size_t>().swap(bucket);
    m_heap = {};
    m_queued = 0;
}

// Every queued distance lies in [m_distance, m_distance + 65535] (a step adds at most 65535), so
// the ring's slot d % 65536 holds distance d only. An entry whose voxel's distance is no longer the
// slot's was improved after it was queued: stale, skipped. A voxel improved to the same distance
// with a smaller label is queued twice and settled twice; the second finds nothing to improve.
VoxelBox GrowCutCpu::settleInt16(std::size_t budget) {
    const FreeNeighbours neighbours(m_request);
    const std::int16_t* image = m_request.volume->int16Data();
    const std::size_t n = m_keys.size(), nx = std::size_t(grid().dims[0]), slice = grid().sliceSize();
    // The voxels a few entries down the bucket are settled next: fetching their keys and values
    // and those of the neighbours in other rows and slices now hides most of the memory latency
    // (the front is scattered over the whole volume).
    auto prefetch = [&](std::size_t w) {
        for (const std::size_t u : {w, w - nx, w + nx, w - slice, w + slice})
            if (u < n) {
                __builtin_prefetch(&m_keys[u]);
                __builtin_prefetch(&image[u]);
            }
    };
    VoxelBox changed = VoxelBox::none();
    while (m_queued > 0 && budget > 0) {
        auto& bucket = m_ring[m_distance % kGrowCutCostSpan];
        if (bucket.empty()) {
            ++m_distance;
            continue;
        }
        if (bucket.size() > 6) prefetch(bucket[bucket.size() - 7]);
        const std::size_t v = bucket.back();
        bucket.pop_back();
        --m_queued;
        const std::uint64_t key = m_keys[v];
        if (growCutDistance(key) != m_distance) continue;
        --budget;
        ++m_settled;
        const int value = image[v];
        const std::uint8_t label = growCutLabel(key);
        neighbours(v, [&](int ni, int nj, int nk, std::size_t u) {
            const std::uint64_t candidate = growCutKey(m_distance + growCutCost(value, int(image[u])), label);
            if (candidate >= m_keys[u] || m_seeds[u] != 0) return;
            setKey(u, candidate);
            m_ring[growCutDistance(candidate) % kGrowCutCostSpan].push_back(u);
            ++m_queued;
            changed.add(ni, nj, nk);
        });
    }
    return changed;
}

// Dijkstra on (distance, label) keys: fl(d + c) >= d, so a voxel is never improved after it is
// settled, and a key popped that is no longer the voxel's is stale.
VoxelBox GrowCutCpu::settleFloat(std::size_t budget) {
    const FreeNeighbours neighbours(m_request);
    const float* image = m_request.volume->float32Data();
    VoxelBox changed = VoxelBox::none();
    while (!m_heap.empty() && budget > 0) {
        const auto [key, v] = m_heap.top();
        m_heap.pop();
        --m_queued;
        if (m_keys[v] != key) continue;
        --budget;
        ++m_settled;
        const float distance = growCutFloatDistance(key), value = image[v];
        const std::uint8_t label = growCutLabel(key);
        neighbours(v, [&](int ni, int nj, int nk, std::size_t u) {
            const float cost = growCutCost(value, image[u]);
            if (!(cost >= 0.0f)) return;  // NaN on either side: no path crosses the step
            const std::uint64_t candidate = growCutFloatKey(distance + cost, label);
            if (candidate >= m_keys[u] || m_seeds[u] != 0) return;
            setKey(u, candidate);
            push(u, candidate);
            changed.add(ni, nj, nk);
        });
    }
    return changed;
}

StepReport GrowCutCpu::step(int maxIterations) {
    // One iteration settles up to 65536 voxels: small enough for a frame, large enough to be quick.
    const std::size_t budget = std::size_t(std::max(1, maxIterations)) << 16;
    const stages::Scope stage("grow from seeds: a step (voxels settled)");
    const VoxelBox changed = floatVolume() ? settleFloat(budget) : settleInt16(budget);
    const std::optional<VoxelBox> box = merge(changed.empty() ? std::nullopt : std::optional(changed), m_planted);
    m_planted = VoxelBox::none();
    ++m_iterations;
    StepReport r;
    r.iterations = m_iterations;
    r.convergence = double(m_settled);
    r.finished = finished();
    r.changed = box;
    r.progress = r.finished ? 1.0 : std::min(0.99, double(m_settled) / double(std::max<std::size_t>(1, m_eligibleCount)));
    return r;
}

void GrowCutCpu::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    if (sink.onDevice) throw std::invalid_argument("the CPU grow-from-seeds engine writes host labels only");
    const Geometry& g = grid();
    const VoxelBox b = box ? *box : wholeBox(g);
    for (int k = b.lo[2]; k <= b.hi[2]; ++k)
        for (int j = b.lo[1]; j <= b.hi[1]; ++j) {
            const std::size_t row = g.index(0, j, k);
            for (int i = b.lo[0]; i <= b.hi[0]; ++i) sink.data[row + i] = growCutLabel(m_keys[row + i]);
        }
}

MethodFigures GrowCutCpu::figures() const {
    MethodFigures f;
    for (int label = 1; label < 256; ++label)
        if (m_seeded[label] || m_counts[label] > 0) f.labelVoxels.push_back({label, m_counts[label]});
    return f;
}

UpdateOutcome GrowCutCpu::update(const SegmentationRequest& request) {
    // Float volumes, an unfinished or cancelled run (the ring's distances start above 0, or the
    // front was dropped) and anything but added seeds start again; so does a new seed on a voxel
    // another label reached at distance 0.
    const std::optional<VoxelBox> added =
        m_keys.empty() || floatVolume() || !finished() || m_cancelled ? std::nullopt : addedSeeds(m_seeds, m_request, request);
    if (!added) {
        start(request);
        return UpdateOutcome::Restarted;
    }
    // The seeds the run holds are all kept (so there is one) on the same volume, ROI and mask: only the
    // parameters are left to check, not the whole seed map again.
    validateParameters(Method::GrowCut, request);
    m_request = request;
    m_distance = 0;
    m_settled = 0;
    if (!plantSeeds(request.growCut.seeds->data(), *added, true)) {
        start(request);
        return UpdateOutcome::Restarted;
    }
    return UpdateOutcome::Continued;
}

}  // namespace lucent
