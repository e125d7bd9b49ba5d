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

std::optional<AxisMap> matchGrid(const Geometry& source, const Geometry& reference, double toleranceMm) {
    AxisMap map;
    std::array<bool, 3> used{false, false, false};
    for (int a = 0; a < 3; ++a) {
        // The source axis parallel to reference axis a (one-voxel axes have no usable direction
        // on their own, but still need a partner of the same size).
        int best = -1;
        double bestDot = 0;
        for (int b = 0; b < 3; ++b) {
            if (used[b] || source.dims[b] != reference.dims[a]) continue;
            const double d = dot(source.direction.col[b], reference.direction.col[a]);
            if (std::abs(d) > std::abs(bestDot)) best = b, bestDot = d;
        }
        if (best < 0 || std::abs(bestDot) < 0.999) return std::nullopt;
        if (std::abs(source.spacing[best] - reference.spacing[a]) > toleranceMm) return std::nullopt;
        used[best] = true;
        map.sourceAxis[a] = best;
        map.reversed[a] = bestDot < 0;
    }
    // Every corner of the reference must be the matching corner of the source.
    for (int c = 0; c < 8; ++c) {
        const int i = (c & 1) ? reference.dims[0] - 1 : 0, j = (c & 2) ? reference.dims[1] - 1 : 0,
                  k = (c & 4) ? reference.dims[2] - 1 : 0;
        const auto s = sourceIndex(map, reference.dims, i, j, k);
        const Vec3 p = reference.voxelToPatient({double(i), double(j), double(k)});
        const Vec3 q = source.voxelToPatient({double(s[0]), double(s[1]), double(s[2])});
        if (norm(p - q) > toleranceMm) return std::nullopt;
    }
    return map;
}

std::string describeGridDifference(const Geometry& source, const Geometry& reference) {
    std::ostringstream out;
    out.precision(4);
    auto dims = [](const Geometry& g) {
        return std::to_string(g.dims[0]) + "x" + std::to_string(g.dims[1]) + "x" + std::to_string(g.dims[2]);
    };
    std::array<int, 3> a = source.dims, b = reference.dims;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) {
        out << "dimensions " << dims(source) << " against " << dims(reference);
        return out.str();
    }
    const Vec3 p = source.voxelToPatient({0, 0, 0}), q = reference.voxelToPatient({0, 0, 0});
    out << "same dimensions (" << dims(source) << ") but spacing " << source.spacing.x << " x " << source.spacing.y
        << " x " << source.spacing.z << " mm against " << reference.spacing.x << " x " << reference.spacing.y << " x "
        << reference.spacing.z << ", first voxel at (" << p.x << ", " << p.y << ", " << p.z << ") mm against ("
        << q.x << ", " << q.y << ", " << q.z << ") or axes in other directions";
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
