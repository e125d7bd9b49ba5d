/// @brief A volume resident in GPU memory (no CUDA types here: callers need not be built with nvcc).
#pragma once

#include "lucent/core/Progress.h"
#include "lucent/core/Volume.h"

#include <memory>
#include <utility>

namespace lucent::gpu {

/// Owns a device copy of a Volume's voxels. Move-only.
class DeviceVolume {
public:
    /// Copies the voxels to the current device through pinned staging buffers, asynchronously on
    /// `stream` (a cudaStream_t; null: the default stream) in chunks, reporting progress in bytes;
    /// returns when the copy is done. Throws GpuError with a clear message (device missing, out of
    /// memory with the sizes involved), Cancelled when `progress` returns false.
    explicit DeviceVolume(const Volume& volume, void* stream = nullptr, const ProgressCallback& progress = {});
    ~DeviceVolume();
    DeviceVolume(DeviceVolume&&) noexcept;
    DeviceVolume& operator=(DeviceVolume&&) noexcept;
    DeviceVolume(const DeviceVolume&) = delete;
    DeviceVolume& operator=(const DeviceVolume&) = delete;

    const Geometry& geometry() const;
    PixelType pixelType() const;
    /// Device pointer to the voxels (int16_t* or float*), for engines in this library.
    void* devicePointer() const;
    /// Copies the voxels back into a new Volume with the same geometry.
    Volume download() const;
    /// Smallest and largest voxel, reduced on the device.
    std::pair<double, double> range() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace lucent::gpu
