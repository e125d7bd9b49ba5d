/// @brief FCM memberships as float maps on the device: one pass over the voxels writes every
/// cluster's map (and the labels, when asked) through per-bin tables, since a voxel's memberships
/// depend on its value only.
#pragma once

#include "FcmDevice.cuh"

#include <cstdint>

namespace lucent::gpu {

/// Into `maps` (c planes of nx * ny * nz floats, in label order), for every voxel: the
/// memberships binU[(v - minValue) * c + r] of its value v inside `scope` and 0 outside; into
/// `labels` (when not null) binLabel[v - minValue] inside and 0 outside. Asynchronous on `stream`.
void writeMembershipMaps(const std::int16_t* volume, const FcmScope& scope, int minValue, int c,
                         const std::uint8_t* binLabel, const float* binU, std::uint8_t* labels, float* maps,
                         void* stream);

}  // namespace lucent::gpu
