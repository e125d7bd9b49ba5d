/// @brief Polygon evolution, region sums over the cumulated images, node insertion; slices and
/// propagation through SnakeSlices.
#include "lucent/core/seg/SnakeCpu.h"

#include "lucent/core/ParallelFor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace lucent {

/// One slice: its cumulated images and its evolving polygon.
class SnakeSliceCpu {
public:
    virtual ~SnakeSliceCpu() = default;
    /// One step; true when the slice met its end (nothing moved or was added at d = 1).
    virtual bool iterate() = 0;
    virtual int slice() const = 0;
    virtual int d() const = 0;
    virtual double gl() const = 0;
    virtual const std::vector<PixelPoint>& polygon() const = 0;
    virtual const std::vector<double>& glHistory() const = 0;
    virtual RegionSums target() const = 0;
    virtual RegionSums background() const = 0;
};

namespace {

/// T = long long for int16 slices (exact, the sums the CUDA engine computes), double for float.
template <class T>
class SnakeEvolution final : public SnakeSliceCpu {
    using Sums = BasicRegionSums<T>;

public:
    SnakeEvolution(const SegmentationRequest& request, int slice, std::vector<PixelPoint> polygon, int d);
    bool iterate() override;
    int slice() const override { return m_slice; }
    int d() const override { return m_d; }
    double gl() const override { return m_gl; }
    const std::vector<PixelPoint>& polygon() const override { return m_polygon; }
    const std::vector<double>& glHistory() const override { return m_glHistory; }
    RegionSums target() const override { return toDouble(m_target); }
    RegionSums background() const override { return toDouble(m_image - m_target); }

private:
    Sums segmentSums(PixelPoint p, PixelPoint q) const;
    Sums pathChange(PixelPoint p, PixelPoint from, PixelPoint to, PixelPoint q) const;
    double criterion(const Sums& target) const { return snakeGl(m_image, target); }
    bool crosses(std::size_t node, PixelPoint candidate) const;
    bool movePhase(const std::vector<std::size_t>& nodes);
    bool addNodes();
    void recomputeTotals();

