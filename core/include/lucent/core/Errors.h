/// @brief Exceptions that carry a message fit to show a user (problem and file named).
#pragma once

#include <stdexcept>
#include <string>

namespace lucent {

/// Reading or writing failed; what() names the file and the problem.
class IoError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A GPU fault (no device, out of memory, a failed launch); what() says what was being done.
/// Engines chosen with backend auto fall back to the CPU on it.
class GpuError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The user cancelled a long operation.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace lucent
