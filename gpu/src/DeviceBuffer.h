/// @brief An owned device allocation. Every allocation of the GPU layer goes through it, so an
/// out-of-memory message always names what was being allocated, and tests can cap device memory
/// (LUCENT_GPU_MEMORY_LIMIT_MB) to exercise the fallback paths without filling an 80 GB card.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace lucent::gpu {

/// Bytes this process has allocated through DeviceBuffer now.
std::size_t deviceBytesInUse();

class DeviceBuffer {
public:
    DeviceBuffer() = default;
    /// Throws GpuOutOfMemory (OutOfMemory.h), a GpuError ("GPU out of memory: <what> needs X MiB,
    /// Y MiB free") when it cannot.
    DeviceBuffer(std::size_t bytes, const std::string& what);
    ~DeviceBuffer() { release(); }
    DeviceBuffer(DeviceBuffer&& o) noexcept : m_data(std::exchange(o.m_data, nullptr)), m_bytes(std::exchange(o.m_bytes, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            release();
            m_data = std::exchange(o.m_data, nullptr);
            m_bytes = std::exchange(o.m_bytes, 0);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void* get() const { return m_data; }
    template <typename T> T* as() const { return static_cast<T*>(m_data); }
    std::size_t bytes() const { return m_bytes; }
    /// Grows (never shrinks) to at least `bytes`; contents are not kept.
    void reserve(std::size_t bytes, const std::string& what) {
        if (bytes > m_bytes) *this = DeviceBuffer(bytes, what);
    }

private:
    void release();
    void* m_data = nullptr;
    std::size_t m_bytes = 0;
};

}  // namespace lucent::gpu
