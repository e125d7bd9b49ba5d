/// @brief Picks an engine at run time: auto (CUDA when a device and a CUDA engine exist, else CPU), cpu, cuda.
#pragma once

#include "lucent/core/seg/Segmenter.h"

#include <memory>
#include <string>

namespace lucent::gpu {

enum class Backend { Auto, Cpu, Cuda };

/// "auto", "cpu" or "cuda"; std::invalid_argument otherwise.
Backend parseBackend(const std::string& name);
/// "srg", "fc", "fcm" or "snake"; std::invalid_argument otherwise.
Method parseMethod(const std::string& name);

/// The engine for `method` on `backend`. Asking for cuda where it cannot run throws
/// std::invalid_argument saying why (no CUDA in this build, no device, or no CUDA engine yet).
std::unique_ptr<Segmenter> createSegmenter(Method method, Backend backend);

}  // namespace lucent::gpu
