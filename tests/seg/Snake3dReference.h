/// @brief An independent 3D snake for the tests: morphological Chan-Vese written from the paper and
/// scikit-image's morphological_chan_vese, one byte a voxel, means in double, numpy.gradient's
/// differences, and the SI / IS operators as erosions and dilations by the nine 3 x 3 planes listed
/// voxel by voxel (outside the domain counts as 0). Slow and plain: no packing, no incremental sums.
#pragma once

#include "lucent/core/Volume.h"

#include <array>
#include <cstdint>
#include <vector>

namespace snake3dref {

struct Grid {
    int nx, ny, nz;
    std::size_t at(int x, int y, int z) const { return (std::size_t(z) * ny + y) * nx + x; }
    bool inside(int x, int y, int z) const { return x >= 0 && y >= 0 && z >= 0 && x < nx && y < ny && z < nz; }
};

/// The nine planes as lists of offsets (scikit-image's _P3, written out).
inline std::vector<std::vector<std::array<int, 3>>> planes() {
    std::vector<std::vector<std::array<int, 3>>> out(9);
    for (int a = -1; a <= 1; ++a)
        for (int b = -1; b <= 1; ++b) {
            out[0].push_back({0, a, b});   // x fixed
            out[1].push_back({a, 0, b});   // y fixed
            out[2].push_back({a, b, 0});   // z fixed
            out[3].push_back({a, b, b});   // y == z
            out[4].push_back({a, b, -b});  // y == -z
            out[5].push_back({b, a, b});   // x == z
            out[6].push_back({b, a, -b});  // x == -z
            out[7].push_back({b, b, a});   // x == y
            out[8].push_back({b, -b, a});  // x == -y
        }
    return out;
}

inline std::uint8_t get(const std::vector<std::uint8_t>& u, const Grid& g, int x, int y, int z) {
    return g.inside(x, y, z) ? u[g.at(x, y, z)] : 0;
}

/// SI when `supInf`, else IS.
inline std::vector<std::uint8_t> curvature(const std::vector<std::uint8_t>& u, const Grid& g, bool supInf) {
    static const auto P = planes();
    std::vector<std::uint8_t> out(u.size());
    for (int z = 0; z < g.nz; ++z)
        for (int y = 0; y < g.ny; ++y)
            for (int x = 0; x < g.nx; ++x) {
                bool result = !supInf;  // SI: any plane all 1; IS: every plane has a 1
                for (const auto& plane : P) {
                    bool all = true, any = false;
                    for (const auto& d : plane) {
                        const bool v = get(u, g, x + d[0], y + d[1], z + d[2]);
                        all = all && v;
                        any = any || v;
                    }
                    if (supInf && all) result = true;
                    if (!supInf && !any) result = false;
                }
                out[g.at(x, y, z)] = result;
            }
    return out;
}

/// numpy.gradient along one axis at one voxel: central inside, one-sided at the ends.
inline int gradient(const std::vector<std::uint8_t>& u, const Grid& g, int x, int y, int z, int axis) {
    const int n = axis == 0 ? g.nx : axis == 1 ? g.ny : g.nz;
    const int p = axis == 0 ? x : axis == 1 ? y : z;
    auto at = [&](int q) {
        return int(u[g.at(axis == 0 ? q : x, axis == 1 ? q : y, axis == 2 ? q : z)]);
    };
    if (p == 0) return at(1) - at(0);
    if (p == n - 1) return at(n - 1) - at(n - 2);
    return at(p + 1) - at(p - 1);
}

/// One run: `image` on the grid (x fastest), `u` the start; `iterations` iterations of the region
/// term then `smoothing` operators each (SIoIS, ISoSI in turn from the first). Returns every state.
inline std::vector<std::vector<std::uint8_t>> run(const std::vector<double>& image, std::vector<std::uint8_t> u,
                                                  const Grid& g, int iterations, int smoothing) {
    std::vector<std::vector<std::uint8_t>> states;
    long long op = 0;
    for (int it = 0; it < iterations; ++it) {
        double s1 = 0, s0 = 0, n1 = 0, n0 = 0;
        for (std::size_t i = 0; i < u.size(); ++i) (u[i] ? s1 : s0) += image[i], (u[i] ? n1 : n0) += 1;
        const double c1 = n1 > 0 ? s1 / n1 : 0, c0 = n0 > 0 ? s0 / n0 : 0;
        std::vector<std::uint8_t> next = u;
        for (int z = 0; z < g.nz; ++z)
            for (int y = 0; y < g.ny; ++y)
                for (int x = 0; x < g.nx; ++x) {
                    const int grad = std::abs(gradient(u, g, x, y, z, 0)) + std::abs(gradient(u, g, x, y, z, 1)) +
                                     std::abs(gradient(u, g, x, y, z, 2));
                    const double v = image[g.at(x, y, z)];
                    const double aux = grad * ((v - c1) * (v - c1) - (v - c0) * (v - c0));
                    if (aux < 0) next[g.at(x, y, z)] = 1;
                    if (aux > 0) next[g.at(x, y, z)] = 0;
                }
        u = next;
        for (int s = 0; s < smoothing; ++s, ++op) {
            const bool siOfIs = op % 2 == 0;
            u = curvature(curvature(u, g, !siOfIs), g, siOfIs);
        }
        states.push_back(u);
    }
    return states;
}

}  // namespace snake3dref
