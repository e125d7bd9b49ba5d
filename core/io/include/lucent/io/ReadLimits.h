/// @brief How large an image a reader may allocate: a limit from this machine's memory, checked before allocating.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lucent::io {

/// The most bytes one image may occupy: half the physical memory (a volume is often held twice
/// while it is converted), lower when the process runs under a smaller address-space, data or
/// cgroup memory limit, or LUCENT_READ_LIMIT_MB when that is smaller (the limit itself, in MiB).
/// Computed once.
std::size_t readLimitBytes();

/// "the 6.00 GiB one image may take on this machine (half its memory)": the limit in messages.
std::string readLimitText();

/// "6.00 GiB", "512 KiB", "17 bytes": sizes in messages.
std::string formatBytes(std::uint64_t bytes);

/// Bytes of an image with these sizes (the axes, then the frames) of `scalarBytes` each. Throws
/// IoError naming `source` when a size is below 1, the product overflows 64 bits, or it exceeds
/// readLimitBytes(); the message gives the sizes and the limit.
std::size_t imageBytes(const std::vector<std::int64_t>& sizes, std::size_t scalarBytes, const std::string& source);

}  // namespace lucent::io
