/// @brief PlaneMask: boxes, resampling, distance transforms, components, centroids.
#include "PlaneMask.h"

#include "lucent/core/fill/PlaneDistance.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lucent::fill {


PlaneBox unite(const PlaneBox& a, const PlaneBox& b) {
    if (a.empty()) return b;
    if (b.empty()) return a;
    const int x0 = std::min(a.x0, b.x0), y0 = std::min(a.y0, b.y0);
    const int x1 = std::max(a.x0 + a.w, b.x0 + b.w), y1 = std::max(a.y0 + a.h, b.y0 + b.h);
    return {x0, y0, x1 - x0, y1 - y0};
}

bool PlaneMask::any() const {
    return std::any_of(m_bits.begin(), m_bits.end(), [](std::uint8_t b) { return b != 0; });
}

PlaneBox PlaneMask::tightBox() const {
    int x0 = m_box.w, y0 = m_box.h, x1 = -1, y1 = -1;
    for (int y = 0; y < m_box.h; ++y)
        for (int x = 0; x < m_box.w; ++x)
            if (m_bits[std::size_t(y) * m_box.w + x]) {
                x0 = std::min(x0, x), x1 = std::max(x1, x);
                y0 = std::min(y0, y), y1 = std::max(y1, y);
            }
    if (x1 < 0) return {};
    return {m_box.x0 + x0, m_box.y0 + y0, x1 - x0 + 1, y1 - y0 + 1};
}

PlaneMask PlaneMask::resampled(const PlaneBox& box, int dx, int dy) const {
    PlaneMask out(box);
    // Pixel (x, y) of the new box reads (x - dx, y - dy) of this one: copy the rows that overlap.
    const int x0 = std::max(box.x0, m_box.x0 + dx), x1 = std::min(box.x0 + box.w, m_box.x0 + dx + m_box.w);
    const int y0 = std::max(box.y0, m_box.y0 + dy), y1 = std::min(box.y0 + box.h, m_box.y0 + dy + m_box.h);
    if (x0 >= x1) return out;
    for (int y = y0; y < y1; ++y) {
        const std::uint8_t* from = m_bits.data() + std::size_t(y - dy - m_box.y0) * m_box.w + (x0 - dx - m_box.x0);
        std::copy(from, from + (x1 - x0), out.m_bits.data() + std::size_t(y - box.y0) * box.w + (x0 - box.x0));
    }
    return out;
}

std::vector<double> squaredDistance(const PlaneMask& mask, std::uint8_t target, const PlaneSpacing& spacing) {
    const int w = mask.box().w, h = mask.box().h;
    const bool wantSet = target != 0;
    // Along v first, as pixel counts to the nearest target pixel of the column: two scans over whole
    // rows (Meijster et al. 2000, phase 1), which vectorise across the row, unlike a column-wise envelope.
    constexpr std::int32_t kNone = kNoTarget;
    std::vector<std::int32_t> steps(mask.size());
    for (int y = 0; y < h; ++y) {
        std::int32_t* row = steps.data() + std::size_t(y) * w;
        const std::int32_t* above = y > 0 ? row - w : nullptr;
        for (int x = 0; x < w; ++x) {
            const bool hit = (mask[std::size_t(y) * w + x] != 0) == wantSet;
            row[x] = hit ? 0 : above ? std::min(above[x] + 1, kNone) : kNone;
        }
    }
    for (int y = h - 2; y >= 0; --y) {
        std::int32_t* row = steps.data() + std::size_t(y) * w;
        const std::int32_t* below = row + w;
        for (int x = 0; x < w; ++x) row[x] = std::min(row[x], below[x] + 1);
    }
    // Then along u: the lower envelope of parabolas on each row (Felzenszwalb-Huttenlocher).
    std::vector<double> grid(mask.size());
    std::vector<double> f(w), z(std::size_t(w) + 1);
    std::vector<int> v(w);
    for (int y = 0; y < h; ++y)
        rowSquaredDistance(steps.data() + std::size_t(y) * w, w, spacing.u, spacing.v, grid.data() + std::size_t(y) * w,
                           f.data(), v.data(), z.data());
    return grid;
}

std::vector<double> signedDistance(const PlaneMask& mask, const PlaneSpacing& spacing) {
    std::vector<double> toSet = squaredDistance(mask, 1, spacing);
    const std::vector<double> toBackground = squaredDistance(mask, 0, spacing);
    for (std::size_t p = 0; p < toSet.size(); ++p) toSet[p] = signedFromSquared(mask[p] != 0, toSet[p], toBackground[p]);
    return toSet;
}

PlaneComponents components(const PlaneMask& mask) {
    const int w = mask.box().w, h = mask.box().h;
    PlaneComponents out;
    out.ids.assign(mask.size(), 0);
    std::vector<std::size_t> stack;
    for (std::size_t start = 0; start < mask.size(); ++start) {
        if (!mask[start] || out.ids[start]) continue;
        const std::uint32_t id = ++out.count;
        out.ids[start] = id;
        stack.push_back(start);
        while (!stack.empty()) {
            const std::size_t p = stack.back();
            stack.pop_back();
            const int x = int(p % w), y = int(p / w);
            for (int ny = std::max(0, y - 1); ny <= std::min(h - 1, y + 1); ++ny)
                for (int nx = std::max(0, x - 1); nx <= std::min(w - 1, x + 1); ++nx) {
                    const std::size_t q = std::size_t(ny) * w + nx;
                    if (mask[q] && !out.ids[q]) {
                        out.ids[q] = id;
                        stack.push_back(q);
                    }
                }
        }
    }
    return out;
}

bool centroid(const PlaneMask& mask, double& cx, double& cy) {
    double sx = 0, sy = 0, n = 0;
    const PlaneBox& b = mask.box();
    for (int y = 0; y < b.h; ++y)
        for (int x = 0; x < b.w; ++x)
            if (mask[std::size_t(y) * b.w + x]) sx += x, sy += y, n += 1;
    if (n == 0) return false;
    cx = b.x0 + sx / n;
    cy = b.y0 + sy / n;
    return true;
}

}  // namespace lucent::fill
