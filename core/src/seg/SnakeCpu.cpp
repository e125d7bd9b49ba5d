/// @brief Polygon evolution, region sums over the cumulated images, node insertion, slice propagation.
#include "lucent/core/seg/SnakeCpu.h"

#include "lucent/core/ParallelFor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace lucent {

namespace {
constexpr int kMoves[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
constexpr double kInvalid = std::numeric_limits<double>::infinity();
}  // namespace

void SnakeCpu::start(const SegmentationRequest& request) {
    validateRequest(Method::Snake, request);
    m_request = request;
    const Geometry& g = request.volume->geometry();
    m_width = g.dims[0];
    m_height = g.dims[1];
    m_done.clear();
    m_iterations = 0;
    m_finished = false;
    m_direction = 0;
    const auto& r = request.snake.rect;
    // Clockwise in image coordinates (y down): the orientation whose region sums come out positive.
    beginSlice(request.snake.slice, {{r[0], r[1]}, {r[2], r[1]}, {r[2], r[3]}, {r[0], r[3]}}, request.snake.stepMax);
}

void SnakeCpu::beginSlice(int slice, std::vector<PixelPoint> polygon, int d) {
    m_slice = slice;
    const Volume& v = *m_request.volume;
    const std::size_t base = std::size_t(slice) * std::size_t(m_width) * m_height;
    m_cz.resize(std::size_t(m_width) * m_height);
    m_cz2.resize(m_cz.size());
    // C_z and C_z2 (paper 003): running sums along each row; C_1 is the column index + 1.
    std::vector<RegionSums> rows(m_height);
    parallelFor(m_height, m_request.threads, [&](std::size_t y) {
        double a = 0, b = 0;
        for (int x = 0; x < m_width; ++x) {
            const double z = v.value(base + y * m_width + x);
            a += z;
            b += z * z;
            m_cz[y * m_width + x] = a;
            m_cz2[y * m_width + x] = b;
        }
        rows[y] = {double(m_width), a, b};
    });
    m_image = {};
    for (const auto& r : rows) m_image += r;
    m_polygon = std::move(polygon);
    m_d = std::max(1, d);
    recomputeTotals();
    m_glHistory = {m_gl};
}

RegionSums SnakeCpu::segmentSums(PixelPoint p, PixelPoint q) const {
    RegionSums s;
    if (p.y == q.y) return s;
    // Rows [min y, max y): each crossing adds +C (right end, going down) or -C (left end, going up).
    const double sign = q.y > p.y ? 1.0 : -1.0;
    const int y0 = std::min(p.y, q.y), y1 = std::max(p.y, q.y);
    for (int y = y0; y < y1; ++y) {
        const int col = std::clamp(crossingColumn(p, q, y), 0, m_width) - 1;  // last pixel left of the crossing
        if (col < 0) continue;
        const std::size_t at = std::size_t(y) * m_width + col;
        s.n += sign * (col + 1);
        s.sz += sign * m_cz[at];
        s.sz2 += sign * m_cz2[at];
    }
    return s;
}

double SnakeCpu::criterion(const RegionSums& t) const {
    const RegionSums b{m_image.n - t.n, m_image.sz - t.sz, m_image.sz2 - t.sz2};
    if (t.n < 1 || b.n < 1) return kInvalid;
    // A flat region has zero variance: floor it so log stays finite (noise-free test images).
    auto variance = [](const RegionSums& r) {
        const double mean = r.sz / r.n;
        return std::max(r.sz2 / r.n - mean * mean, 1e-12 * (1.0 + mean * mean));
    };
    return 0.5 * (b.n * std::log(variance(b)) + t.n * std::log(variance(t)));
}

void SnakeCpu::recomputeTotals() {
    const std::size_t n = m_polygon.size();
    m_segments.resize(n);
    m_target = {};
    for (std::size_t i = 0; i < n; ++i) {
        m_segments[i] = segmentSums(m_polygon[i], m_polygon[(i + 1) % n]);
        m_target += m_segments[i];
    }
    m_gl = criterion(m_target);
}

bool SnakeCpu::crosses(std::size_t node, PixelPoint c) const {
    const std::size_t n = m_polygon.size();
    const PixelPoint p = m_polygon[(node + n - 1) % n], q = m_polygon[(node + 1) % n];
    if (c == p || c == q) return true;
    // Folding back onto a neighbour: the two new segments overlap.
    if (orientation(p, c, q) == 0 && (onSegment(p, c, q) || onSegment(c, q, p))) return true;
    for (std::size_t s = 0; s < n; ++s) {
        const std::size_t e = (s + 1) % n;
        if (s == node || e == node) continue;  // the two segments being replaced
        const PixelPoint a = m_polygon[s], b = m_polygon[e];
        // New segment p-c against segment a-b: sharing p is allowed only as the common vertex.
        const bool sharesP = (a == p || b == p), sharesQ = (a == q || b == q);
        auto touchesBeyond = [&](PixelPoint u, PixelPoint w, bool shares, PixelPoint common) {
            if (!segmentsTouch(u, w, a, b)) return false;
            if (!shares) return true;
            // Touching only at the shared vertex is fine; collinear overlap is not.
            const PixelPoint other = (a == common) ? b : a;
            const PixelPoint far = (u == common) ? w : u;
            return onSegment(u, w, other) || onSegment(a, b, far);
        };
        if (touchesBeyond(p, c, sharesP, p) || touchesBeyond(c, q, sharesQ, q)) return true;
    }
    return false;
}

bool SnakeCpu::movePhase(const std::vector<std::size_t>& nodes) {
    const std::size_t n = m_polygon.size();
    // Each node's best candidate against the current polygon (independent: a GPU does them at once).
    std::vector<int> best(nodes.size(), -1);
    parallelFor(nodes.size(), m_request.threads, [&](std::size_t t) {
        const std::size_t i = nodes[t];
        const PixelPoint p = m_polygon[(i + n - 1) % n], q = m_polygon[(i + 1) % n];
        RegionSums without = m_target;
        without -= m_segments[(i + n - 1) % n];
        without -= m_segments[i];
        double bestGl = m_gl;
        for (int w = 0; w < 8; ++w) {
            const PixelPoint c{m_polygon[i].x + kMoves[w][0] * m_d, m_polygon[i].y + kMoves[w][1] * m_d};
            if (c.x < 0 || c.y < 0 || c.x >= m_width || c.y >= m_height) continue;
            RegionSums moved = without;
            moved += segmentSums(p, c);
            moved += segmentSums(c, q);
            const double gl = criterion(moved);
            if (gl < bestGl && !crosses(i, c)) {  // strict: ties keep the lower candidate index
                bestGl = gl;
                best[t] = w;
            }
        }
    });
    // Apply in node order, each re-checked against the polygon as it now is.
    bool moved = false;
    for (std::size_t t = 0; t < nodes.size(); ++t) {
        if (best[t] < 0) continue;
        const std::size_t i = nodes[t];
        const PixelPoint c{m_polygon[i].x + kMoves[best[t]][0] * m_d, m_polygon[i].y + kMoves[best[t]][1] * m_d};
        const std::size_t prev = (i + n - 1) % n;
        const RegionSums a = segmentSums(m_polygon[prev], c), b = segmentSums(c, m_polygon[(i + 1) % n]);
        RegionSums t2 = m_target;
        t2 -= m_segments[prev];
        t2 -= m_segments[i];
        t2 += a;
        t2 += b;
        const double gl = criterion(t2);
        if (gl < m_gl && !crosses(i, c)) {
            m_polygon[i] = c;
            m_segments[prev] = a;
            m_segments[i] = b;
            m_target = t2;
            m_gl = gl;
            moved = true;
        }
    }
    return moved;
}

bool SnakeCpu::addNodes() {
    // A node goes in the middle of every long segment. The middle rounds to the pixel grid, which can
    // move the boundary by a pixel: of the up to four roundings, take the one with the lowest GL and
    // insert it only if GL does not rise and nothing crosses, so GL never goes up.
    bool added = false;
    for (std::size_t i = 0; i < m_polygon.size(); ++i) {
        const std::size_t n = m_polygon.size();
        const PixelPoint p = m_polygon[i], q = m_polygon[(i + 1) % n];
        if (std::max(std::abs(q.x - p.x), std::abs(q.y - p.y)) < m_request.snake.minSegment) continue;
        const int xs[2] = {(p.x + q.x) / 2, (p.x + q.x + 1) / 2}, ys[2] = {(p.y + q.y) / 2, (p.y + q.y + 1) / 2};
        double bestGl = m_gl;
        PixelPoint best{-1, -1};
        RegionSums bestA, bestB;
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b) {
                const PixelPoint c{xs[a], ys[b]};
                if (c == p || c == q || (a && xs[1] == xs[0]) || (b && ys[1] == ys[0])) continue;
                const RegionSums sa = segmentSums(p, c), sb = segmentSums(c, q);
                RegionSums t = m_target;
                t -= m_segments[i];
                t += sa;
                t += sb;
                const double gl = criterion(t);
                if (gl <= bestGl) {
                    // Crossing check as if c were a node between p and q.
                    m_polygon.insert(m_polygon.begin() + std::ptrdiff_t(i) + 1, c);
                    const bool bad = crosses(i + 1, c);
                    m_polygon.erase(m_polygon.begin() + std::ptrdiff_t(i) + 1);
                    if (bad) continue;
                    bestGl = gl;
                    best = c;
                    bestA = sa;
                    bestB = sb;
                }
            }
        if (best.x < 0) continue;
        m_polygon.insert(m_polygon.begin() + std::ptrdiff_t(i) + 1, best);
        m_target -= m_segments[i];
        m_target += bestA;
        m_target += bestB;
        m_segments[i] = bestA;
        m_segments.insert(m_segments.begin() + std::ptrdiff_t(i) + 1, bestB);
        m_gl = bestGl;
        added = true;
        ++i;  // skip the new half: its length is below the old one's
    }
    return added;
}

