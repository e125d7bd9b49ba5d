/// @brief VoxelBuffer over malloc / calloc / realloc.
#include "lucent/core/VoxelBuffer.h"

#include "lucent/core/HugePages.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace lucent {

namespace {
char* allocate(std::size_t bytes, bool zero) {
    if (bytes == 0) return nullptr;
    void* p = zero ? std::calloc(bytes, 1) : std::malloc(bytes);
    if (!p) throw std::bad_alloc();
    if (!zero) adviseHugePages(p, bytes);
    return static_cast<char*>(p);
}
}  // namespace

VoxelBuffer VoxelBuffer::zeroed(std::size_t bytes) {
    VoxelBuffer b;
    b.m_data = allocate(bytes, true);
    b.m_size = bytes;
    return b;
}

VoxelBuffer VoxelBuffer::uninitialised(std::size_t bytes) {
    VoxelBuffer b;
    b.m_data = allocate(bytes, false);
    b.m_size = bytes;
    return b;
}

VoxelBuffer VoxelBuffer::borrowed(char* data, std::size_t bytes) {
    VoxelBuffer b;
    b.m_data = data;
    b.m_size = bytes;
    b.m_borrowed = bytes != 0;
    return b;
}

VoxelBuffer::VoxelBuffer(const VoxelBuffer& other) : m_data(allocate(other.m_size, false)), m_size(other.m_size) {
    if (m_size) std::memcpy(m_data, other.m_data, m_size);
}

VoxelBuffer::VoxelBuffer(VoxelBuffer&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)),
      m_size(std::exchange(other.m_size, 0)),
      m_borrowed(std::exchange(other.m_borrowed, false)) {}

VoxelBuffer& VoxelBuffer::operator=(const VoxelBuffer& other) {
    if (this != &other) *this = VoxelBuffer(other);
    return *this;
}

VoxelBuffer& VoxelBuffer::operator=(VoxelBuffer&& other) noexcept {
    if (this != &other) {
        if (!m_borrowed) std::free(m_data);
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
        m_borrowed = std::exchange(other.m_borrowed, false);
    }
    return *this;
}

VoxelBuffer::~VoxelBuffer() {
    if (!m_borrowed) std::free(m_data);
}

void VoxelBuffer::resize(std::size_t bytes) {
    if (bytes == m_size) return;
    if (m_borrowed) {
        // Someone else's bytes are never reallocated: the kept prefix moves into owned ones.
        VoxelBuffer owned = uninitialised(bytes);
        if (bytes) std::memcpy(owned.m_data, m_data, bytes < m_size ? bytes : m_size);
        *this = std::move(owned);
        return;
    }
    if (bytes == 0) {
        std::free(m_data);
        m_data = nullptr;
        m_size = 0;
        return;
    }
    void* p = std::realloc(m_data, bytes);
    if (!p) throw std::bad_alloc();
    if (bytes > m_size) adviseHugePages(p, bytes);
    m_data = static_cast<char*>(p);
    m_size = bytes;
}

}  // namespace lucent
