/// @brief A volume resident in GPU memory (no CUDA types here: callers need not be built with nvcc).
#pragma once

#include "lucent/core/Progress.h"
#include "lucent/core/Volume.h"
#include "lucent/core/seg/SegmentationRequest.h"

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
    /// Voxels of `geometry` as `type` already in device memory at `devicePointer` (x fastest, on the
    /// current device: a CuPy or PyTorch array through DLPack), borrowed: nothing is copied and
    /// nothing freed here; the owner keeps them alive and unchanged while this volume is used.
    DeviceVolume(const Geometry& geometry, PixelType type, void* devicePointer);
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
    /// Voxel `index`'s value, read off the device (a seed's: a few bytes a call).
    double value(std::size_t index) const;
    /// The voxels of `box` in a host volume of the box's size (its voxel 0 is box.lo): what host
    /// code reads around seeds, without downloading the volume.
    Volume window(const VoxelBox& box) const;
    /// Every `step`-th voxel along each axis from 0 (gridSampleStep, ValueHistogram.h) in a host
    /// volume of just those voxels.
    Volume sampleGrid(int step) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace lucent::gpu
