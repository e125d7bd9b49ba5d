/// @brief Where the GPU layer counts its host transfers (Resident.h's hostTransfers).
#pragma once

#include <cstddef>

namespace lucent::gpu {

void noteVolumeUpload(std::size_t bytes);
void noteLabelDownload(std::size_t bytes);

}  // namespace lucent::gpu
