/// @brief Whether a live engine (or its published state) runs on the device: the live run's files share it.
#pragma once

#include "lucent/core/seg/Backend.h"

#include <string_view>

namespace lucent::ui {

inline bool onCuda(std::string_view backend) { return backendFromKey(backend) == Backend::Cuda; }

}  // namespace lucent::ui
