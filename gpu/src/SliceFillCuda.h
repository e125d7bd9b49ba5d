/// @brief The CUDA fill between slices (both methods): the map uploaded, each label's gaps filled on
/// the device in one pass, the map downloaded only when every label is done.
#pragma once

#include <cstddef>

#include "lucent/core/Progress.h"
#include "lucent/core/SliceFill.h"

namespace lucent::gpu {

/// Fills `map` as fillBetweenSlices with `method` does, voxel for voxel. Progress in gaps, one
/// report per batch of gaps; a cancel leaves `map` as it was. GpuError on a device fault or too
/// little memory. `deviceBytes`: the device memory it held at its largest.
SliceFillReport fillBetweenSlicesCuda(LabelMap& map, const SliceFillPlan& plan, FillMethod method,
                                      const ProgressCallback& progress, std::size_t& deviceBytes);

}  // namespace lucent::gpu
