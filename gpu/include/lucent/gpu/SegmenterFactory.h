/// @brief Picks an engine at run time: auto (CUDA when a device and a CUDA engine exist, else CPU), cpu, cuda.
#pragma once

#include "lucent/core/seg/Backend.h"
#include "lucent/core/seg/Segmenter.h"

#include <memory>
#include <string>

namespace lucent::gpu {

class GpuContext;

using lucent::Backend;  // the one enum, named in core/seg/Backend.h

/// A key of backendTable() ("auto", "cpu", "cuda"); std::invalid_argument naming them otherwise.
Backend parseBackend(const std::string& name);
/// A key of methodTable() ("srg", "fc", "fcm", "snake"); std::invalid_argument naming them otherwise.
Method parseMethod(const std::string& name);
/// True when this build has a CUDA engine for `method`.
bool hasCudaEngine(Method method);

/// The engine for `method` on `backend`. CUDA engines run on `context` when it holds the
/// request's volume, else make their own (uploading the volume). Asking for cuda where it cannot
/// run throws std::invalid_argument saying why (no CUDA in this build, no device, no CUDA engine
/// for the method). With auto, a GPU fault during the run moves it to the CPU engine (see
/// fallbackNotice).
std::unique_ptr<Segmenter> createSegmenter(Method method, Backend backend, std::shared_ptr<GpuContext> context = nullptr);

/// For an engine made with Backend::Auto: why it left the GPU (empty when it did not).
std::string fallbackNotice(const Segmenter& engine);

}  // namespace lucent::gpu