void SnakeCpu::finishSlice() {
    m_done.push_back({m_slice, m_polygon, m_glHistory});
    if (!m_request.snake.propagate) {
        m_finished = true;
        return;
    }
    auto contrast = [&] {
        const RegionSums& t = m_target;
        const RegionSums b{m_image.n - t.n, m_image.sz - t.sz, m_image.sz2 - t.sz2};
        const double mb = b.sz / b.n, sb = std::sqrt(std::max(1e-12, b.sz2 / b.n - mb * mb));
        return std::abs(t.sz / t.n - mb) / sb;
    };
    const double mean = m_target.sz / m_target.n;
    if (m_direction == 0) {
        m_startContrast = contrast();
        m_startArea = m_target.n;
        m_startMean = mean;
        m_startSigma = std::sqrt(std::max(0.0, m_target.sz2 / m_target.n - mean * mean));
    }
    const int depth = m_request.volume->geometry().dims[2];
    // Keep going while the same object is still there: enough area, enough contrast, and a target
    // whose mean stays within 3 sigma of the first slice's (not another structure the snake found).
    const bool sameObject = std::abs(mean - m_startMean) <= 3.0 * m_startSigma + 0.02 * std::abs(m_startMean);
    const bool stillThere = m_direction == 0 || (m_target.n >= std::max(25.0, 0.1 * m_startArea) &&
                                                 contrast() >= m_startContrast / 3 && sameObject);
    if (m_direction != 0 && !stillThere) m_done.pop_back();  // this slice lost the object
    int next = stillThere ? m_slice + (m_direction == 0 ? 1 : m_direction) : -1;
    if (m_direction == 0) m_direction = 1;
    if (!stillThere || next < 0 || next >= depth) {
        if (m_direction == 1) {
            m_direction = -1;
            next = m_request.snake.slice - 1;
        } else {
            next = -1;
        }
    }
    if (next < 0 || next >= depth) {
        m_finished = true;
        return;
    }
    // Start the neighbour from the result nearest to it.
    const SnakeSliceResult* from = &m_done.front();
    for (const auto& s : m_done)
        if (std::abs(s.slice - next) < std::abs(from->slice - next)) from = &s;
    beginSlice(next, from->polygon, std::max(1, m_request.snake.stepMax / 4));
}

