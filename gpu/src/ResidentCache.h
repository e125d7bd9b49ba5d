/// @brief The label memory that resident runs keep between them (ResidentCache.cpp), for DeviceLabels.
#pragma once

#include "DeviceBuffer.h"

#include <cstddef>

namespace lucent::gpu {

/// At least `bytes` (at most twice that) of kept label memory on `device` (the smallest such, of
/// those the last kept), else new memory; with no room, the kept memory of every device is freed
/// and the allocation tried once more (GpuOutOfMemory after that). `device` must be current.
DeviceBuffer takeLabelMemory(int device, std::size_t bytes);

/// Keeps `buffer`, the memory of labels given back on `device`, for the next labels there, once the
/// device's queued work is done (what freeing it would have waited for); the oldest kept buffer of
/// a full device, and anything given back once the keeping is closed, is freed. Never throws.
void keepLabelMemory(int device, DeviceBuffer&& buffer) noexcept;

}  // namespace lucent::gpu
