/// @brief Bucket-queue max-min propagation of fuzzy connectivity; thresholding without recomputation.
#include "lucent/core/seg/FuzzyConnectednessCpu.h"

#include "lucent/core/seg/Eligibility.h"
#include "lucent/core/seg/VoxelNeighbours.h"

#include <algorithm>
#include <string>
#include <cmath>
#include <stdexcept>
#include <variant>

namespace lucent {

AffinityParams FuzzyConnectednessCpu::estimate(const Volume& volume, const std::vector<VoxelIndex>& seeds, int radius,
                                               std::pair<double, double> range) {
    return estimate(volume.geometry(), [&volume](int i, int j, int k) { return volume.value(i, j, k); }, seeds, radius,
                    range);
}

AffinityParams FuzzyConnectednessCpu::estimate(const Geometry& g, const std::function<double(int, int, int)>& value,
                                               const std::vector<VoxelIndex>& seeds, int radius,
                                               std::pair<double, double> range) {
    double sum = 0, sum2 = 0, diff2 = 0;
    std::size_t n = 0, nd = 0;
    for (const auto& s : seeds) {
        for (int k = std::max(0, s.k - radius); k <= std::min(g.dims[2] - 1, s.k + radius); ++k)
            for (int j = std::max(0, s.j - radius); j <= std::min(g.dims[1] - 1, s.j + radius); ++j)
                for (int i = std::max(0, s.i - radius); i <= std::min(g.dims[0] - 1, s.i + radius); ++i) {
                    const double v = value(i, j, k);
                    sum += v;
                    sum2 += v * v;
                    ++n;
                    // Face differences towards +x, +y, +z inside the cube.
                    if (i < std::min(g.dims[0] - 1, s.i + radius)) { const double d = v - value(i + 1, j, k); diff2 += d * d; ++nd; }
                    if (j < std::min(g.dims[1] - 1, s.j + radius)) { const double d = v - value(i, j + 1, k); diff2 += d * d; ++nd; }
                    if (k < std::min(g.dims[2] - 1, s.k + radius)) { const double d = v - value(i, j, k + 1); diff2 += d * d; ++nd; }
                }
    }
    AffinityParams p;
    p.mean = sum / double(n);
    const auto [lo, hi] = range;
    // A perfectly flat seed region has no spread: floor the sigmas at 0.1 % of the value range.
    const double floor = std::max(1e-6, 1e-3 * (hi - lo));
    p.objectSigma = std::max(floor, std::sqrt(std::max(0.0, sum2 / double(n) - p.mean * p.mean)));
    p.diffSigma = std::max(floor, nd ? std::sqrt(diff2 / double(nd)) : floor);
    return p;
}

std::uint16_t FuzzyConnectednessCpu::affinity(std::size_t a, std::size_t b) const {
    const Volume& v = *m_request.volume;
    if (v.pixelType() == PixelType::Int16) {
        const int va = v.int16Data()[a], vb = v.int16Data()[b];
        return combineAffinity(m_g1[va + vb - 2 * m_minValue], m_g2[std::abs(va - vb)]);
    }
    const double va = v.float32Data()[a], vb = v.float32Data()[b];
    return combineAffinity(affinityG1(va + vb, m_params), affinityG2(va - vb, m_params));
}

void FuzzyConnectednessCpu::buildAffinityTables(std::pair<double, double> range) {
    const auto [lo, hi] = range;
    m_minValue = int(lo);
    const int span = int(hi - lo);
    m_g1.resize(2 * span + 1);
    for (int s = 0; s <= 2 * span; ++s) m_g1[s] = affinityG1(double(s + 2 * m_minValue), m_params);
    m_g2.resize(span + 1);
    for (int d = 0; d <= span; ++d) m_g2[d] = affinityG2(double(d), m_params);
}

void FuzzyConnectednessCpu::start(const SegmentationRequest& request) {
    validateRequest(Method::FuzzyConnectedness, request);
    m_request = request;
    const auto& fc = request.fuzzyConnectedness;
    const auto range = request.volume->range();
    m_params = estimate(*request.volume, request.seeds, fc.estimateRadius, range);
    if (fc.objectMean) m_params.mean = *fc.objectMean;
    if (fc.objectSigma) m_params.objectSigma = *fc.objectSigma;
    if (fc.diffSigma) m_params.diffSigma = *fc.diffSigma;
    if (request.volume->pixelType() == PixelType::Int16) buildAffinityTables(range);
    m_iterations = 0;
    m_settled = 0;
    if (fc.objectOnly) return startObject();
    std::vector<std::uint8_t>().swap(m_object);
    const std::size_t n = request.volume->voxelCount();
    m_connectivity.assign(n, 0);
    m_buckets = emptyIndexLists<VoxelIndexBuckets>(lucent::wideIndices(m_width, n));
    std::visit([this](auto& buckets) { plantSeeds(buckets); }, m_buckets);
    m_level = kFullStrength;
}

template <class Index>
void FuzzyConnectednessCpu::plantSeeds(IndexBuckets<Index>& buckets) {
    const Geometry& g = m_request.volume->geometry();
    const Eligibility eligible(m_request);
    buckets.assign(kFullStrength + 1, {});
    for (const auto& s : m_request.seeds) {
        const std::size_t idx = g.index(s.i, s.j, s.k);
        if (!eligible(s.i, s.j, s.k, idx) || m_connectivity[idx] == kFullStrength) continue;
        m_connectivity[idx] = kFullStrength;
        buckets[kFullStrength].push_back(static_cast<Index>(idx));
    }
    if (buckets[kFullStrength].empty()) throw std::invalid_argument("every seed lies outside the ROI/mask");
}

template <class Index>
VoxelBox FuzzyConnectednessCpu::settle(IndexBuckets<Index>& buckets, std::size_t budget) {
    const Geometry& g = m_request.volume->geometry();
    const Eligibility eligible(m_request);
    VoxelBox changed = VoxelBox::none();
    while (m_level > 0 && budget > 0) {
        auto& bucket = buckets[m_level];
        if (bucket.empty()) {
            std::vector<Index>().swap(bucket);
            --m_level;
            continue;
        }
        const std::size_t v = bucket.back();
        bucket.pop_back();
        if (m_connectivity[v] != m_level) continue;  // a stale entry: v was raised after it was queued
        --budget;
        ++m_settled;
        forEachFaceNeighbour(g, v, [&](int ni, int nj, int nk, std::size_t u) {
            if (m_connectivity[u] >= m_level || !eligible(ni, nj, nk, u)) return;
            const std::uint16_t s = std::min<std::uint16_t>(static_cast<std::uint16_t>(m_level), affinity(v, u));
            if (s > m_connectivity[u]) {
                m_connectivity[u] = s;
                changed.add(ni, nj, nk);
                buckets[s].push_back(static_cast<Index>(u));
            }
        });
    }
    return changed;
}

StepReport FuzzyConnectednessCpu::step(int maxIterations) {
    // One iteration settles up to 65536 voxels: small enough for a frame, large enough to be quick.
    const std::size_t budget = std::size_t(std::max(1, maxIterations)) << 16;
    const VoxelBox changed = objectOnly() ? std::visit([&](auto& queue) { return growObject(queue, budget); }, m_queue)
                                          : std::visit([&](auto& buckets) { return settle(buckets, budget); }, m_buckets);
    if (!finished()) ++m_iterations;
    else if (m_iterations == 0) m_iterations = 1;
    StepReport r;
    r.iterations = m_iterations;
    r.convergence = double(m_settled);
    r.finished = finished();
    if (!changed.empty()) r.changed = changed;
    // The object's size is not known ahead: only the map's sweep tells its progress.
    r.progress = r.finished ? 1.0 : objectOnly() ? 0.0 : 1.0 - double(m_level) / kFullStrength;
    return r;
}

void FuzzyConnectednessCpu::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    if (sink.onDevice) throw std::invalid_argument("the CPU fuzzy connectedness engine writes host labels only");
    const Geometry& g = m_request.volume->geometry();
    const VoxelBox b = box ? *box : wholeBox(g);
    const std::uint16_t t = thresholdStrength(m_request.fuzzyConnectedness.threshold);
    const bool object = objectOnly();
    for (int k = b.lo[2]; k <= b.hi[2]; ++k)
        for (int j = b.lo[1]; j <= b.hi[1]; ++j) {
            const std::size_t row = g.index(0, j, k);
            for (int i = b.lo[0]; i <= b.hi[0]; ++i)
                sink.data[row + i] = object ? m_object[row + i] : m_connectivity[row + i] >= t ? 1 : 0;
        }
}

