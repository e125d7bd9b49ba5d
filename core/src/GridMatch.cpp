/// @brief Axis matching between grids that hold the same voxels, and exact voxel reordering.
#include "lucent/core/GridMatch.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace lucent {

double sameVoxelsToleranceMm(const Geometry& g) {
    return 0.05 * std::min({g.spacing.x, g.spacing.y, g.spacing.z});
}

bool AxisMap::identity() const {
    return sourceAxis == std::array<int, 3>{0, 1, 2} && reversed == std::array<bool, 3>{false, false, false};
}

namespace {

/// Source index of reference voxel (i, j, k) under `map`.
std::array<int, 3> sourceIndex(const AxisMap& map, const std::array<int, 3>& dims, int i, int j, int k) {
    const int ref[3] = {i, j, k};
    std::array<int, 3> s{};
    for (int a = 0; a < 3; ++a) {
        const int b = map.sourceAxis[a];
        s[b] = map.reversed[a] ? dims[a] - 1 - ref[a] : ref[a];
    }
    return s;
}

}  // namespace

namespace {

/// Each reference axis paired with the source axis of its size that is most nearly parallel to it,
/// every source axis used once: how the source's voxels would sit on the reference's.
struct AxisPairing {
    AxisMap map;
    bool complete = true;  ///< every reference axis found a partner of its size
    double minCosine = 1;  ///< |cos| of the least parallel pair
};

AxisPairing pairAxes(const Geometry& source, const Geometry& reference) {
    AxisPairing p;
    std::array<bool, 3> used{false, false, false};
    for (int a = 0; a < 3; ++a) {
        // One-voxel axes have no usable direction on their own, but still need a partner of their size.
        int best = -1;
        double bestDot = 0;
        for (int b = 0; b < 3; ++b) {
            if (used[b] || source.dims[b] != reference.dims[a]) continue;
            const double d = dot(source.direction.col[b], reference.direction.col[a]);
            if (best < 0 || std::abs(d) > std::abs(bestDot)) best = b, bestDot = d;
        }
        if (best < 0) {
            p.complete = false;
            return p;
        }
        used[best] = true;
        p.map.sourceAxis[a] = best;
        p.map.reversed[a] = bestDot < 0;
        p.minCosine = std::min(p.minCosine, std::abs(bestDot));
    }
    return p;
}

/// How far apart each reference corner and its partner under `map` are, at most (mm).
double largestCornerGap(const Geometry& source, const Geometry& reference, const AxisMap& map) {
    double gap = 0;
    for (int c = 0; c < 8; ++c) {
        const int i = (c & 1) ? reference.dims[0] - 1 : 0, j = (c & 2) ? reference.dims[1] - 1 : 0,
                  k = (c & 4) ? reference.dims[2] - 1 : 0;
        const auto s = sourceIndex(map, reference.dims, i, j, k);
        const Vec3 p = reference.voxelToPatient({double(i), double(j), double(k)});
        const Vec3 q = source.voxelToPatient({double(s[0]), double(s[1]), double(s[2])});
        gap = std::max(gap, norm(p - q));
    }
    return gap;
}

std::string dimsText(const Geometry& g) {
    return std::to_string(g.dims[0]) + "x" + std::to_string(g.dims[1]) + "x" + std::to_string(g.dims[2]);
}

}  // namespace

std::optional<AxisMap> matchGrid(const Geometry& source, const Geometry& reference, double toleranceMm) {
    const AxisPairing p = pairAxes(source, reference);
    if (!p.complete || p.minCosine < 0.999) return std::nullopt;
    for (int a = 0; a < 3; ++a)
        if (std::abs(source.spacing[p.map.sourceAxis[a]] - reference.spacing[a]) > toleranceMm) return std::nullopt;
    // Every corner of the reference must be the matching corner of the source.
    if (largestCornerGap(source, reference, p.map) > toleranceMm) return std::nullopt;
    return p.map;
}

std::string describeGridDifference(const Geometry& source, const Geometry& reference) {
    std::ostringstream out;
    out.precision(4);
    const AxisPairing p = pairAxes(source, reference);
    if (!p.complete) {
        out << "dimensions " << dimsText(source) << " against " << dimsText(reference);
        return out.str();
    }
    // Like with like: every figure of the source is taken along the axis and at the voxel that pair
    // with the reference's, so a file stored in another axis order or direction (a bottom-up NIfTI)
    // is not reported as far away.
    out << "same dimensions (" << dimsText(reference) << (p.map.identity() ? "" : ", stored in another axis order or direction")
        << ") but ";
    if (p.minCosine < 0.999) {
        out << "axes up to " << std::acos(std::min(1.0, p.minCosine)) * 180.0 / 3.14159265358979323846
            << " degrees from the volume's";
        return out.str();
    }
    const double tolerance = sameVoxelsToleranceMm(reference);
    const auto spacing = [&](int a) { return source.spacing[p.map.sourceAxis[a]]; };
    bool said = false;
    if (std::abs(spacing(0) - reference.spacing.x) > tolerance || std::abs(spacing(1) - reference.spacing.y) > tolerance ||
        std::abs(spacing(2) - reference.spacing.z) > tolerance) {
        out << "spacing " << spacing(0) << " x " << spacing(1) << " x " << spacing(2) << " mm against "
            << reference.spacing.x << " x " << reference.spacing.y << " x " << reference.spacing.z << " mm";
        said = true;
    }
    const auto s = sourceIndex(p.map, reference.dims, 0, 0, 0);
    const Vec3 shift = source.voxelToPatient({double(s[0]), double(s[1]), double(s[2])}) - reference.voxelToPatient({0, 0, 0});
    if (norm(shift) > tolerance) {
        // To the micrometre: float32 headers leave 1e-6 mm where there is no shift.
        const auto um = [](double v) { return std::round(v * 1000.0) / 1000.0 + 0.0; };
        out << (said ? ", " : "") << "voxels shifted by " << um(norm(shift)) << " mm at the first voxel (" << um(shift.x)
            << ", " << um(shift.y) << ", " << um(shift.z) << " mm LPS)";
        said = true;
    }
    if (!said) out << "corners up to " << largestCornerGap(source, reference, p.map) << " mm apart";
    return out.str();
}

LabelMap remapLabels(const LabelMap& labels, const Geometry& reference, const AxisMap& map) {
    LabelMap out(reference);
    const auto& sd = labels.geometry().dims;
    for (int k = 0; k < reference.dims[2]; ++k)
        for (int j = 0; j < reference.dims[1]; ++j)
            for (int i = 0; i < reference.dims[0]; ++i) {
                const auto s = sourceIndex(map, reference.dims, i, j, k);
                out[reference.index(i, j, k)] = labels[(std::size_t(s[2]) * sd[1] + s[1]) * sd[0] + s[0]];
            }
    return out;
}

Geometry reverseRows(const Geometry& g) {
    Geometry r = g;
    r.origin = g.voxelToPatient({0, double(g.dims[1] - 1), 0});
    r.direction.col[1] = g.direction.col[1] * -1.0;
    return r;
}

LabelMap reverseRows(const LabelMap& labels) {
    const Geometry& g = labels.geometry();
    LabelMap out(reverseRows(g));
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            std::copy_n(labels.data() + g.index(0, g.dims[1] - 1 - j, k), g.dims[0], out.data() + g.index(0, j, k));
    return out;
}

}  // namespace lucent
