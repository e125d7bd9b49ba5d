/// @brief The process's pinned staging buffers for volume uploads (DeviceVolumeCuda.cu).
#pragma once

#include "lucent/core/Progress.h"

#include <cstddef>

namespace lucent::gpu {

/// Pins the two staging buffers now (pinning is slow), so that the first upload does not.
void warmUpStaging();

/// Frees the staging buffers (before the context goes); the next upload or download pins new ones.
void releaseStaging();

/// Copies `bytes` from pageable host memory to device memory through the two pinned buffers in
/// chunks (several threads fill one while the copy engine drains the other), on `stream` (a
/// cudaStream_t; null: the default stream), returning when the copy is done. `progress` gets bytes
/// and may cancel (Cancelled is thrown, the copy stopped part way).
void uploadStaged(void* device, const void* host, std::size_t bytes, void* stream,
                  const ProgressCallback& progress = {});

/// Copies `bytes` from device memory to pageable host memory through the same pinned buffers, in
/// chunks: the copy engine fills one while the host's threads empty the other into `host`. A
/// pageable cudaMemcpy copies (and first-touches the destination's pages) on one thread.
void downloadStaged(void* host, const void* device, std::size_t bytes, void* stream);

}  // namespace lucent::gpu