void FuzzyConnectednessCpu::takeResult(LabelMap& out) {
    if (!objectOnly() || m_object.size() != grid().voxelCount()) return result(out);
    out = LabelMap(grid(), std::move(m_object));
    m_object = {};
    clearIndices(m_queue, true);
    m_queueRead = 0;
}

MethodFigures FuzzyConnectednessCpu::figures() const {
    MethodFigures f;
    f.affinity = m_params;
    f.threshold = m_request.fuzzyConnectedness.threshold;
    return f;
}

UpdateOutcome FuzzyConnectednessCpu::update(const SegmentationRequest& request) {
    if (m_connectivity.empty() || !keepsConnectivityMap(m_request, request)) {
        start(request);
        return UpdateOutcome::Restarted;
    }
    validateRequest(Method::FuzzyConnectedness, request);
    m_request.fuzzyConnectedness.threshold = request.fuzzyConnectedness.threshold;
    return UpdateOutcome::Relabelled;
}

std::vector<Volume> FuzzyConnectednessCpu::softMaps() const {
    if (m_connectivity.empty()) return {};
    Volume map(m_request.volume->geometry(), PixelType::Float32);
    for (std::size_t i = 0; i < m_connectivity.size(); ++i) map.float32Data()[i] = m_connectivity[i] / 65535.0f;
    return {std::move(map)};
}

}  // namespace lucent
