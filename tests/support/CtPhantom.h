/// @brief The viewer tests' CT-like phantom: a bright ball (1000 HU) in a box (40 HU) in air
/// (-1000 HU), 2 mm slices; region growing from the centre takes one step per front.
#pragma once

#include "lucent/core/Volume.h"

#include <array>
#include <memory>

namespace lucent::testing {

/// `textured`: the box's values vary along x (40 + i mod 7), so that every column draws differently.
inline std::shared_ptr<Volume> ctBallPhantom(std::array<int, 3> dims = {96, 80, 40}, bool textured = true) {
    Geometry g;
    g.dims = dims;
    g.spacing = {1.0, 1.0, 2.0};
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    const int ci = dims[0] / 2, cj = dims[1] / 2, ck = dims[2] / 2;
    for (int k = 0; k < dims[2]; ++k)
        for (int j = 0; j < dims[1]; ++j)
            for (int i = 0; i < dims[0]; ++i) {
                const double d2 = (i - ci) * (i - ci) + (j - cj) * (j - cj) + 4.0 * (k - ck) * (k - ck);
                const bool box = i > 10 && i < dims[0] - 10 && j > 8 && j < dims[1] - 8;
                v->setValue(g.index(i, j, k), d2 < 15 * 15 ? 1000 : (box ? 40 + (textured ? i % 7 : 0) : -1000));
            }
    v->metadata().modality = "CT";
    return v;
}

}  // namespace lucent::testing
