/// @brief The device's out-of-memory error, told apart from other GPU faults.
#pragma once

#include "lucent/core/Errors.h"

namespace lucent::gpu {

/// The device had no room for an allocation (what() names it and the sizes). A GpuError, so every
/// fallback to the CPU applies; caught apart where memory kept for later runs can be given back
/// before a second try (Resident.h).
class GpuOutOfMemory : public GpuError {
public:
    using GpuError::GpuError;
};

}  // namespace lucent::gpu
