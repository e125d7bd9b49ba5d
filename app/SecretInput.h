/// @brief Where a DICOMweb password or token comes from: an environment variable, a file, or a prompt on the terminal
/// (never a settings file).
#pragma once

#include "lucent/pacs/PacsSecrets.h"

#include <string>

namespace lucent::app {

using pacs::kPasswordVariable;
using pacs::kTokenVariable;

/// The value of `variable` when set (an empty value counts as set); else asks `prompt` on the
/// terminal without echo; UsageError naming the variable when there is no terminal to ask on.
std::string secretFromEnvironmentOrTerminal(const char* variable, const std::string& prompt);

/// The first line of `path` without surrounding white space; UsageError when it cannot be read or is empty.
std::string secretFromFile(const std::string& path, const std::string& option);

}  // namespace lucent::app
