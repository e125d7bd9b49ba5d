/// @brief One plane of a volume grid as a 2D image: which volume axes it spans and where a voxel lands.
#pragma once

#include "lucent/core/seg/HostDevice.h"

#include <array>
#include <cstddef>

namespace lucent {

/// The plane across volume axis `normal` at index `index`. Its image is dims[a] x dims[b] with
/// a < b the two other axes: pixel (i, j) is the voxel with v[a] = i, v[b] = j, v[normal] = index.
/// The slice views' per-view textures, their host and device fills and the shader all use it.
struct VolumePlane {
    int normal = 2;
    int index = 0;

    LUCENT_HD int axisA() const { return normal == 0 ? 1 : 0; }
    LUCENT_HD int axisB() const { return normal == 2 ? 1 : 2; }
    bool operator==(const VolumePlane&) const = default;
};

/// Width and height of the plane's image on a volume of `dims`.
inline std::array<int, 2> planeSize(const VolumePlane& p, const std::array<int, 3>& dims) {
    return {dims[std::size_t(p.axisA())], dims[std::size_t(p.axisB())]};
}

/// Linear voxel index of pixel (i, j) of the plane (x fastest on `dims`).
LUCENT_HD inline std::size_t planeVoxel(const VolumePlane& p, int i, int j, int dx, int dy) {
    int v[3];
    v[p.axisA()] = i;
    v[p.axisB()] = j;
    v[p.normal] = p.index;
    return std::size_t(v[0]) + std::size_t(dx) * (std::size_t(v[1]) + std::size_t(dy) * std::size_t(v[2]));
}

/// Copies the plane of `volume` (x fastest on `dims`) into `out` (dims[a] x dims[b], i fastest),
/// converting each element with `convert`.
template <typename In, typename Out, typename Convert>
void extractPlane(const In* volume, const std::array<int, 3>& dims, const VolumePlane& p, Out* out, Convert convert) {
    const auto [w, h] = planeSize(p, dims);
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) out[std::size_t(j) * std::size_t(w) + std::size_t(i)] = convert(volume[planeVoxel(p, i, j, dims[0], dims[1])]);
}

}  // namespace lucent
