/// @brief The readers' work counters: relaxed atomics, as the DICOM scan reads on several threads.
#include "lucent/io/IoWork.h"

#include <atomic>

namespace lucent::io {

namespace {
std::atomic<std::uint64_t> g_read{0}, g_inflated{0}, g_allocated{0}, g_records{0};
}  // namespace

IoWork IoWork::operator-(const IoWork& earlier) const {
    return {bytesRead - earlier.bytesRead, bytesInflated - earlier.bytesInflated,
            bytesAllocated - earlier.bytesAllocated, frameRecords - earlier.frameRecords};
}

IoWork ioWorkSoFar() {
    return {g_read.load(std::memory_order_relaxed), g_inflated.load(std::memory_order_relaxed),
            g_allocated.load(std::memory_order_relaxed), g_records.load(std::memory_order_relaxed)};
}

void countIoWork(const IoWork& work) {
    g_read.fetch_add(work.bytesRead, std::memory_order_relaxed);
    g_inflated.fetch_add(work.bytesInflated, std::memory_order_relaxed);
    g_allocated.fetch_add(work.bytesAllocated, std::memory_order_relaxed);
    g_records.fetch_add(work.frameRecords, std::memory_order_relaxed);
}

}  // namespace lucent::io
