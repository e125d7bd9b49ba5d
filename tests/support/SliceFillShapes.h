/// @brief Shapes with a known answer for fill between slices (issue 41): an ellipsoid, a tube that
/// branches, a tube that leans, and the same kept on every n-th slice of k as a user would draw
/// them. The CPU's tests (tests/core/SliceFillTest.cpp) measure the fill on them; the CUDA tests
/// (tests/gpu/SliceFillCudaTest.cpp) compare the two backends on them.
#pragma once

#include "lucent/core/LabelMap.h"

#include <cmath>
#include <functional>

namespace lucent::testing {

/// Whether a point (mm from the grid's first voxel) lies inside a shape.
using FillInside = std::function<bool(double x, double y, double z)>;

inline LabelMap fillGrid(int nx, int ny, int nz, Vec3 spacing = {1, 1, 1}) {
    Geometry g;
    g.dims = {nx, ny, nz};
    g.spacing = spacing;
    return LabelMap(g);
}

/// The whole shape, voxel by voxel (a voxel belongs where its centre is inside).
inline LabelMap paintShape(LabelMap m, const FillInside& inside, std::uint8_t label = 1) {
    const Geometry& g = m.geometry();
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i)
                if (inside(i * g.spacing.x, j * g.spacing.y, k * g.spacing.z)) m.at(i, j, k) = label;
    return m;
}

/// The shape kept on every `step`th slice of k (from `start`) only, as a user would draw it.
inline LabelMap everyNthSlice(const LabelMap& whole, int start, int step) {
    LabelMap m = whole;
    const auto& d = whole.geometry().dims;
    for (int k = 0; k < d[2]; ++k)
        if (k < start || (k - start) % step != 0)
            for (int j = 0; j < d[1]; ++j)
                for (int i = 0; i < d[0]; ++i) m.at(i, j, k) = 0;
    return m;
}

/// An ellipsoid of semi-axes 28 x 22 x 26 mm on 0.8 x 0.8 x 1 mm voxels.
inline LabelMap fillEllipsoid() {
    return paintShape(fillGrid(90, 80, 70, {0.8, 0.8, 1.0}), [](double x, double y, double z) {
        const double a = (x - 36) / 28, b = (y - 32) / 22, c = (z - 35) / 26;
        return a * a + b * b + c * c <= 1;
    });
}

/// A tube of radius 7 along k from slice 6 that splits at slice 30 into two branches of radius 6,
/// each leaning 25 degrees from k, to slice 66: one region per slice, then two.
inline LabelMap branchingTube() {
    return paintShape(fillGrid(90, 70, 72), [](double x, double y, double z) {
        if (z < 6 || z > 66) return false;
        auto disc = [&](double cx, double r) { return (x - cx) * (x - cx) + (y - 35) * (y - 35) <= r * r; };
        if (z <= 30) return disc(45, 7);
        const double off = (z - 30) * std::tan(25 * M_PI / 180);
        return disc(45 - off, 6) || disc(45 + off, 6);
    });
}

/// A tube of radius 6 whose axis moves 1.5 mm along i per slice (56 degrees from k): the discs of
/// slices 6 apart overlap by a quarter of their width.
inline LabelMap leaningTube() {
    return paintShape(fillGrid(120, 40, 62), [](double x, double y, double z) {
        if (z < 6 || z > 54) return false;
        const double cx = 20 + 1.5 * z;
        return (x - cx) * (x - cx) + (y - 20) * (y - 20) <= 36;
    });
}

}  // namespace lucent::testing
