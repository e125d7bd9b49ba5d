/// @brief Host work counters: two atomics, the largest kept by compare-and-swap.
#include "lucent/core/HostVolumeWork.h"

#include <atomic>

namespace lucent::hostwork {

namespace {
std::atomic<std::size_t> g_largest{0}, g_count{0};
}

void note(std::size_t voxels) {
    g_count.fetch_add(1, std::memory_order_relaxed);
    std::size_t seen = g_largest.load(std::memory_order_relaxed);
    while (voxels > seen && !g_largest.compare_exchange_weak(seen, voxels, std::memory_order_relaxed)) {
    }
}

std::size_t largest() { return g_largest.load(std::memory_order_relaxed); }

std::size_t count() { return g_count.load(std::memory_order_relaxed); }

void reset() {
    g_largest = 0;
    g_count = 0;
}

}  // namespace lucent::hostwork
