/// @brief An independent fuzzy connectedness reference for the tests (paper 001, kFOE): the parameter
/// estimate, the affinity and the max-min connectivity written from the equations with std::exp and
/// plain loops. It calls nothing of the engine's seg headers: only the volume, its geometry and the
/// VoxelIndex struct are shared.
#pragma once

#include "lucent/core/Volume.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace lucent::testing::fuzzy {

struct Params {
    double mean = 0, objectSigma = 1, diffSigma = 1;
};

/// The conventions FuzzyConnectednessCpu::estimate documents: each seed's cube of half-size `radius`,
/// clipped to the volume, contributes all its voxels (a voxel in two cubes counts twice) and the
/// differences of face neighbours that both lie in that clipped cube. M is the mean, S the
/// population standard deviation, D the root mean square difference (g2 is zero-mean); S and D are
/// floored at 0.1 % of the volume's value range (at least 1e-6). Two-pass sums here, one-pass there.
inline Params estimate(const Volume& v, const std::vector<VoxelIndex>& seeds, int radius) {
    const auto& d = v.geometry().dims;
    std::vector<double> values, diffs;
    for (const auto& s : seeds) {
        const std::array<int, 3> c{s.i, s.j, s.k};
        std::array<int, 3> lo{}, hi{};
        for (int a = 0; a < 3; ++a) {
            lo[a] = std::max(0, c[a] - radius);
            hi[a] = std::min(d[a] - 1, c[a] + radius);
        }
        for (int k = lo[2]; k <= hi[2]; ++k)
            for (int j = lo[1]; j <= hi[1]; ++j)
                for (int i = lo[0]; i <= hi[0]; ++i) {
                    values.push_back(v.value(i, j, k));
                    if (i < hi[0]) diffs.push_back(v.value(i, j, k) - v.value(i + 1, j, k));
                    if (j < hi[1]) diffs.push_back(v.value(i, j, k) - v.value(i, j + 1, k));
                    if (k < hi[2]) diffs.push_back(v.value(i, j, k) - v.value(i, j, k + 1));
                }
    }
    double mean = 0, var = 0, msd = 0;
    for (double x : values) mean += x;
    mean /= double(values.size());
    for (double x : values) var += (x - mean) * (x - mean);
    var /= double(values.size());
    for (double x : diffs) msd += x * x;
    double lo = v.value(0), hi = v.value(0);
    for (std::size_t n = 0; n < v.geometry().voxelCount(); ++n) {
        lo = std::min(lo, v.value(n));
        hi = std::max(hi, v.value(n));
    }
    const double floor = std::max(1e-6, 1e-3 * (hi - lo));
    Params p;
    p.mean = mean;
    p.objectSigma = std::max(floor, std::sqrt(var));
    p.diffSigma = diffs.empty() ? floor : std::max(floor, std::sqrt(msd / double(diffs.size())));
    return p;
}

/// mu = sqrt(g1 g2), g1 = exp(-((a+b)/2 - M)^2 / 2S^2), g2 = exp(-(a-b)^2 / 2D^2), quantised as
/// FuzzyAffinity.h documents: g1 and g2 rounded to float, the float product's square root scaled by
/// 65535 in float, rounded half up. The float steps are that convention, not a shortcut: rounding a
/// double mu instead would move about 1 % of the edges by one step (float error ~0.01 step).
inline std::uint16_t affinity(double a, double b, const Params& p) {
    const double m = (a + b) / 2 - p.mean, diff = a - b;
    const float g1 = static_cast<float>(std::exp(-(m * m) / (2 * p.objectSigma * p.objectSigma)));
    const float g2 = static_cast<float>(std::exp(-(diff * diff) / (2 * p.diffSigma * p.diffSigma)));
    const float product = g1 * g2;
    const float scaled = std::sqrt(product) * 65535.0f;
    return static_cast<std::uint16_t>(scaled + 0.5f);
}

/// The strength a closed-form mu gets on the 16-bit scale (for hand-made cases; the callers check
/// that 65535 mu lies well away from a rounding boundary).
inline std::uint16_t quantised(double mu) { return static_cast<std::uint16_t>(std::lround(mu * 65535.0)); }

/// The face neighbours of voxel (i, j, k) inside the volume.
inline std::vector<std::size_t> faceNeighbours(const Geometry& g, int i, int j, int k) {
    std::vector<std::size_t> out;
    const int n[6][3] = {{i - 1, j, k}, {i + 1, j, k}, {i, j - 1, k}, {i, j + 1, k}, {i, j, k - 1}, {i, j, k + 1}};
    for (const auto& q : n)
        if (g.contains(q[0], q[1], q[2])) out.push_back(g.index(q[0], q[1], q[2]));
    return out;
}

/// Max-min path strength from the seeds over face edges (a seed is fully connected to itself):
/// Bellman-Ford style, relax every edge until nothing changes. No queue and no order, unlike the
/// engine's bucket sweep.
inline std::vector<std::uint16_t> connectivity(const Volume& v, const Params& p, const std::vector<VoxelIndex>& seeds) {
    const Geometry& g = v.geometry();
    std::vector<std::uint16_t> c(g.voxelCount(), 0);
    for (const auto& s : seeds) c[g.index(s.i, s.j, s.k)] = 65535;
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < g.dims[2]; ++k)
            for (int j = 0; j < g.dims[1]; ++j)
                for (int i = 0; i < g.dims[0]; ++i) {
                    const std::size_t a = g.index(i, j, k);
                    for (std::size_t b : faceNeighbours(g, i, j, k)) {
                        const std::uint16_t s = std::min(c[b], affinity(v.value(a), v.value(b), p));
                        if (s > c[a]) {
                            c[a] = s;
                            changed = true;
                        }
                    }
                }
    }
    return c;
}

}  // namespace lucent::testing::fuzzy
