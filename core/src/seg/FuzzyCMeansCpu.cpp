/// @brief FCM iterations over the intensity histogram (or every voxel), labelling by maximum membership.
#include "lucent/core/seg/FuzzyCMeansCpu.h"

#include "lucent/core/ParallelFor.h"
#include "lucent/core/seg/Eligibility.h"
#include "lucent/core/seg/FcmMath.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace lucent {

void FuzzyCMeansCpu::start(const SegmentationRequest& request) {
    validateRequest(Method::FuzzyCMeans, request);
    m_request = request;
    const Volume& v = *request.volume;
    const Geometry& g = v.geometry();
    const Eligibility eligible(request);
    m_included.assign(g.voxelCount(), 0);
    std::size_t count = 0;
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const std::size_t idx = g.index(i, j, k);
                if (eligible(i, j, k, idx)) {
                    m_included[idx] = 1;
                    ++count;
                }
            }
    if (count == 0) throw std::invalid_argument("no voxel lies inside the ROI/mask");

    // The histogram: sorted distinct values with their counts (a counting array for int16).
    std::vector<double> distinct, counts;
    if (v.pixelType() == PixelType::Int16) {
        std::vector<std::uint64_t> bins(65536, 0);
        for (std::size_t idx = 0; idx < g.voxelCount(); ++idx)
            if (m_included[idx]) ++bins[std::size_t(v.int16Data()[idx] + 32768)];
        for (std::size_t b = 0; b < bins.size(); ++b)
            if (bins[b]) {
                distinct.push_back(double(int(b) - 32768));
                counts.push_back(double(bins[b]));
            }
    } else {
        std::vector<float> all;
        all.reserve(count);
        for (std::size_t idx = 0; idx < g.voxelCount(); ++idx)
            if (m_included[idx]) all.push_back(v.float32Data()[idx]);
        std::sort(all.begin(), all.end());
        for (std::size_t a = 0; a < all.size(); ++a) {
            if (a == 0 || all[a] != all[a - 1]) {
                distinct.push_back(all[a]);
                counts.push_back(0.0);
            }
            counts.back() += 1.0;
        }
    }
    if (request.fuzzyCMeans.perVoxel) {
        m_values.clear();
        m_values.reserve(count);
        for (std::size_t idx = 0; idx < g.voxelCount(); ++idx)
            if (m_included[idx]) m_values.push_back(v.value(idx));
        m_weights.assign(m_values.size(), 1.0);
    } else {
        m_values = distinct;
        m_weights = counts;
    }
    const int c = request.fuzzyCMeans.clusters;
    m_centres = startCentres(distinct, counts, c);
    m_memberships.assign(m_values.size() * c, 0.0);
    for (std::size_t s = 0; s < m_values.size(); ++s)
        fcmMemberships(m_values[s], m_centres.data(), c, request.fuzzyCMeans.fuzziness, &m_memberships[s * c]);
    m_iterations = 0;
    m_finished = false;
    m_lastChange = 1.0;
}

std::vector<double> FuzzyCMeansCpu::startCentres(const std::vector<double>& distinct, const std::vector<double>& counts,
                                                 int c) {
    if (distinct.size() < std::size_t(c))
        throw std::invalid_argument("only " + std::to_string(distinct.size()) + " distinct intensities for " +
                                    std::to_string(c) + " clusters");
    const double count = std::accumulate(counts.begin(), counts.end(), 0.0);
    // Deterministic start: centres at the (k + 1/2)/c quantiles of the included intensities.
    std::vector<double> centres(c, 0.0);
    double cumulative = 0.0;
    int next = 0;
    for (std::size_t d = 0; d < distinct.size(); ++d) {
        cumulative += counts[d];
        while (next < c && cumulative >= (next + 0.5) / c * count) centres[next++] = distinct[d];
    }
    // A value holding many voxels (background) can take several quantiles: move repeats up to the
    // next distinct values so the clusters start apart (there are at least c distinct values).
    for (int k = 1; k < c; ++k) {
        if (centres[k] > centres[k - 1]) continue;
        auto above = std::upper_bound(distinct.begin(), distinct.end(), centres[k - 1]);
        centres[k] = above != distinct.end() ? *above : centres[k - 1] + 1.0;
    }
    return centres;
}

double FuzzyCMeansCpu::iterate() {
    const int c = m_request.fuzzyCMeans.clusters;
    const double m = m_request.fuzzyCMeans.fuzziness;
    const std::size_t n = m_values.size();
    const unsigned threads = m_request.threads ? m_request.threads : defaultThreadCount();
    // Eq. 3: centres from the current memberships; per-chunk partial sums, added in chunk order.
    const std::size_t chunks = std::min<std::size_t>(n / 8192 + 1, 64);
    std::vector<double> num(chunks * c, 0.0), den(chunks * c, 0.0);
    parallelFor(chunks, threads, [&](std::size_t ch) {
        for (std::size_t s = n * ch / chunks; s < n * (ch + 1) / chunks; ++s)
            for (int k = 0; k < c; ++k) {
                const double w = m_weights[s] * fcmPow(m_memberships[s * c + k], m);
                num[ch * c + k] += w * m_values[s];
                den[ch * c + k] += w;
            }
    });
    for (int k = 0; k < c; ++k) {
        double a = 0, b = 0;
        for (std::size_t ch = 0; ch < chunks; ++ch) {
            a += num[ch * c + k];
            b += den[ch * c + k];
        }
        if (b > 0) m_centres[k] = a / b;
    }
    // Eq. 4: new memberships, and the largest change.
    std::vector<double> change(chunks, 0.0);
    parallelFor(chunks, threads, [&](std::size_t ch) {
        std::vector<double> u(c);
        for (std::size_t s = n * ch / chunks; s < n * (ch + 1) / chunks; ++s) {
            fcmMemberships(m_values[s], m_centres.data(), c, m, u.data());
            for (int k = 0; k < c; ++k) {
                change[ch] = std::max(change[ch], std::abs(u[k] - m_memberships[s * c + k]));
                m_memberships[s * c + k] = u[k];
            }
        }
    });
    return *std::max_element(change.begin(), change.end());
}

