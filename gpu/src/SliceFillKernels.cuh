/// @brief The device side of the CUDA fill between slices: the two labelled slices of each gap as
/// one graph whose connected components are the CPU's groups of overlapping regions (union-find),
/// and one block per group computing its shapes with the CPU's own line arithmetic
/// (core/fill/PlaneDistance.h).
#pragma once

#include "lucent/core/fill/PlaneDistance.h"

#include <cstddef>
#include <cstdint>

namespace lucent::gpu::fill {

constexpr std::uint32_t kEmpty = 0xffffffffu;  ///< a node whose pixel does not hold the label

/// One slice plane of the axis: pixel (x, y) is voxel (u = x, v = y) of the two other axes (as the
/// CPU's SlicePlane).
struct Plane {
    int width = 0, height = 0;
    std::size_t strideX = 0, strideY = 0, strideS = 0;
    double su = 1, sv = 1;
    __host__ __device__ std::size_t pixels() const { return std::size_t(width) * height; }
    __host__ __device__ std::size_t voxel(int x, int y, int s) const { return x * strideX + y * strideY + s * strideS; }
};

/// One group of overlapping regions of one gap: a pair (both sides) or a region with no partner.
struct Task {
    int group = 0;       ///< group number within the batch
    int gap = 0;         ///< gap number within the batch (its nodes start at gap * 2 * pixels)
    int first = 0, last = 0;  ///< the labelled slices
    int side = -1;       ///< -1: both sides (signed-distance blend); 0 / 1: only the first / last
    int x0 = 0, y0 = 0, w = 0, h = 0;  ///< the box the CPU computes on
    std::size_t pixel = 0, zEntry = 0;  ///< where its scratch starts in the arena
};

/// Scratch of all tasks of a batch, per pixel of their boxes (z: w + 1 per row).
struct Arena {
    std::int32_t* steps;
    double *a, *b, *t, *f, *z;
    int* v;
};

/// Whether pixel (bx, by) of the task's box is in its group on `side` (0 outside the plane).
__device__ inline bool inGroup(const Task& t, int side, int bx, int by, const Plane& plane,
                               const std::uint32_t* parent, const std::uint32_t* groupSum) {
    const int x = t.x0 + bx, y = t.y0 + by;
    if (x < 0 || y < 0 || x >= plane.width || y >= plane.height) return false;
    const std::size_t node = (std::size_t(t.gap) * 2 + side) * plane.pixels() + std::size_t(y) * plane.width + x;
    const std::uint32_t root = parent[node];
    return root != kEmpty && int(groupSum[root]) - 1 == t.group;
}

/// Nodes of a batch of gaps: node gap * 2P + side * P + y * W + x holds its own index where the pixel
/// of slice (side ? last : first) holds `label`, else kEmpty.
__global__ void initNodes(const std::uint8_t* map, Plane plane, const int2* gaps, std::size_t nodes,
                          std::uint8_t label, std::uint32_t* parent);
/// Joins 8-neighbours of one side and a pixel set on both sides (the CPU's overlap of regions).
__global__ void linkNodes(Plane plane, std::size_t nodes, std::uint32_t* parent);
/// Points every node at its root; rootFlag: 1 at roots, else 0 (to be summed into group numbers).
__global__ void flattenNodes(std::size_t nodes, std::uint32_t* parent, std::uint32_t* rootFlag);
/// Each group's box on each side: boxes[group * 8 + side * 4 + {min x, min y, max x, max y}];
/// gapOfGroup[group]. `groupSum`: the inclusive sum of the root flags.
__global__ void groupBoxes(Plane plane, std::size_t nodes, const std::uint32_t* parent, const std::uint32_t* groupSum,
                           int* boxes, int* gapOfGroup);
/// One block per task: the shapes of its slices, written where the map holds 0. A pair's shapes are
/// its signed-distance blend; without `blendPairs` only the regions with no partner are done (the
/// morphological fill does the pairs: SliceFillMorph.cuh).
__global__ void fillTasks(const Task* tasks, Arena arena, Plane plane, const std::uint32_t* parent,
                          const std::uint32_t* groupSum, std::uint8_t label, bool blendPairs, std::uint8_t* map);
/// counts[n] += voxels of slice slices[n] holding `label` (blockIdx.y: n).
__global__ void countSlices(const std::uint8_t* map, Plane plane, const int* slices, std::uint8_t label,
                            unsigned long long* counts);

}  // namespace lucent::gpu::fill
