/// @brief Grow from seeds' per-voxel state, shared by the CPU and CUDA engines: a voxel's (distance,
/// label) pair packed in one 64-bit key whose integer order is the lexicographic order of the pair,
/// and the cost of a step between face neighbours, |I(p) - I(q)|.
#pragma once

#include "lucent/core/seg/HostDevice.h"
#include "lucent/core/seg/ParameterLimits.h"

#include <cstdint>
#include <cstring>

namespace lucent {

/// A voxel no seed has reached (yet): larger than every key.
inline constexpr std::uint64_t kGrowCutUnreached = ~std::uint64_t(0);
/// int16 step costs are 0..65535, so the distances the CPU's bucket queue holds at once span less
/// than this many values (the ring's size).
inline constexpr std::uint32_t kGrowCutCostSpan = 65536;

static_assert(kGrowCutLimits.label.min >= 1 && kGrowCutLimits.label.max <= 255,
              "a seed's label fits the key's low 8 bits, and 0 stays 'no seed'");

/// Distance in the high 56 bits, label in the low 8: min() over keys is the lexicographic minimum
/// of (distance, label), so ties in distance go to the smallest label.
LUCENT_HD inline std::uint64_t growCutKey(std::uint64_t distance, std::uint8_t label) {
    return (distance << 8) | label;
}
LUCENT_HD inline std::uint64_t growCutDistance(std::uint64_t key) { return key >> 8; }
/// The key's label; 0 for an unreached voxel.
LUCENT_HD inline std::uint8_t growCutLabel(std::uint64_t key) {
    return key == kGrowCutUnreached ? std::uint8_t(0) : std::uint8_t(key & 0xFF);
}

/// int16: the cost of a step, exact. A path of 2^40 steps of the largest cost still fits 56 bits.
LUCENT_HD inline std::uint32_t growCutCost(int a, int b) { return std::uint32_t(a > b ? a - b : b - a); }

/// float32: distances are floats (non-negative, so their bit patterns order as the values do) and a
/// step adds the rounded |a - b| with one rounded float addition: fl(d + c) >= d and it is
/// monotone in d, so the order of relaxation cannot change the distances (core/README.md).
LUCENT_HD inline float growCutCost(float a, float b) {
    const float d = a - b;
    return d < 0 ? -d : d;
}
LUCENT_HD inline std::uint32_t growCutFloatBits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}
LUCENT_HD inline float growCutFloatDistance(std::uint64_t key) {
    const std::uint32_t u = std::uint32_t(growCutDistance(key));
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
/// The float key of distance `d` (d >= 0, possibly +inf) and `label`.
LUCENT_HD inline std::uint64_t growCutFloatKey(float d, std::uint8_t label) { return growCutKey(growCutFloatBits(d), label); }

}  // namespace lucent