StepReport SnakeCpu::step(int maxIterations) {
    for (int it = 0; it < maxIterations && !m_finished; ++it) {
        const std::size_t n = m_polygon.size();
        std::vector<std::size_t> even, odd, last;
        const std::size_t paired = n % 2 ? n - 1 : n;  // with an odd count the last node neighbours node 0
        for (std::size_t i = 0; i < paired; ++i) (i % 2 ? odd : even).push_back(i);
        if (n % 2) last.push_back(n - 1);
        bool moved = movePhase(even);
        moved = movePhase(odd) || moved;
        if (!last.empty()) moved = movePhase(last) || moved;
        ++m_iterations;
        if (!moved) {
            const bool added = addNodes();
            if (!added && m_d == 1) {
                m_glHistory.push_back(m_gl);
                finishSlice();
                continue;
            }
            m_d = std::max(1, m_d / 2);
        }
        m_glHistory.push_back(m_gl);
    }
    StepReport r;
    r.iterations = m_iterations;
    r.convergence = m_gl;
    r.finished = m_finished;
    r.progress = m_finished ? 1.0 : 1.0 - std::log2(double(m_d) + 1) / std::log2(double(m_request.snake.stepMax) + 2);
    for (const auto& p : m_polygon) r.polygon.push_back({double(p.x), double(p.y)});
    return r;
}

