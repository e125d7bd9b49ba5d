/// @brief Grow from seeds' test inputs, shared by the CPU, CUDA and viewer tests: random single-voxel
/// seeds and the request over a volume and its seed map. Core types only (no Qt, no DCMTK): the CUDA
/// tests build on the GPU machine.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/Volume.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <cstdint>
#include <random>

namespace lucent::testing::growcut {

/// `count` single-voxel seeds of labels 1..labels at random places.
inline LabelMap randomSeeds(const Geometry& g, unsigned seed, int count, int labels) {
    LabelMap s(g);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::size_t> where(0, g.voxelCount() - 1);
    for (int n = 0; n < count; ++n) s.data()[where(rng)] = std::uint8_t(1 + n % labels);
    return s;
}

/// Grow from seeds over `v` from `seeds` (both outlive the request).
inline SegmentationRequest request(const Volume& v, const LabelMap& seeds) {
    SegmentationRequest r;
    r.volume = &v;
    r.growCut.seeds = &seeds;
    return r;
}

}  // namespace lucent::testing::growcut
