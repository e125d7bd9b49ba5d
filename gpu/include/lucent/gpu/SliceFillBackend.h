/// @brief Fill between slices (core/SliceFill.h) on a chosen backend: the CPU reference, or CUDA
/// (both methods), voxel for voxel the same as the CPU's.
#pragma once

#include "lucent/core/Progress.h"
#include "lucent/core/SliceFill.h"
#include "lucent/core/seg/Backend.h"

#include <cstddef>
#include <string>

namespace lucent::gpu {

struct SliceFillRun {
    SliceFillReport report;
    std::string backend;  ///< the key of the backend that filled ("cpu", "cuda")
    std::string notice;   ///< why auto filled on the CPU (a GPU fault, too little memory), or empty
    std::size_t deviceBytes = 0;  ///< device memory the CUDA fill held at its largest (0 on the CPU)
};

/// True when this build has a CUDA fill for `method` (a CUDA build has both).
bool hasCudaSliceFill(FillMethod method);

/// fillBetweenSlices on `backend`. Auto: CUDA when this build and machine have it for the method,
/// else the CPU; a GPU fault or too little device memory then fills on the CPU instead, with a
/// notice (the map is written only once the GPU has finished, so nothing is half-filled). Cuda
/// where it cannot run throws std::invalid_argument saying why; a fault under Cuda throws GpuError.
/// `progress` gets (done, total) and may cancel (Cancelled is thrown; on CUDA the map is then as it
/// was).
SliceFillRun fillBetweenSlices(LabelMap& map, const SliceFillOptions& options, Backend backend,
                               const ProgressCallback& progress = {});

}  // namespace lucent::gpu
