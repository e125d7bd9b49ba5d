/// @brief Transparent huge pages for large host buffers (advice to the kernel).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lucent {

/// Asks for transparent huge pages over the 2 MiB pages that lie wholly inside [p, p + bytes), when
/// the range spans at least two (as NumPy does for large arrays): filling gigabytes then faults once
/// per 2 MiB instead of per 4 KiB, and freeing them unmaps as few pages. Advice only; ignored where
/// unsupported. Call it before the memory is first touched.
void adviseHugePages(void* p, std::size_t bytes);

/// `n` zero bytes whose pages were advised before the zeros were written: the labels of a large
/// volume (a LabelMap takes them) fault in and are freed in 2 MiB pages.
std::vector<std::uint8_t> zeroedOnHugePages(std::size_t n);

}  // namespace lucent
