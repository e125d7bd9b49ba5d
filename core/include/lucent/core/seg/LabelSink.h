/// @brief Where an engine writes its labels: host memory or a device buffer (the GPU context's
/// label buffer that the renderer reads through CUDA-OpenGL interop).
#pragma once

#include "lucent/core/LabelMap.h"

#include <cstddef>
#include <cstdint>

namespace lucent {

/// A uint8 label per voxel, x fastest, on the volume's grid. Not owning.
struct LabelSink {
    std::uint8_t* data = nullptr;
    std::size_t voxels = 0;
    bool onDevice = false;  ///< a CUDA device pointer (only CUDA engines can fill it)

    static LabelSink host(LabelMap& map) { return {map.data(), map.voxelCount(), false}; }
    static LabelSink device(std::uint8_t* pointer, std::size_t voxels) { return {pointer, voxels, true}; }
};

}  // namespace lucent
