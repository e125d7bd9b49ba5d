/// @brief Where an engine runs, and the names of the backends ("auto", "cpu", "cuda"): the
/// --backend option, the session file, the panel's choices and Segmenter::backend() all spell them
/// from here.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace lucent {

/// Auto: CUDA when a device and a CUDA engine exist, else CPU.
enum class Backend { Auto, Cpu, Cuda };

struct BackendInfo {
    Backend backend;
    std::string_view key;  ///< "auto", "cpu", "cuda"
};

/// One row a backend, in the order of the enum (the panel's combo box order).
const std::array<BackendInfo, 3>& backendTable();
/// The key as a C string; the keys are literals, so it ends in NUL.
const char* backendKey(Backend backend);
/// The backend whose key is `key`; nullopt for any other text.
std::optional<Backend> backendFromKey(std::string_view key);
/// The keys for a message or usage text: "auto, cpu or cuda" with (", ", " or "), "auto|cpu|cuda" with ("|", "|").
std::string backendKeyList(std::string_view separator = ", ", std::string_view lastSeparator = ", ");

}  // namespace lucent
