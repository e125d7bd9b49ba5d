/// @brief Setting single voxels of a device label buffer: a scrubbed 3D snake state changes the voxels its
/// steps flipped, scattered over a box that can be most of the volume, so the voxels go up, not the box.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lucent::gpu {

/// labels[v without its top bit] = v >> 63 for each of the `count` packed voxels at device pointer `voxels`, on
/// `stream` (a cudaStream_t); a voxel named twice gets the same label both times (no order is needed).
void setLabelsAtOnDevice(std::uint8_t* labels, const std::uint64_t* voxels, std::size_t count, void* stream);

}  // namespace lucent::gpu
