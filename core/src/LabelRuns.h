/// @brief Runs of equal labels: how the whole-map passes (statistics, counts) step through a mask.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace lucent {

/// End of the run of labels equal to l[i] that starts at i (< e): 8 bytes at a time through the
/// long runs masks are made of.
inline std::size_t labelRunEnd(const std::uint8_t* l, std::size_t i, std::size_t e) {
    const std::uint64_t same = 0x0101010101010101ull * l[i];
    std::size_t j = i + 1;
    for (std::uint64_t w; j + 8 <= e && (std::memcpy(&w, l + j, 8), w == same);) j += 8;
    while (j < e && l[j] == l[i]) ++j;
    return j;
}

}  // namespace lucent
