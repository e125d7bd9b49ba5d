/// @brief The process's pinned staging buffers for volume uploads (DeviceVolumeCuda.cu).
#pragma once

#include <cstddef>

namespace lucent::gpu {

/// Pins the two staging buffers now (pinning is slow), so that the first upload does not.
void warmUpStaging();

/// Frees the staging buffers (before the context goes); the next upload or download pins new ones.
void releaseStaging();

/// Copies `bytes` from device memory to pageable host memory through the same pinned buffers, in
/// chunks: the copy engine fills one while the host's threads empty the other into `host`. A
/// pageable cudaMemcpy copies (and first-touches the destination's pages) on one thread.
void downloadStaged(void* host, const void* device, std::size_t bytes, void* stream);

}  // namespace lucent::gpu
