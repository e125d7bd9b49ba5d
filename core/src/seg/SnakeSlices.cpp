/// @brief Slice propagation decisions, contours JSON and polygon rasterisation of the region snake.
#include "lucent/core/seg/SnakeSlices.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>

namespace lucent {

SnakeBounds snakeBounds(const SegmentationRequest& request) {
    if (const auto& d = request.snake.domain) return {(*d)[0], (*d)[1], (*d)[2], (*d)[3]};
    const auto& dims = request.volume->geometry().dims;
    return {0, 0, dims[0] - 1, dims[1] - 1};
}

std::array<int, 4> snakeStartRect(const SegmentationRequest& request) {
    const SnakeBounds b = snakeBounds(request);
    const auto& r = request.snake.rect;
    return {std::max(r[0], b.x0), std::max(r[1], b.y0), std::min(r[2], b.x1), std::min(r[3], b.y1)};
}

std::vector<PixelPoint> snakeStartPolygon(const SegmentationRequest& request) {
    const auto r = snakeStartRect(request);
    return {{r[0], r[1]}, {r[2], r[1]}, {r[2], r[3]}, {r[0], r[3]}};
}

void SnakeSlices::reset(const SegmentationRequest& request) {
    m_request = &request;
    m_done.clear();
    m_direction = 0;
    m_startArea = m_startContrast = m_startMean = m_startSigma = 0;
}

std::optional<SnakeNextSlice> SnakeSlices::finish(SnakeSliceResult slice, const RegionSums& t, const RegionSums& b) {
    const int finished = slice.slice;
    m_done.push_back(std::move(slice));
    const SnakeParams& p = m_request->snake;
    if (!p.propagate) return std::nullopt;
    auto contrast = [&] {
        const double mb = b.sz / b.n, sb = std::sqrt(std::max(1e-12, b.sz2 / b.n - mb * mb));
        return std::abs(t.sz / t.n - mb) / sb;
    };
    const double mean = t.sz / t.n;
    if (m_direction == 0) {
        m_startContrast = contrast();
        m_startArea = t.n;
        m_startMean = mean;
        m_startSigma = std::sqrt(std::max(0.0, t.sz2 / t.n - mean * mean));
    }
    // The slices it may go to: the volume's, or the ROI's k0..k1 (no label is kept beyond them).
    const auto* roi = m_request->roi ? &*m_request->roi : nullptr;
    const int first = roi ? std::max(0, roi->lo[2]) : 0;
    const int last = std::min(m_request->volume->geometry().dims[2] - 1, roi ? roi->hi[2] : INT_MAX);
    // Keep going while the same object is still there: enough area, enough contrast, and a target
    // whose mean stays within 3 sigma of the first slice's (not another structure the snake found).
    const bool sameObject = std::abs(mean - m_startMean) <= 3.0 * m_startSigma + 0.02 * std::abs(m_startMean);
    const bool stillThere = m_direction == 0 || (t.n >= std::max(25.0, 0.1 * m_startArea) &&
                                                 contrast() >= m_startContrast / 3 && sameObject);
    if (m_direction != 0 && !stillThere) m_done.pop_back();  // this slice lost the object
    int next = stillThere ? finished + (m_direction == 0 ? 1 : m_direction) : -1;
    if (m_direction == 0) m_direction = 1;
    if (!stillThere || next < first || next > last) {
        if (m_direction == 1) {
            m_direction = -1;
            next = p.slice - 1;
        } else {
            next = -1;
        }
    }
    if (next < first || next > last) return std::nullopt;
    // Start the neighbour from the result nearest to it.
    const SnakeSliceResult* from = &m_done.front();
    for (const auto& s : m_done)
        if (std::abs(s.slice - next) < std::abs(from->slice - next)) from = &s;
    return SnakeNextSlice{next, from->polygon, std::max(1, p.stepMax / 4)};
}

void SnakeSlices::writeContours(JsonWriter& json) const {
    json.beginObject().key("slices").beginArray();
    for (const auto& slice : m_done) {
        json.beginObject().key("slice").value(slice.slice).key("polygon").beginArray();
        for (const auto& p : slice.polygon) json.array(std::vector<double>{double(p.x), double(p.y)});
        json.endArray().key("gl").array(slice.glHistory).endObject();
    }
    json.endArray().endObject();
}

std::optional<VoxelBox> SnakeSlices::changedSince(std::size_t from) const {
    if (from >= m_done.size()) return std::nullopt;
    const auto& dims = m_request->volume->geometry().dims;
    VoxelBox box = VoxelBox::none();
    for (std::size_t s = from; s < m_done.size(); ++s)
        for (const PixelPoint& p : m_done[s].polygon)
            box.add(std::clamp(p.x, 0, dims[0] - 1), std::clamp(p.y, 0, dims[1] - 1), m_done[s].slice);
    if (box.empty()) return std::nullopt;
    return box;
}

void rasterisePolygon(const std::vector<PixelPoint>& poly, int width, int height, std::uint8_t* slice) {
    const std::size_t n = poly.size();
    std::vector<int> cuts;
    for (int y = 0; y < height; ++y) {
        cuts.clear();
        for (std::size_t i = 0; i < n; ++i) {
            const PixelPoint p = poly[i], q = poly[(i + 1) % n];
            if (p.y == q.y || y < std::min(p.y, q.y) || y >= std::max(p.y, q.y)) continue;
            cuts.push_back(std::clamp(crossingColumn(p, q, y), 0, width));
        }
        std::sort(cuts.begin(), cuts.end());
        std::uint8_t* row = slice + std::size_t(y) * std::size_t(width);
        for (std::size_t c = 0; c + 1 < cuts.size(); c += 2) std::fill(row + cuts[c], row + cuts[c + 1], std::uint8_t(1));
    }
}

void SnakeSlices::rasterise(std::uint8_t* labels) const {
    const Geometry& g = m_request->volume->geometry();
    std::fill(labels, labels + g.voxelCount(), std::uint8_t(0));
    for (const auto& s : m_done) rasterisePolygon(s.polygon, g.dims[0], g.dims[1], labels + g.index(0, 0, s.slice));
    const SegmentationRequest& r = *m_request;
    if (r.roi || r.mask) {
        for (int k = 0; k < g.dims[2]; ++k)
            for (int j = 0; j < g.dims[1]; ++j)
                for (int i = 0; i < g.dims[0]; ++i) {
                    const std::size_t idx = g.index(i, j, k);
                    if ((r.roi && !r.roi->contains(i, j, k)) || (r.mask && !(*r.mask)[idx])) labels[idx] = 0;
                }
    }
}

}  // namespace lucent
