/// @brief The viewer tests' CT-like phantoms: a bright ball (1000 HU) in a box (40 HU) in air
/// (-1000 HU), 2 mm slices, where region growing from the centre takes one step per front; a box of
/// soft tissue alone.
#pragma once

#include "lucent/core/Volume.h"

#include <array>
#include <memory>

namespace lucent::testing {

/// A CT volume of `dims` voxels of 1 x 1 x 2 mm, all 0.
inline std::shared_ptr<Volume> ctVolume(std::array<int, 3> dims) {
    Geometry g;
    g.dims = dims;
    g.spacing = {1.0, 1.0, 2.0};
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    v->metadata().modality = "CT";
    return v;
}

/// `textured`: the box's values vary along x (40 + i mod 7), so that every column draws differently.
inline std::shared_ptr<Volume> ctBallPhantom(std::array<int, 3> dims = {96, 80, 40}, bool textured = true) {
    auto v = ctVolume(dims);
    const Geometry& g = v->geometry();
    const int ci = dims[0] / 2, cj = dims[1] / 2, ck = dims[2] / 2;
    for (int k = 0; k < dims[2]; ++k)
        for (int j = 0; j < dims[1]; ++j)
            for (int i = 0; i < dims[0]; ++i) {
                const double d2 = (i - ci) * (i - ci) + (j - cj) * (j - cj) + 4.0 * (k - ck) * (k - ck);
                const bool box = i > 10 && i < dims[0] - 10 && j > 8 && j < dims[1] - 8;
                v->setValue(g.index(i, j, k), d2 < 15 * 15 ? 1000 : (box ? 40 + (textured ? i % 7 : 0) : -1000));
            }
    return v;
}

/// Soft tissue (40..46 HU, 40 + i mod 7 along the voxel order) in a 96 x 80 x 40 box of 1 x 1 x 2 mm voxels.
inline std::shared_ptr<Volume> softTissueBox() {
    auto v = ctVolume({96, 80, 40});
    for (std::size_t i = 0; i < v->voxelCount(); ++i) v->setValue(i, 40 + double(i % 7));
    return v;
}

}  // namespace lucent::testing
