/// @brief Byte swapping, value ranges and type conversion of file scalars in place, on all cores.
#pragma once

#include "lucent/core/Volume.h"
#include "lucent/io/RawLayout.h"

#include <cstddef>
#include <utility>

namespace lucent::io {

/// Reverses the byte order of `count` scalars of `size` bytes, in parallel parts.
void swapBytesInParallel(char* data, std::size_t count, std::size_t size);

/// Smallest and largest of `count` stored scalars of `type` (before any rescale).
std::pair<double, double> storedRange(const char* data, std::size_t count, ScalarType type);

/// Converts the `count` scalars of `from` at the start of `buffer` to `to` in place: value =
/// stored * slope + intercept, rounded and clamped to int16 as Volume::setValue does. `buffer` holds
/// count * max(size of from, size of to) bytes. Widening runs back to front and narrowing front to
/// back, in passes whose inputs and outputs do not overlap, each pass on all cores.
void convertInPlace(char* buffer, std::size_t count, ScalarType from, PixelType to, double slope, double intercept);

}  // namespace lucent::io
