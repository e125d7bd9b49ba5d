/// @brief The CUDA snake's tuning switches (LUCENT_SNAKE_* environment variables), read in one
/// place into one struct: tests and benchmarks set them to take paths a run would not take alone.
#pragma once

#include <optional>

namespace lucent::gpu {

/// Which kernel scans the rows.
enum class CheckpointScan {
    Auto,  ///< a block per row for rows of 2048 pixels or more, else a warp per row
    Warp,  ///< a warp per row (LUCENT_SNAKE_SCAN=warp)
    Row,   ///< a block per row (LUCENT_SNAKE_SCAN=row)
};

struct SnakeTuning {
    bool leaderShared = true;          ///< LUCENT_SNAKE_LEADER_SHARED=0: the leader's scratch in global memory
    bool replica = true;               ///< LUCENT_SNAKE_REPLICA=0: no replicated-decision kernel
    int replicaNodes = 0;              ///< LUCENT_SNAKE_REPLICA_NODES: its node cap (0: what fits)
    std::optional<int> blocks;         ///< LUCENT_SNAKE_BLOCKS (at least 1): the program kernel's grid
    std::optional<int> replicaBlocks;  ///< LUCENT_SNAKE_REPLICA_BLOCKS (at least 1): the replica kernel's grid
    bool cacheSums = true;             ///< LUCENT_SNAKE_CACHE=0: the replica kernel sums every node
    bool profile = false;              ///< LUCENT_SNAKE_PROFILE set: stage times printed when a run ends
    std::optional<int> nodes;          ///< LUCENT_SNAKE_NODES (at least 8): the first room for nodes
    CheckpointScan scan = CheckpointScan::Auto;  ///< LUCENT_SNAKE_SCAN=warp|row
};

/// Reads every LUCENT_SNAKE_* variable. SnakeCuda reads it once at each start (tests set the
/// variables between runs); the replica kernel's thread count once a process.
SnakeTuning readSnakeTuning();

}  // namespace lucent::gpu
