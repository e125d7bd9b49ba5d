/// @brief What the FCM kernels share: the device-side iteration state (mirrored in pinned memory
/// after each step) and the voxel scope (ROI and mask).
#pragma once

#include "lucent/core/seg/SegmentationRequest.h"

#include <cstddef>
#include <cstdint>

namespace lucent::gpu {

constexpr int kMaxClusters = 255;

struct FcmState {
    int iterations;
    int finished;
    int current;  // which of the two membership buffers holds the latest memberships
    int maxIterations;
    double change;
    double centres[kMaxClusters];  // the latest iteration's centres (the first ones before any)
    // The per-voxel path runs one pass ahead: a pass evaluates the memberships of `next` (and of
    // `centres` for the change) and sums the centres after `next`. primed: `next` is valid.
    int primed;
    double next[kMaxClusters];
    // What start() found (startKernel): distinct values inside the scope, and voxels.
    int samples;
    double included;
};

struct FcmScope {
    int nx, ny, nz;
    VoxelBox roi;
    const std::uint8_t* mask;
    __device__ bool included(int x, int y, int z, std::size_t idx) const {
        return roi.contains(x, y, z) && (!mask || mask[idx] != 0);
    }
    /// The flat case: every voxel counts, so kernels may take the volume as one array.
    bool whole() const { return !mask && roi.lo[0] == 0 && roi.lo[1] == 0 && roi.lo[2] == 0 &&
                                roi.hi[0] == nx - 1 && roi.hi[1] == ny - 1 && roi.hi[2] == nz - 1; }
};

}  // namespace lucent::gpu
