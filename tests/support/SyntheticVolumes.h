/// @brief Synthetic volumes whose segmentation is known: shapes with bounded or Gaussian noise.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/Volume.h"

#include <cmath>
#include <functional>
#include <random>

namespace lucent::testing {

/// An int16 volume of `dims` where voxels with inside(i,j,k) get `object` and the rest
/// `background`, each plus uniform noise in [-noise, noise]; `truth` receives the shape.
inline Volume shapeVolume(std::array<int, 3> dims, const std::function<bool(int, int, int)>& inside, int object,
                          int background, int noise, LabelMap* truth = nullptr, unsigned seed = 1) {
    Geometry g;
    g.dims = dims;
    g.spacing = {0.8, 0.8, 1.2};
    Volume v(g, PixelType::Int16);
    if (truth) *truth = LabelMap(g);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> jitter(-noise, noise);
    for (int k = 0; k < dims[2]; ++k)
        for (int j = 0; j < dims[1]; ++j)
            for (int i = 0; i < dims[0]; ++i) {
                const bool in = inside(i, j, k);
                v.int16Data()[g.index(i, j, k)] = static_cast<std::int16_t>((in ? object : background) + jitter(rng));
                if (truth) (*truth)[g.index(i, j, k)] = in ? 1 : 0;
            }
    return v;
}

inline double dice(const LabelMap& a, const LabelMap& b, std::uint8_t label = 1) {
    std::size_t both = 0, na = 0, nb = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) {
        const bool x = a[i] == label, y = b[i] == label;
        both += x && y;
        na += x;
        nb += y;
    }
    return na + nb ? 2.0 * double(both) / double(na + nb) : 1.0;
}

}  // namespace lucent::testing
