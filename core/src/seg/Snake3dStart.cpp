/// @brief The 3D snake's start, domain and first level set.
#include "lucent/core/seg/Snake3dStart.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace lucent {

namespace {

std::string str(const VoxelBox& b) {
    std::string out;
    for (int v : {b.lo[0], b.lo[1], b.lo[2], b.hi[0], b.hi[1], b.hi[2]}) out += (out.empty() ? "" : ",") + std::to_string(v);
    return out;
}

VoxelBox clipped(VoxelBox b, const Geometry& g) {
    for (int d = 0; d < 3; ++d) {
        b.lo[d] = std::max(b.lo[d], 0);
        b.hi[d] = std::min(b.hi[d], g.dims[d] - 1);
    }
    return b;
}

/// Voxels from a bubble's centre to its edge along an axis (or a margin's voxels), bounded so that
/// any radius or margin a request allows stays an int: nothing reaches past a volume's 2^30 voxels.
int reach(double mm, double spacing) { return int(std::min(std::floor(mm / spacing), double(1 << 30))); }
int ceilReach(double mm, double spacing) { return int(std::min(std::ceil(mm / spacing), double(1 << 30))); }

bool inBubble(const Geometry& g, const VoxelIndex& s, double radiusMm, int i, int j, int k) {
    const double x = (i - s.i) * g.spacing[0], y = (j - s.j) * g.spacing[1], z = (k - s.k) * g.spacing[2];
    return x * x + y * y + z * z <= radiusMm * radiusMm;
}

}  // namespace

double snake3dRadius(const Snake3dParams& p, std::size_t index) {
    if (p.radiiMm.empty()) return kSnake3dLimits.radiusMm.byDefault;
    return p.radiiMm.size() == 1 ? p.radiiMm[0] : p.radiiMm.at(index);
}

VoxelBox snake3dStartBounds(const SegmentationRequest& r) {
    const Geometry& g = r.volume->geometry();
    VoxelBox b = VoxelBox::none();
    if (const auto& box = r.snake3d.box) {
        b.add(box->lo[0], box->lo[1], box->lo[2]);
        b.add(box->hi[0], box->hi[1], box->hi[2]);
    }
    for (std::size_t n = 0; n < r.seeds.size(); ++n) {
        const VoxelIndex& s = r.seeds[n];
        const double radius = snake3dRadius(r.snake3d, n);
        VoxelBox ball = VoxelBox::none();  // in long long: a centre plus a reach of 2^30 passes an int
        for (int d = 0; d < 3; ++d) {
            const long long c = d == 0 ? s.i : d == 1 ? s.j : s.k, r = reach(radius, g.spacing[d]);
            ball.lo[d] = int(std::max<long long>(c - r, 0));
            ball.hi[d] = int(std::min<long long>(c + r, g.dims[d] - 1));
        }
        b.add(ball.lo[0], ball.lo[1], ball.lo[2]);
        b.add(ball.hi[0], ball.hi[1], ball.hi[2]);
    }
    return clipped(b, g);
}

VoxelBox snake3dDomain(const SegmentationRequest& r) {
    const Geometry& g = r.volume->geometry();
    if (r.roi) return clipped(*r.roi, g);
    VoxelBox b = snake3dStartBounds(r);
    int grow[3];
    if (const auto& mm = r.snake3d.marginMm) {
        for (int d = 0; d < 3; ++d) grow[d] = ceilReach(*mm, g.spacing[d]);
    } else {
        const int side = std::max({b.hi[0] - b.lo[0], b.hi[1] - b.lo[1], b.hi[2] - b.lo[2]}) + 1;
        const int m = std::max(kSnake3dLimits.minMarginVoxels,
                               int(std::lround(side * kSnake3dLimits.marginPercent / 100.0)));
        grow[0] = grow[1] = grow[2] = m;
    }
    for (int d = 0; d < 3; ++d) {
        b.lo[d] = int(std::max<long long>((long long)b.lo[d] - grow[d], 0));
        b.hi[d] = int(std::min<long long>((long long)b.hi[d] + grow[d], g.dims[d] - 1));
    }
    return b;
}

Snake3dShape snake3dShape(const VoxelBox& d) {
    Snake3dShape s;
    s.nx = d.hi[0] - d.lo[0] + 1;
    s.ny = d.hi[1] - d.lo[1] + 1;
    s.nz = d.hi[2] - d.lo[2] + 1;
    s.words = (s.nx + 63) / 64;
    return s;
}

