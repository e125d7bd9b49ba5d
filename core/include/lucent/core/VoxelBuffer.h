/// @brief The bytes of a volume's voxels: allocated without a zero pass where a reader fills them, resized in place.
#pragma once

#include <cstddef>

namespace lucent {

/// Owned, copyable voxel bytes (malloc'ed, 16-byte aligned). Unlike std::vector it can be allocated
/// without writing every byte (a reader fills it at once) and resized through realloc, which for
/// large blocks moves pages rather than bytes: a reader converts a file's scalars in place.
class VoxelBuffer {
public:
    VoxelBuffer() = default;
    /// `bytes` zero bytes (calloc: pages the kernel zeroes on first touch, no pass over them here).
    static VoxelBuffer zeroed(std::size_t bytes);
    /// `bytes` bytes of unspecified content, for a reader that writes every one of them.
    static VoxelBuffer uninitialised(std::size_t bytes);
    /// `bytes` bytes at `data`, owned by someone else (a NumPy array the Python module segments
    /// without copying): never freed here; the owner keeps them alive for the buffer's lifetime. A
    /// copy or a resize makes owned bytes.
    static VoxelBuffer borrowed(char* data, std::size_t bytes);

    VoxelBuffer(const VoxelBuffer& other);
    VoxelBuffer(VoxelBuffer&& other) noexcept;
    VoxelBuffer& operator=(const VoxelBuffer& other);
    VoxelBuffer& operator=(VoxelBuffer&& other) noexcept;
    ~VoxelBuffer();

    char* data() { return m_data; }
    const char* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    /// True for borrowed() bytes.
    bool isBorrowed() const { return m_borrowed; }
    /// New size, keeping the first min(old, new) bytes; bytes past the old size are unspecified.
    /// Throws std::bad_alloc when memory runs out (the buffer is then unchanged).
    void resize(std::size_t bytes);

private:
    char* m_data = nullptr;
    std::size_t m_size = 0;
    bool m_borrowed = false;
};

}  // namespace lucent
