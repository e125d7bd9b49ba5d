/// @brief Builds without CUDA have no CUDA engines.
#include "lucent/core/seg/Segmenter.h"
#include "lucent/gpu/GpuContext.h"

#include <memory>

namespace lucent::gpu {

std::unique_ptr<Segmenter> createCuda(Method, std::shared_ptr<GpuContext>) { return nullptr; }

}  // namespace lucent::gpu