void validateSnake3dStart(const SegmentationRequest& r) {
    const Geometry& g = r.volume->geometry();
    const auto& p = r.snake3d;
    const std::string dims =
        std::to_string(g.dims[0]) + " x " + std::to_string(g.dims[1]) + " x " + std::to_string(g.dims[2]);
    if (!p.box && r.seeds.empty())
        throw std::invalid_argument("the 3D snake needs a start: a box i0,j0,k0,i1,j1,k1 or at least one seed");
    if (const auto& box = p.box) {
        if (box->empty()) throw std::invalid_argument("box " + str(*box) + " has a low corner above its high corner");
        if (!g.contains(box->lo[0], box->lo[1], box->lo[2]) || !g.contains(box->hi[0], box->hi[1], box->hi[2]))
            throw std::invalid_argument("box " + str(*box) + " is outside the volume (" + dims + ")");
    }
    for (const auto& s : r.seeds)
        if (!g.contains(s.i, s.j, s.k))
            throw std::invalid_argument("seed " + std::to_string(s.i) + "," + std::to_string(s.j) + "," +
                                        std::to_string(s.k) + " is outside the volume (" + dims + ")");
    if (p.radiiMm.size() > 1 && p.radiiMm.size() != r.seeds.size())
        throw std::invalid_argument(std::to_string(p.radiiMm.size()) + " radii for " + std::to_string(r.seeds.size()) +
                                    " seeds: give one radius for all, or one a seed");
    const VoxelBox d = snake3dDomain(r);
    for (int a = 0; a < 3; ++a)
        if (d.hi[a] - d.lo[a] < 2)
            throw std::invalid_argument("the domain " + str(d) + " is less than 3 voxels along an axis");
    const VoxelBox s = snake3dStartBounds(r);
    for (int a = 0; a < 3; ++a)
        if (s.hi[a] < d.lo[a] || s.lo[a] > d.hi[a])
            throw std::invalid_argument("the start " + str(s) + " lies outside the domain " + str(d));
}

std::vector<std::uint64_t> snake3dStartWords(const SegmentationRequest& r, const VoxelBox& d) {
    const Geometry& g = r.volume->geometry();
    const Snake3dShape s = snake3dShape(d);
    std::vector<std::uint64_t> u(std::size_t(s.wordCount()), 0);
    auto set = [&](int i, int j, int k) {
        if (!d.contains(i, j, k)) return;
        const int x = i - d.lo[0];
        u[std::size_t(s.rowOf(j - d.lo[1], k - d.lo[2])) + std::size_t(x / 64)] |= std::uint64_t(1) << (x % 64);
    };
    if (const auto& box = r.snake3d.box) {
        // The box's part of each row as whole words: x0..x1 of the domain, a mask a word.
        const int x0 = std::max(box->lo[0], d.lo[0]) - d.lo[0], x1 = std::min(box->hi[0], d.hi[0]) - d.lo[0];
        for (int k = std::max(box->lo[2], d.lo[2]); k <= std::min(box->hi[2], d.hi[2]); ++k)
            for (int j = std::max(box->lo[1], d.lo[1]); j <= std::min(box->hi[1], d.hi[1]); ++j)
                for (int w = x0 / 64; x0 <= x1 && w <= x1 / 64; ++w) {
                    const int from = std::max(x0 - w * 64, 0), to = std::min(x1 - w * 64, 63);
                    const std::uint64_t bits = (to == 63 ? ~std::uint64_t(0) : (std::uint64_t(1) << (to + 1)) - 1) &
                                               ~((std::uint64_t(1) << from) - 1);
                    u[std::size_t(s.rowOf(j - d.lo[1], k - d.lo[2])) + std::size_t(w)] |= bits;
                }
    }
    for (std::size_t n = 0; n < r.seeds.size(); ++n) {
        const VoxelIndex& c = r.seeds[n];
        const double radius = snake3dRadius(r.snake3d, n);
        // The ball's box within the domain (a radius may reach far past it).
        int lo[3], hi[3];
        for (int a = 0; a < 3; ++a) {
            const long long centre = a == 0 ? c.i : a == 1 ? c.j : c.k, r = reach(radius, g.spacing[a]);
            lo[a] = int(std::max<long long>(centre - r, d.lo[a]));
            hi[a] = int(std::min<long long>(centre + r, d.hi[a]));
        }
        for (int k = lo[2]; k <= hi[2]; ++k)
            for (int j = lo[1]; j <= hi[1]; ++j)
                for (int i = lo[0]; i <= hi[0]; ++i)
                    if (inBubble(g, c, radius, i, j, k)) set(i, j, k);
    }
    return u;
}

Snake3dClamp snake3dClamp(const Snake3dParams& params) {
    Snake3dClamp c;
    if (!params.clip) return c;
    // Outside the int16 range a bound clamps nothing more than the range's end does.
    const auto whole = [&](double v) { return std::llround(std::clamp(v, double(c.lo), double(c.hi))); };
    c.lo = whole(params.clip->lower);
    c.hi = whole(params.clip->upper);
    c.lower = params.clip->lower;
    c.upper = params.clip->upper;
    return c;
}

}  // namespace lucent