MethodFigures SnakeCpu::figures() const {
    MethodFigures f;
    f.gl = m_gl;
    f.slices = m_done.size();
    f.nodes = m_polygon.size();
    return f;
}

bool SnakeCpu::writeContours(JsonWriter& json) const {
    json.beginObject().key("slices").beginArray();
    for (const auto& slice : m_done) {
        json.beginObject().key("slice").value(slice.slice).key("polygon").beginArray();
        for (const auto& p : slice.polygon) json.array(std::vector<double>{double(p.x), double(p.y)});
        json.endArray().key("gl").array(slice.glHistory).endObject();
    }
    json.endArray().endObject();
    return true;
}

void SnakeCpu::cancel() {
    if (!m_finished) m_done.push_back({m_slice, m_polygon, m_glHistory});
    m_finished = true;
}

void SnakeCpu::writeLabels(const LabelSink& sink, const VoxelBox*) const {
    // Every voxel is written (the box is only a lower bound on what callers need).
    if (sink.onDevice) throw std::invalid_argument("the CPU snake engine writes host labels only");
    const Geometry& g = m_request.volume->geometry();
    std::fill(sink.data, sink.data + g.voxelCount(), std::uint8_t(0));
    for (const auto& s : m_done) {
        const auto& poly = s.polygon;
        const std::size_t n = poly.size();
        std::vector<int> cuts;
        for (int y = 0; y < m_height; ++y) {
            cuts.clear();
            for (std::size_t i = 0; i < n; ++i) {
                const PixelPoint p = poly[i], q = poly[(i + 1) % n];
                if (p.y == q.y || y < std::min(p.y, q.y) || y >= std::max(p.y, q.y)) continue;
                cuts.push_back(std::clamp(crossingColumn(p, q, y), 0, m_width));
            }
            std::sort(cuts.begin(), cuts.end());
            for (std::size_t c = 0; c + 1 < cuts.size(); c += 2)
                for (int x = cuts[c]; x < cuts[c + 1]; ++x) sink.data[g.index(x, y, s.slice)] = 1;
        }
    }
    if (m_request.roi || m_request.mask) {
        for (int k = 0; k < g.dims[2]; ++k)
            for (int j = 0; j < g.dims[1]; ++j)
                for (int i = 0; i < g.dims[0]; ++i) {
                    const std::size_t idx = g.index(i, j, k);
                    if ((m_request.roi && !m_request.roi->contains(i, j, k)) || (m_request.mask && !(*m_request.mask)[idx]))
                        sink.data[idx] = 0;
                }
    }
}

}  // namespace lucent
