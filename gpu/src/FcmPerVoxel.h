/// @brief Fuzzy C-means iterations over every voxel (paper 000's formulation; the path that masked
/// or spatial variants need), in one cooperative kernel with the convergence test on the device.
#pragma once

#include "DeviceBuffer.h"
#include "FcmDevice.cuh"

#include <cstdint>

namespace lucent::gpu {

/// The per-voxel kernel keeps a voxel's memberships and its block's sums in registers.
constexpr int kPerVoxelMaxClusters = 8;

/// Up to `budget` iterations (Eq. 3 over the voxels of `scope`, Eq. 4, the largest change) on
/// `stream`, from and into the device `state`; stops on the device at epsilon or the iteration
/// limit. `partials` is scratch (grown as needed). Throws GpuError for more than
/// kPerVoxelMaxClusters clusters or without cooperative launch.
void runPerVoxelIterations(const std::int16_t* volume, const FcmScope& scope, int c, double m, double epsilon,
                           int budget, FcmState* state, DeviceBuffer& partials, void* stream);

}  // namespace lucent::gpu
