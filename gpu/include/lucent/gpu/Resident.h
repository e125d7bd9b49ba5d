/// @brief Volumes and labels that stay on the device: a caller's device array segmented where it
/// lies (the Python module's CuPy and PyTorch arrays through DLPack), its labels handed back in
/// device memory, and the count of host transfers that shows none happened.
#pragma once

#include "lucent/core/Volume.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace lucent::gpu {

class DeviceVolume;
class GpuContext;

/// Device memory for one run's labels (a uint8 a voxel) on the current device, owned: given back
/// with the object (by whoever holds it last: a DLPack capsule's deleter). The memory of labels
/// given back is kept for the next ones on that device (releaseResidentMemory frees it): once the
/// device's queued work is done, as freeing it would wait for, so work still reading the old labels
/// never sees the new ones. Engines write every voxel of the labels: kept memory is not cleared.
class DeviceLabels {
public:
    /// Kept memory of this device that fits (at least `voxels` bytes, at most twice that), else new
    /// memory. GpuOutOfMemory naming the size when there is no room even after the kept memory of
    /// every device was freed (GpuError without CUDA).
    explicit DeviceLabels(std::size_t voxels);
    ~DeviceLabels();
    DeviceLabels(const DeviceLabels&) = delete;
    DeviceLabels& operator=(const DeviceLabels&) = delete;
    std::uint8_t* data() const;
    std::size_t voxels() const;
    int device() const;  ///< the CUDA device it lies on
    /// Copies the labels into `host` (voxels() bytes): for tests; callers hand the memory on instead.
    void copyTo(std::uint8_t* host) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// The calling thread's current CUDA device; -1 without CUDA or a device.
int currentDevice();

/// A context on the current device for one run over a resident volume (`resident`, described by
/// `volume`, as GpuContext's constructor takes them): a context an earlier run on this device left
/// idle, rebound to it (its stream and memory kept between runs), else a new one. It goes back to
/// the idle ones when its last copy is dropped, unless its stream reports a fault. Each thread's run
/// has a context of its own: several threads may run at once.
std::shared_ptr<GpuContext> residentContext(const Volume& volume, DeviceVolume&& resident);

/// Frees what resident runs keep between them on every device: the idle contexts and the kept
/// label memory (labels a caller still holds are given back when dropped, and kept again). With
/// `forGood` nothing is kept from then on (the Python module at interpreter exit). Returns the
/// bytes of device memory freed.
std::size_t releaseResidentMemory(bool forGood = false);

/// A host Volume that names a resident volume's grid and type and holds no voxels (its data() is
/// null): what a request names for a context made from a DeviceVolume over a caller's memory. The
/// CUDA engines then read the few voxels host code needs (seeds, the cubes around them) off the
/// device; a CPU engine cannot run on it.
inline Volume residentVolume(const Geometry& geometry, PixelType type) {
    const std::size_t item = type == PixelType::Int16 ? sizeof(std::int16_t) : sizeof(float);
    return Volume(geometry, type, VoxelBuffer::borrowed(nullptr, geometry.voxelCount() * item));
}

/// True when `volume` holds its voxels in host memory (not a residentVolume).
inline bool hasHostVoxels(const Volume& volume) { return volume.data() != nullptr; }

/// seedInterval (SeedInterval.h) of the context's resident volume: the first seed's value and the
/// sampled grid read off the device, not the volume; the same interval as from the host.
RegionGrowingParams residentSeedInterval(const GpuContext& context, const std::vector<VoxelIndex>& seeds);

/// Bytes copied between host and device since the process started: volumes uploaded (DeviceVolume
/// from a host Volume) and labels an engine wrote into host memory. A resident run adds to neither.
struct HostTransfers {
    std::uint64_t volumeUploadBytes = 0;
    std::uint64_t labelDownloadBytes = 0;
};
HostTransfers hostTransfers();

}  // namespace lucent::gpu
