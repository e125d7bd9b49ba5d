/// @brief LUCENT_SNAKE_* into SnakeTuning: the only place that reads them.
#include "SnakeTuning.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace lucent::gpu {

namespace {

/// The variable as a whole number; nullopt when unset.
std::optional<int> integer(const char* name) {
    const char* text = std::getenv(name);
    return text ? std::optional<int>(std::atoi(text)) : std::nullopt;
}

/// Unset or anything but 0: on.
bool on(const char* name) { return integer(name) != 0; }

}  // namespace

SnakeTuning readSnakeTuning() {
    SnakeTuning t;
    t.leaderShared = on("LUCENT_SNAKE_LEADER_SHARED");
    t.replica = on("LUCENT_SNAKE_REPLICA");
    t.replicaNodes = integer("LUCENT_SNAKE_REPLICA_NODES").value_or(0);
    if (const auto n = integer("LUCENT_SNAKE_BLOCKS")) t.blocks = std::max(1, *n);
    if (const auto n = integer("LUCENT_SNAKE_REPLICA_BLOCKS")) t.replicaBlocks = std::max(1, *n);
    t.cacheSums = on("LUCENT_SNAKE_CACHE");
    t.profile = std::getenv("LUCENT_SNAKE_PROFILE") != nullptr;
    if (const auto n = integer("LUCENT_SNAKE_NODES")) t.nodes = std::max(8, *n);
    const char* scan = std::getenv("LUCENT_SNAKE_SCAN");
    if (scan && std::strcmp(scan, "warp") == 0) t.scan = CheckpointScan::Warp;
    if (scan && std::strcmp(scan, "row") == 0) t.scan = CheckpointScan::Row;
    return t;
}

}  // namespace lucent::gpu
