/// @brief Where a DICOMweb password or token comes from: an environment variable, a file, or a prompt on the terminal
/// (never a settings file).
#pragma once

#include <string>

namespace lucent::app {

/// The password of --user.
inline constexpr const char* kPasswordVariable = "LUCENT_PACS_PASSWORD";
/// A bearer token when --token-file is not given.
inline constexpr const char* kTokenVariable = "LUCENT_PACS_TOKEN";

/// The value of `variable` when set (an empty value counts as set); else asks `prompt` on the
/// terminal without echo; UsageError naming the variable when there is no terminal to ask on.
std::string secretFromEnvironmentOrTerminal(const char* variable, const std::string& prompt);

/// The first line of `path` without surrounding white space; UsageError when it cannot be read or is empty.
std::string secretFromFile(const std::string& path, const std::string& option);

}  // namespace lucent::app
