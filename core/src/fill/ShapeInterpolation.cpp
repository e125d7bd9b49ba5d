/// @brief Signed-distance blending, the morphological median (recursive, centroid-aligned) and
/// vanishing regions.
#include "ShapeInterpolation.h"

#include "lucent/core/fill/PlaneDistance.h"

#include <algorithm>
#include <cmath>

namespace lucent::fill {

namespace {

/// Both masks on one box around their set pixels, with a pixel of background all round (the
/// distance to the background is then exact inside the box). `b` moved by (dx, dy) first.
std::pair<PlaneMask, PlaneMask> onCommonBox(const PlaneMask& a, const PlaneMask& b, int dx = 0, int dy = 0) {
    const PlaneBox box = unite(a.tightBox(), b.tightBox().shifted(dx, dy)).grown(1);
    return {a.resampled(box), b.resampled(box, dx, dy)};
}

/// {x : (1 - t) sd_a(x) + t sd_b(x) < 0} for each t of `ts`, a and b on one box.
PlaneMask blend(const std::vector<double>& sdA, const std::vector<double>& sdB, double t, const PlaneBox& box) {
    PlaneMask out(box);
    for (std::size_t p = 0; p < out.size(); ++p) out[p] = blendInside(sdA[p], sdB[p], t);
    return out;
}

/// The morphological median of two overlapping sets a and b on one box (Meyer; Albu et al. 2008,
/// eq. 3): the union over r of dilate_r(a & b) & erode_r(a | b). With Euclidean discs this is
/// {x : dist(x, a & b) <= dist(x, outside a | b)}, computed exactly with two distance transforms
/// instead of the paper's repeated unit dilations (whose square or cross element biases the shape).
PlaneMask median(const PlaneMask& a, const PlaneMask& b, const PlaneSpacing& spacing) {
    PlaneMask both(a.box()), either(a.box());
    for (std::size_t p = 0; p < a.size(); ++p) {
        both[p] = a[p] && b[p];
        either[p] = a[p] || b[p];
    }
    if (!both.any()) {
        // Sets that do not meet even with their centroids on one point (two rings, a crescent):
        // no median; the signed-distance midpoint stands in.
        return blend(signedDistance(a, spacing), signedDistance(b, spacing), 0.5, a.box());
    }
    const std::vector<double> toBoth = squaredDistance(both, 1, spacing);
    const std::vector<double> toOutside = squaredDistance(either, 0, spacing);
    PlaneMask out(a.box());
    for (std::size_t p = 0; p < out.size(); ++p) out[p] = toBoth[p] <= toOutside[p];
    return out;
}

/// Albu et al.'s interpolation of one slice between a (at 0) and b (at 1), at fraction w: b moved
/// so that its centroid lies on a's, their median, moved by w of the way from a's centroid to b's.
PlaneMask alignedMedian(const PlaneMask& a, const PlaneMask& b, double w, const PlaneSpacing& spacing) {
    double ax = 0, ay = 0, bx = 0, by = 0;
    centroid(a, ax, ay);
    centroid(b, bx, by);
    const int dx = int(std::lround(ax - bx)), dy = int(std::lround(ay - by));
    const auto [a1, b1] = onCommonBox(a, b, dx, dy);
    const PlaneMask m = median(a1, b1, spacing);
    const int mx = int(std::lround(w * (bx - ax))), my = int(std::lround(w * (by - ay)));
    return m.resampled(m.box().shifted(mx, my), mx, my);
}

/// Fills offsets (lo, hi) between shapes a at lo and b at hi: the median at the middle slice, then
/// each half in turn (the paper's recursion; an odd gap puts the median on the lower middle slice,
/// at its true fraction of the way).
void recurseMedians(const PlaneMask& a, int lo, const PlaneMask& b, int hi, const PlaneSpacing& spacing,
                    const EmitShape& emit) {
    if (hi - lo < 2) return;
    const bool hasA = a.any(), hasB = b.any();
    if (!hasA || !hasB) {
        if (hasA || hasB)
            vanish(hasA ? a : b, hasA, hi - lo, spacing, [&](int offset, const PlaneMask& s) { emit(lo + offset, s); });
        return;
    }
    const int mid = lo + (hi - lo) / 2;
    const PlaneMask m = alignedMedian(a, b, double(mid - lo) / double(hi - lo), spacing);
    emit(mid, m);
    recurseMedians(a, lo, m, mid, spacing, emit);
    recurseMedians(m, mid, b, hi, spacing, emit);
}

}  // namespace

void interpolatePair(const PlaneMask& first, const PlaneMask& last, int gap, FillMethod method,
                     const PlaneSpacing& spacing, const EmitShape& emit) {
    if (method == FillMethod::Morphological) {
        recurseMedians(first, 0, last, gap, spacing, emit);
        return;
    }
    const auto [a, b] = onCommonBox(first, last);
    const std::vector<double> sdA = signedDistance(a, spacing), sdB = signedDistance(b, spacing);
    for (int offset = 1; offset < gap; ++offset) emit(offset, blend(sdA, sdB, double(offset) / gap, a.box()));
}

void vanish(const PlaneMask& region, bool atFirst, int gap, const PlaneSpacing& spacing, const EmitShape& emit) {
    const PlaneMask r = region.resampled(region.tightBox().grown(1));
    const std::vector<double> depth2 = squaredDistance(r, 0, spacing);
    double deepest = 0;
    for (std::size_t p = 0; p < r.size(); ++p) deepest = std::max(deepest, r[p] ? std::sqrt(depth2[p]) : 0.0);
    for (int offset = 1; offset < gap; ++offset) {
        const double keep = vanishDepth(atFirst ? offset : gap - offset, gap, deepest);
        if (keep < 0) continue;
        PlaneMask shape(r.box());
        for (std::size_t p = 0; p < r.size(); ++p) shape[p] = r[p] && std::sqrt(depth2[p]) > keep;
        emit(offset, shape);
    }
}

}  // namespace lucent::fill
