/// @brief The 3D pane's coarse label copy made where the labels are: one thread a cell, the rule
/// of lucent/core/LabelReduction.h, so a live run downloads cells, not the volume.
#pragma once

#include "lucent/core/LabelReduction.h"

namespace lucent::gpu {

/// Writes `plan.cellCount()` cells of the device labels `labels` into device memory `cells`, on
/// `stream` (a cudaStream_t); does not wait.
void reduceLabelsOnDevice(const std::uint8_t* labels, const LabelReduction& plan, std::uint8_t* cells, void* stream);

}  // namespace lucent::gpu
