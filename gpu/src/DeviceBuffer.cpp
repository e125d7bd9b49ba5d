/// @brief Device allocations with an optional cap and out-of-memory messages that name the sizes.
#include "DeviceBuffer.h"

#include "CudaCheck.h"
#include "lucent/gpu/OutOfMemory.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace lucent::gpu {

namespace {
std::atomic<std::size_t> g_inUse{0};

/// LUCENT_GPU_MEMORY_LIMIT_MB caps what this process may allocate, in MiB (fractions allowed, so
/// tests can cap below a small volume); 0 or unset: the card's memory.
std::size_t memoryLimit() {
    const char* text = std::getenv("LUCENT_GPU_MEMORY_LIMIT_MB");
    if (!text || !*text) return 0;
    const double mib = std::strtod(text, nullptr);
    return mib > 0 ? std::max<std::size_t>(1, std::size_t(mib * 1048576.0)) : 0;
}

[[noreturn]] void outOfMemory(std::size_t bytes, const std::string& what, std::size_t freeBytes, std::size_t total) {
    char buf[320];
    std::snprintf(buf, sizeof buf, "GPU out of memory: %s needs %.1f MiB, %.1f MiB of %.1f MiB are free", what.c_str(),
                  bytes / 1048576.0, freeBytes / 1048576.0, total / 1048576.0);
    throw GpuOutOfMemory(buf);
}
}  // namespace

std::size_t deviceBytesInUse() { return g_inUse.load(); }

DeviceBuffer::DeviceBuffer(std::size_t bytes, const std::string& what) {
    if (bytes == 0) return;
    const std::size_t limit = memoryLimit();
    if (limit && g_inUse.load() + bytes > limit) outOfMemory(bytes, what, limit - std::min(limit, g_inUse.load()), limit);
    const cudaError_t status = cudaMalloc(&m_data, bytes);
    if (status == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        m_data = nullptr;
        std::size_t freeBytes = 0, total = 0;
        cudaMemGetInfo(&freeBytes, &total);
        outOfMemory(bytes, what, freeBytes, total);
    }
    cudaCheck(status, "GPU allocation for " + what);
    m_bytes = bytes;
    g_inUse += bytes;
}

void DeviceBuffer::release() {
    if (!m_data) return;
    cudaFree(m_data);
    g_inUse -= m_bytes;
    m_data = nullptr;
    m_bytes = 0;
}

}  // namespace lucent::gpu