    const SegmentationRequest& m_request;
    SnakeBounds m_bounds;  // the pixels the snake sees (snakeBounds)
    int m_slice = 0;
    std::vector<T> m_cz, m_cz2;  // per row of the bounds: cumulated z and z^2 along x from x0
    Sums m_image;                // the pixels of the bounds
    std::vector<PixelPoint> m_polygon;
    Sums m_target;
    double m_gl = 0;
    int m_d = 1;
    std::vector<double> m_glHistory;
};

template <class T>
SnakeEvolution<T>::SnakeEvolution(const SegmentationRequest& request, int slice, std::vector<PixelPoint> polygon, int d)
    : m_request(request),
      m_bounds(snakeBounds(request)),
      m_slice(slice),
      m_polygon(std::move(polygon)),
      m_d(std::max(1, d)) {
    const Volume& v = *request.volume;
    const Geometry& g = v.geometry();
    const int width = m_bounds.width(), height = m_bounds.height();
    m_cz.resize(std::size_t(width) * height);
    m_cz2.resize(m_cz.size());
    // C_z and C_z2 (paper 003): running sums along each row of the bounds from x0, as on the slice
    // cropped to them (float sums then round alike); C_1 is the column's index from x0, + 1.
    std::vector<Sums> rows(height);
    parallelFor(height, request.threads, [&](std::size_t y) {
        T a = 0, b = 0;
        const std::size_t from = g.index(m_bounds.x0, m_bounds.y0 + int(y), slice);
        for (int x = 0; x < width; ++x) {
            const T z = static_cast<T>(v.value(from + x));
            a += z;
            b += z * z;
            m_cz[y * width + x] = a;
            m_cz2[y * width + x] = b;
        }
        rows[y] = {T(width), a, b};
    });
    for (const auto& r : rows) m_image += r;
    recomputeTotals();
    m_glHistory = {m_gl};
}

template <class T>
typename SnakeEvolution<T>::Sums SnakeEvolution<T>::segmentSums(PixelPoint p, PixelPoint q) const {
    Sums s;
    if (p.y == q.y) return s;
    // Rows [min y, max y): each crossing adds +C (right end, going down) or -C (left end, going up).
    const T sign = q.y > p.y ? T(1) : T(-1);
    const int y0 = std::min(p.y, q.y), y1 = std::max(p.y, q.y);
    for (int y = y0; y < y1; ++y) {
        const int count = m_bounds.pixelsLeftOf(crossingColumn(p, q, y));  // of the bounds' row
        if (count == 0) continue;
        const std::size_t at = std::size_t(y - m_bounds.y0) * m_bounds.width() + count - 1;
        s.n += sign * T(count);
        s.sz += sign * m_cz[at];
        s.sz2 += sign * m_cz2[at];
    }
    return s;
}

template <class T>
void SnakeEvolution<T>::recomputeTotals() {
    const std::size_t n = m_polygon.size();
    m_target = {};
    for (std::size_t i = 0; i < n; ++i) m_target += segmentSums(m_polygon[i], m_polygon[(i + 1) % n]);
    m_gl = criterion(m_target);
}

/// What replacing the path p -> from -> q by p -> to -> q adds to the target's sums (from == p: the
/// segment p -> q gets a node at `to`). Float slices sum in double, so the target's sums depend on
/// the order of the updates that built them: updating by whole segments (minus the two old ones,
/// plus the two new ones) made a move that leaves the region as it is (a node sliding along a
/// straight line) change the sums by rounding, and GL "dropped" by ~1e-12 back and forth for ever.
/// Here each row's crossings of the old and new paths cancel column by column before any value is
/// read, so a row whose pixels stay put adds exactly nothing and an unchanged region keeps its
/// exact sums and GL: the strict `gl < m_gl` then refuses the move, as it does for int16. A row that
/// changes adds the difference of two cumulated values (the pixels that change), rounded once.
/// Int16 sums are exact integers in any order, so their decisions (the CUDA engine's) are unchanged.
template <class T>
typename SnakeEvolution<T>::Sums SnakeEvolution<T>::pathChange(PixelPoint p, PixelPoint from, PixelPoint to,
                                                               PixelPoint q) const {
    const PixelPoint ends[4][2] = {{p, from}, {from, q}, {p, to}, {to, q}};
    const int y0 = std::min({p.y, from.y, to.y, q.y}), y1 = std::max({p.y, from.y, to.y, q.y});
    Sums change;
    for (int y = y0; y < y1; ++y) {
        int col[4], coef[4], terms = 0;
        for (int s = 0; s < 4; ++s) {
            const PixelPoint a = ends[s][0], b = ends[s][1];
            if (y < std::min(a.y, b.y) || y >= std::max(a.y, b.y)) continue;
            const int c = m_bounds.pixelsLeftOf(crossingColumn(a, b, y)) - 1;  // as in segmentSums
            const int sign = (b.y > a.y ? 1 : -1) * (s < 2 ? -1 : 1);          // old path removed
            if (c < 0) continue;
            int k = 0;
            while (k < terms && col[k] != c) ++k;
            if (k == terms) {
                col[k] = c;
                coef[k] = 0;
                ++terms;
            }
            coef[k] += sign;
        }
        Sums row;
        for (int k = 0; k < terms; ++k) {
            if (coef[k] == 0) continue;
            const std::size_t at = std::size_t(y - m_bounds.y0) * m_bounds.width() + col[k];
            row.n += T(coef[k]) * T(col[k] + 1);
            row.sz += T(coef[k]) * m_cz[at];
            row.sz2 += T(coef[k]) * m_cz2[at];
        }
        change += row;
    }
    return change;
}

template <class T>
bool SnakeEvolution<T>::crosses(std::size_t node, PixelPoint c) const {
    const std::size_t n = m_polygon.size();
    const PixelPoint p = m_polygon[(node + n - 1) % n], q = m_polygon[(node + 1) % n];
    if (foldsBack(p, c, q)) return true;
    for (std::size_t s = 0; s < n; ++s) {
        const std::size_t e = (s + 1) % n;
        if (s == node || e == node) continue;  // the two segments being replaced
        if (blockedBy(p, c, q, m_polygon[s], m_polygon[e])) return true;
    }
    return false;
}

template <class T>
bool SnakeEvolution<T>::movePhase(const std::vector<std::size_t>& nodes) {
    const std::size_t n = m_polygon.size();
    // Each node's best candidate against the current polygon (independent: a GPU does them at once).
    std::vector<int> best(nodes.size(), -1);
    parallelFor(nodes.size(), m_request.threads, [&](std::size_t t) {
        const std::size_t i = nodes[t];
        const PixelPoint p = m_polygon[(i + n - 1) % n], q = m_polygon[(i + 1) % n];
        double bestGl = m_gl;
        for (int w = 0; w < 8; ++w) {
            const PixelPoint c = snakeMove(m_polygon[i], w, m_d);
            if (!m_bounds.contains(c)) continue;
            const double gl = criterion(m_target + pathChange(p, m_polygon[i], c, q));
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
        const PixelPoint c = snakeMove(m_polygon[i], best[t], m_d);
        const PixelPoint p = m_polygon[(i + n - 1) % n], q = m_polygon[(i + 1) % n];
        const Sums target = m_target + pathChange(p, m_polygon[i], c, q);
        const double gl = criterion(target);
        if (gl < m_gl && !crosses(i, c)) {
            m_polygon[i] = c;
            m_target = target;
            m_gl = gl;
            moved = true;
        }
    }
    return moved;
}

template <class T>
bool SnakeEvolution<T>::addNodes() {
    // A node goes in the middle of every long segment. The middle rounds to the pixel grid, which can
    // move the boundary by a pixel: of the up to four roundings, take the one with the lowest GL and
    // insert it only if GL does not rise and nothing crosses, so GL never goes up. Ties go to the
    // last rounding tried (x down before up, then y down before up).
    bool added = false;
    for (std::size_t i = 0; i < m_polygon.size(); ++i) {
        const std::size_t n = m_polygon.size();
        const PixelPoint p = m_polygon[i], q = m_polygon[(i + 1) % n];
        if (!longSegment(p, q, m_request.snake.minSegment)) continue;
        double bestGl = m_gl;
        PixelPoint best{-1, -1};
        Sums bestTarget;
        for (int k = 0; k < 4; ++k) {
            PixelPoint c;
            if (!insertCandidate(p, q, k, c)) continue;
            const Sums t = m_target + pathChange(p, p, c, q);
            const double gl = criterion(t);
            if (gl <= bestGl) {
                // Crossing check as if c were a node between p and q.
                m_polygon.insert(m_polygon.begin() + std::ptrdiff_t(i) + 1, c);
                const bool bad = crosses(i + 1, c);
                m_polygon.erase(m_polygon.begin() + std::ptrdiff_t(i) + 1);
                if (bad) continue;
                bestGl = gl;
                best = c;
                bestTarget = t;
            }
        }
        if (best.x < 0) continue;
        m_polygon.insert(m_polygon.begin() + std::ptrdiff_t(i) + 1, best);
        m_target = bestTarget;
        m_gl = bestGl;
        added = true;
        ++i;  // skip the new half: its length is below the old one's
    }
    return added;
}

template <class T>
bool SnakeEvolution<T>::iterate() {
    const std::size_t n = m_polygon.size();
    std::vector<std::size_t> even, odd, last;
    const std::size_t paired = n % 2 ? n - 1 : n;  // with an odd count the last node neighbours node 0
    for (std::size_t i = 0; i < paired; ++i) (i % 2 ? odd : even).push_back(i);
    if (n % 2) last.push_back(n - 1);
    bool moved = movePhase(even);
    moved = movePhase(odd) || moved;
    if (!last.empty()) moved = movePhase(last) || moved;
    if (!moved) {
        const bool added = addNodes();
        if (!added && m_d == 1) {
            m_glHistory.push_back(m_gl);
            return true;
        }
        m_d = std::max(1, m_d / 2);
    }
    m_glHistory.push_back(m_gl);
    return false;
}

}  // namespace

SnakeCpu::SnakeCpu() = default;
SnakeCpu::~SnakeCpu() = default;

void SnakeCpu::start(const SegmentationRequest& request) {
    validateRequest(Method::Snake, request);
    m_request = request;
    m_slices.reset(m_request);
    m_iterations = 0;
    m_finished = false;
    beginSlice(request.snake.slice, snakeStartPolygon(request), request.snake.stepMax);
}

void SnakeCpu::beginSlice(int slice, std::vector<PixelPoint> polygon, int d) {
    m_slice.reset();  // frees the previous slice's cumulated images first
    if (m_request.volume->pixelType() == PixelType::Int16)
        m_slice = std::make_unique<SnakeEvolution<long long>>(m_request, slice, std::move(polygon), d);
    else
        m_slice = std::make_unique<SnakeEvolution<double>>(m_request, slice, std::move(polygon), d);
}

void SnakeCpu::finishSlice() {
    auto next = m_slices.finish({m_slice->slice(), m_slice->polygon(), m_slice->glHistory()}, m_slice->target(),
                                m_slice->background());
    if (!next) {
        m_finished = true;
        return;
    }
    beginSlice(next->slice, std::move(next->polygon), next->d);
}

StepReport SnakeCpu::step(int maxIterations) {
    const std::size_t finishedBefore = m_slices.done().size();
    for (int it = 0; it < maxIterations && !m_finished; ++it) {
        ++m_iterations;
        if (m_slice->iterate()) finishSlice();
    }
    StepReport r;
    r.iterations = m_iterations;
    r.convergence = m_slice->gl();
    r.finished = m_finished;
    r.changed = m_slices.changedSince(finishedBefore);  // labels change only when a slice finishes
    r.progress =
        m_finished ? 1.0 : 1.0 - std::log2(double(m_slice->d()) + 1) / std::log2(double(m_request.snake.stepMax) + 2);
    for (const auto& p : m_slice->polygon()) r.polygon.push_back({double(p.x), double(p.y)});
    r.polygonSlice = m_slice->slice();
    return r;
}

double SnakeCpu::gl() const { return m_slice ? m_slice->gl() : 0.0; }

const std::vector<PixelPoint>& SnakeCpu::polygon() const {
    static const std::vector<PixelPoint> none;
    return m_slice ? m_slice->polygon() : none;
}

RegionSums SnakeCpu::targetSums() const { return m_slice ? m_slice->target() : RegionSums{}; }

MethodFigures SnakeCpu::figures() const {
    MethodFigures f;
    f.gl = gl();
    f.slices = m_slices.done().size();
    f.nodes = polygon().size();
    return f;
}

bool SnakeCpu::writeContours(JsonWriter& json) const {
    m_slices.writeContours(json);
    return true;
}

void SnakeCpu::cancel() {
    if (!m_finished && m_slice) m_slices.keep({m_slice->slice(), m_slice->polygon(), m_slice->glHistory()});
    m_finished = true;
}

void SnakeCpu::writeLabels(const LabelSink& sink, const VoxelBox*) const {
    // Every voxel is written (the box is only a lower bound on what callers need).
    if (sink.onDevice) throw std::invalid_argument("the CPU snake engine writes host labels only");
    m_slices.rasterise(sink.data);
}

}  // namespace lucent