StepReport FuzzyCMeansCpu::step(int maxIterations) {
    const int before = m_iterations;
    for (int it = 0; it < maxIterations && !m_finished; ++it) {
        m_lastChange = iterate();
        ++m_iterations;
        if (m_lastChange < m_request.fuzzyCMeans.epsilon || m_iterations >= m_request.fuzzyCMeans.maxIterations)
            m_finished = true;
    }
    StepReport r;
    r.iterations = m_iterations;
    r.convergence = m_lastChange;
    r.finished = m_finished;
    // New centres may move any value to another cluster: a live view re-uploads the whole preview
    // (without a box it kept the first iteration's labels on screen).
    if (m_iterations > before) r.changed = wholeBox(m_request.volume->geometry());
    r.progress = m_finished ? 1.0
                            : std::clamp(std::log(m_lastChange) / std::log(m_request.fuzzyCMeans.epsilon), 0.0, 0.99);
    return r;
}

std::vector<int> FuzzyCMeansCpu::ranks() const {
    const int c = int(m_centres.size());
    std::vector<int> order(c);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return m_centres[a] < m_centres[b]; });
    std::vector<int> rank(c);
    for (int r = 0; r < c; ++r) rank[order[r]] = r;
    return rank;
}

std::vector<double> FuzzyCMeansCpu::centres() const {
    std::vector<double> sorted = m_centres;
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

void FuzzyCMeansCpu::takeResult(LabelMap& out) {
    const Geometry& g = m_request.volume->geometry();
    if (m_included.size() != g.voxelCount()) return result(out);
    writeLabels({m_included.data(), m_included.size(), false});
    out = LabelMap(g, std::move(m_included));
    m_included = {};
}

void FuzzyCMeansCpu::writeLabels(const LabelSink& sink, const VoxelBox*) const {
    // Every voxel is written (the box is only a lower bound on what callers need).
    if (sink.onDevice) throw std::invalid_argument("the CPU fuzzy C-means engine writes host labels only");
    std::uint8_t* out = sink.data;
    const Volume& v = *m_request.volume;
    const std::unordered_map<double, std::uint8_t> labelOf = labelsOfValues();
    if (v.pixelType() == PixelType::Int16) {
        // A direct table for int16: the per-voxel pass is the bulk of the work on large volumes.
        std::vector<std::uint8_t> table(65536, 0);
        for (const auto& [value, label] : labelOf) table[std::size_t(int(value) + 32768)] = label;
        const std::int16_t* data = v.int16Data();
        parallelFor(64, m_request.threads, [&](std::size_t c) {
            for (std::size_t idx = v.voxelCount() * c / 64; idx < v.voxelCount() * (c + 1) / 64; ++idx)
                out[idx] = m_included[idx] ? table[std::size_t(data[idx] + 32768)] : 0;
        });
        return;
    }
    for (std::size_t idx = 0; idx < v.voxelCount(); ++idx)
        out[idx] = m_included[idx] ? labelOf.at(v.value(idx)) : 0;
}

std::unordered_map<double, std::uint8_t> FuzzyCMeansCpu::labelsOfValues() const {
    const int c = int(m_centres.size());
    const auto rank = ranks();
    // Looked up from the samples: identical values have identical memberships.
    std::unordered_map<double, std::uint8_t> labelOf;
    for (std::size_t s = 0; s < m_values.size(); ++s) {
        if (labelOf.count(m_values[s])) continue;
        int best = 0;
        for (int k = 1; k < c; ++k) {
            const double a = m_memberships[s * c + k], b = m_memberships[s * c + best];
            if (a > b || (a == b && rank[k] < rank[best])) best = k;
        }
        labelOf[m_values[s]] = static_cast<std::uint8_t>(rank[best] + 1);
    }
    return labelOf;
}

std::vector<Volume> FuzzyCMeansCpu::softMaps() const {
    const Volume& v = *m_request.volume;
    const int c = int(m_centres.size());
    const auto rank = ranks();
    std::unordered_map<double, std::size_t> sampleOf;
    for (std::size_t s = 0; s < m_values.size(); ++s) sampleOf.emplace(m_values[s], s);
    std::vector<Volume> maps;
    for (int k = 0; k < c; ++k) maps.emplace_back(v.geometry(), PixelType::Float32);
    for (std::size_t idx = 0; idx < v.voxelCount(); ++idx) {
        if (!m_included[idx]) continue;
        const std::size_t s = sampleOf.at(v.value(idx));
        for (int k = 0; k < c; ++k) maps[rank[k]].float32Data()[idx] = static_cast<float>(m_memberships[s * c + k]);
    }
    return maps;
}

}  // namespace lucent

namespace lucent {

MethodFigures FuzzyCMeansCpu::figures() const {
    MethodFigures f;
    f.centres = centres();
    f.samples = m_values.size();
    // Each sample stands for `weight` included voxels (a histogram bin, or one voxel).
    f.clusterVoxels.assign(m_centres.size(), 0);
    const auto labelOf = labelsOfValues();
    for (std::size_t s = 0; s < m_values.size(); ++s)
        f.clusterVoxels[labelOf.at(m_values[s]) - 1] += std::size_t(m_weights[s]);
    f.path = m_request.fuzzyCMeans.perVoxel ? "per-voxel" : "histogram";
    return f;
}

}  // namespace lucent
