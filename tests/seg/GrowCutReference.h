/// @brief Independent references for grow from seeds, written from the rule itself (core/README.md):
/// a plain priority-queue Dijkstra over (distance, label, voxel) triples, a Bellman-Ford relaxation
/// of float distances, and the minimum over every simple path of the left-folded float sum.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/Volume.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>
#include <vector>

namespace lucent::testing::growcut {

constexpr int kFace[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

/// Calls f(u) for each face neighbour u of voxel v (by index) inside the grid.
template <class F>
void neighbours(const Geometry& g, std::size_t v, F&& f) {
    const int nx = g.dims[0], ny = g.dims[1];
    const int i = int(v % nx), j = int(v / nx % ny), k = int(v / (std::size_t(nx) * ny));
    for (const auto& d : kFace) {
        const int a = i + d[0], b = j + d[1], c = k + d[2];
        if (a >= 0 && b >= 0 && c >= 0 && a < g.dims[0] && b < g.dims[1] && c < g.dims[2])
            f(std::size_t(a) + std::size_t(nx) * (std::size_t(b) + std::size_t(ny) * std::size_t(c)));
    }
}

/// Distances (as double: exact integers for int16, the float sums for float32) and labels.
struct Result {
    std::vector<double> distance;  ///< +inf where no seed reaches
    std::vector<std::uint8_t> label;
};

/// Textbook Dijkstra with a binary heap of (distance, label, voxel): seeds are fixed at distance 0
/// with their own label; `allowed` (null: all) says which voxels may be labelled and crossed. The
/// step cost is |I(p) - I(q)|: in int arithmetic for int16, one rounded float subtraction and one
/// rounded float addition for float32 (the left-folded float sum).
inline Result dijkstra(const Volume& volume, const LabelMap& seeds, const std::vector<bool>* allowed = nullptr) {
    const Geometry& g = volume.geometry();
    const std::size_t n = g.voxelCount();
    const bool isFloat = volume.pixelType() == PixelType::Float32;
    Result r{std::vector<double>(n, std::numeric_limits<double>::infinity()), std::vector<std::uint8_t>(n, 0)};
    using Item = std::tuple<double, int, std::size_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    std::vector<bool> done(n, false);
    for (std::size_t v = 0; v < n; ++v)
        if (seeds.data()[v] && (!allowed || (*allowed)[v])) {
            r.distance[v] = 0;
            r.label[v] = seeds.data()[v];
            heap.push({0.0, seeds.data()[v], v});
        }
    while (!heap.empty()) {
        const auto [d, l, v] = heap.top();
        heap.pop();
        if (done[v]) continue;
        done[v] = true;
        neighbours(g, v, [&](std::size_t u) {
            if (done[u] || seeds.data()[u] || (allowed && !(*allowed)[u])) return;
            double nd;
            if (isFloat) {
                const float a = volume.float32Data()[v], b = volume.float32Data()[u];
                nd = double(float(d) + std::fabs(a - b));
            } else {
                nd = d + std::abs(int(volume.int16Data()[v]) - int(volume.int16Data()[u]));
            }
            if (std::make_pair(nd, l) < std::make_pair(r.distance[u], int(r.label[u] ? r.label[u] : 256))) {
                r.distance[u] = nd;
                r.label[u] = std::uint8_t(l);
                heap.push({nd, l, u});
            }
        });
    }
    return r;
}

/// Float distances by Bellman-Ford: sweep every voxel in index order, then in reverse, relaxing
/// from every neighbour, until a pair of sweeps changes nothing.
inline std::vector<float> bellmanFord(const Volume& volume, const LabelMap& seeds) {
    const Geometry& g = volume.geometry();
    const std::size_t n = g.voxelCount();
    const float* image = volume.float32Data();
    std::vector<float> d(n, std::numeric_limits<float>::infinity());
    for (std::size_t v = 0; v < n; ++v)
        if (seeds.data()[v]) d[v] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        auto relax = [&](std::size_t v) {
            if (seeds.data()[v]) return;
            neighbours(g, v, [&](std::size_t u) {
                const float candidate = d[u] + std::fabs(image[u] - image[v]);
                if (candidate < d[v]) {
                    d[v] = candidate;
                    changed = true;
                }
            });
        };
        for (std::size_t v = 0; v < n; ++v) relax(v);
        for (std::size_t v = n; v-- > 0;) relax(v);
    }
    return d;
}

/// The smallest left-folded float sum over every simple path from a seed to each voxel (depth-first
/// over the paths; tiny grids only). A cycle can only add (fl(d + c) >= d and the fold is monotone),
/// so simple paths suffice. `Sum` double: the same paths summed (almost) exactly instead.
template <class Sum = float>
std::vector<Sum> everyPath(const Volume& volume, const LabelMap& seeds) {
    const Geometry& g = volume.geometry();
    const std::size_t n = g.voxelCount();
    const float* image = volume.float32Data();
    std::vector<Sum> best(n, std::numeric_limits<Sum>::infinity());
    std::vector<bool> onPath(n, false);
    std::function<void(std::size_t, Sum)> walk = [&](std::size_t v, Sum d) {
        best[v] = std::min(best[v], d);
        onPath[v] = true;
        neighbours(g, v, [&](std::size_t u) {
            if (!onPath[u] && !seeds.data()[u]) walk(u, d + Sum(std::fabs(image[v] - image[u])));
        });
        onPath[v] = false;
    };
    for (std::size_t v = 0; v < n; ++v)
        if (seeds.data()[v]) walk(v, Sum(0));
    return best;
}

}  // namespace lucent::testing::growcut
