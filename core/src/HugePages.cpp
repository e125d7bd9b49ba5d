/// @brief Transparent huge pages for large host buffers (madvise).
#include "lucent/core/HugePages.h"

#include <sys/mman.h>

namespace lucent {

void adviseHugePages(void* p, std::size_t bytes) {
    constexpr std::size_t kHuge = std::size_t(2) << 20;
    if (bytes < 2 * kHuge) return;
    const auto first = (reinterpret_cast<std::uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
    const auto last = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kHuge - 1);
    if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

std::vector<std::uint8_t> zeroedOnHugePages(std::size_t n) {
    std::vector<std::uint8_t> out;
    out.reserve(n);  // allocated, not yet touched
    adviseHugePages(out.data(), n);
    out.resize(n);
    return out;
}

}  // namespace lucent
