/// @brief The morphological method of the CUDA fill between slices: one block per pair of matched
/// regions runs the CPU's recursion of aligned medians (core/src/fill/ShapeInterpolation.cpp,
/// Albu et al. 2008) on the same boxes with the same arithmetic, so it fills the same voxels. The
/// shapes of a pair's slices live on a canvas: a box of the plane around the pair's with a margin,
/// since a median moved between the two centroids may leave the pair's box.
#pragma once

#include "SliceFillKernels.cuh"

#include <cstddef>
#include <cstdint>

namespace lucent::gpu::fill {

constexpr int kMorphThreads = 512;

/// One pair (a Task with both sides) and where its canvas and scratch are.
struct MorphTask {
    int task = 0;                      ///< the pair's Task
    int x0 = 0, y0 = 0, w = 0, h = 0;  ///< the canvas, in plane pixels
    std::size_t canvas = 0;            ///< its first byte in the canvas arena: gap + 1 masks of w x h
    std::size_t shapes = 0;            ///< its first Shape: gap + 1 of them, one a slice of the gap
    std::size_t scratch = 0;           ///< its first scratch pixel (z entries from 2 * scratch)
    std::size_t capacity = 0;          ///< scratch pixels: the largest median box it can compute
};

/// What the recursion needs of one slice's shape: the origin of the box the CPU's PlaneMask has (its
/// centroid is computed from there), the tight box and the sums of the set pixels' coordinates.
struct Shape {
    int ox = 0, oy = 0;
    int x0 = 0, y0 = 0, x1 = -1, y1 = -1;  ///< inclusive; x1 < x0 when empty
    long long n = 0, sx = 0, sy = 0;
};

/// The batch's pairs' memory (offsets from MorphTask). `overflow` is set to 1 when a shape would
/// leave its canvas or a median's box exceed its scratch: the batch is then run again with larger ones.
struct MorphArena {
    std::uint8_t* canvas;
    Shape* shapes;
    std::int32_t* steps;
    double *d0, *d1, *d2, *f, *z;
    int* v;
    int* overflow;
};

/// One block (kMorphThreads) per MorphTask: its slices' shapes, written where the map holds 0. The
/// canvas arena must be zero.
__global__ void morphTasks(const MorphTask* morph, const Task* tasks, MorphArena arena, Plane plane,
                           const std::uint32_t* parent, const std::uint32_t* groupSum, std::uint8_t label,
                           std::uint8_t* map);

}  // namespace lucent::gpu::fill
