/// @brief Where a DICOMweb password or token comes from besides a prompt: the environment variables and a token file
/// (never a settings file).
#pragma once

#include <string>

namespace lucent::pacs {

/// The password of a DICOMweb user name (the CLI's --user, a node's user in the viewer).
inline constexpr const char* kPasswordVariable = "LUCENT_PACS_PASSWORD";
/// A bearer token when no token file is given.
inline constexpr const char* kTokenVariable = "LUCENT_PACS_TOKEN";

/// The first line of `path` without surrounding white space; std::invalid_argument "WHAT PATH: problem" when it cannot
/// be read or is empty (`what` names where the path came from: "--token-file", "token file").
std::string secretFromFile(const std::string& path, const std::string& what);

/// The value of `variable` when set (an empty value counts as set), else nothing (false).
bool secretFromEnvironment(const char* variable, std::string& value);

}  // namespace lucent::pacs
