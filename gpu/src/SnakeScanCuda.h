/// @brief The snake's checkpoint scan on the device: a slice's rows into Checkpoint records (the
/// cumulated images every 8 pixels, with the pixels), and the slice's totals.
#pragma once

#include "SnakeTuning.h"
#include "lucent/gpu/programs/SnakeProgramState.h"

#include <cstdint>

namespace lucent::gpu {

/// Writes height x groups records (groups = snake::checkpointGroups(width)) of the int16 image
/// `pixels` (width x height, rows `pitch` pixels apart: a slice, or the snake's bounds in it) to
/// `out`, and adds the image's sums to `*image`, on `stream`. Throws GpuError if the launch fails.
void launchCheckpointScan(const std::int16_t* pixels, int width, int height, int pitch, snake::Checkpoint* out,
                          ExactSums* image, CheckpointScan scan, void* stream);

}  // namespace lucent::gpu
