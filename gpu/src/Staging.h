/// @brief The process's pinned staging buffers for volume uploads (DeviceVolumeCuda.cu).
#pragma once

namespace lucent::gpu {

/// Pins the two staging buffers now (pinning is slow), so that the first upload does not.
void warmUpStaging();

}  // namespace lucent::gpu
