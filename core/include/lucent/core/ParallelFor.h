/// @brief Runs a loop body over [0, n) on a number of threads; the first exception is rethrown.
#pragma once

#include <cstddef>
#include <functional>

namespace lucent {

/// Threads to use when the caller asks for 0: all hardware threads.
unsigned defaultThreadCount();

/// Calls body(i) for every i in [0, n), items handed out one at a time so that uneven items
/// (a compressed file beside an uncompressed one) balance. Stops handing out items after the
/// first exception and rethrows it on the calling thread.
void parallelFor(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& body);

}  // namespace lucent
