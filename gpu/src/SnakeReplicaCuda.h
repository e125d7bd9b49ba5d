/// @brief The device side of SnakeReplica.h: how many nodes a block's shared memory holds, and a
/// cooperative launch of the replicated-decision snake kernel.
#pragma once

#include "lucent/gpu/programs/SnakeReplicaState.h"

#include <cstddef>

namespace lucent::gpu {

/// The replica kernel's fixed launch shape on this device, found once.
struct SnakeReplicaShape {
    int capacity = 0;       ///< nodes a block holds (0: the device cannot run the kernel)
    int maxBlocks = 0;      ///< blocks that can be resident at once (the cooperative limit)
    std::size_t bytes = 0;  ///< dynamic shared memory a block takes
};

/// At most `most` nodes (0: as many as fit). Throws GpuError on a CUDA failure.
SnakeReplicaShape snakeReplicaShape(int most);

/// Runs runReplica over `blocks` blocks (at most shape.maxBlocks) on `stream`.
void launchSnakeReplica(const snake::ReplicaProgram& program, const SnakeReplicaShape& shape, int blocks, void* stream);

}  // namespace lucent::gpu
