/// @brief One GPU context per volume (the role FAISS's GpuResources plays): the stream, the
/// resident volume (uploaded once), scratch memory, and the label buffer that engines write and
/// the renderer reads through CUDA-OpenGL interop. Every CUDA engine takes it, so none re-uploads.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/Progress.h"
#include "lucent/core/Volume.h"
#include "lucent/core/seg/LabelSink.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <cstddef>
#include <memory>
#include <utility>

namespace lucent::gpu {

class DeviceVolume;

class GpuContext {
public:
    /// Creates a stream and uploads `volume` (asynchronously through pinned memory, progress in
    /// bytes). `volume` must outlive the context: engines check that a request names it. Throws
    /// GpuError (no device, out of memory) or Cancelled.
    explicit GpuContext(const Volume& volume, const ProgressCallback& progress = {});
    ~GpuContext();
    GpuContext(const GpuContext&) = delete;
    GpuContext& operator=(const GpuContext&) = delete;

    /// The host volume this context holds a copy of.
    const Volume& volume() const;
    const DeviceVolume& deviceVolume() const;
    /// The stream every engine of this context runs on (a cudaStream_t).
    void* stream() const;
    /// Smallest and largest voxel (reduced on the device once, then remembered).
    std::pair<double, double> range() const;
    /// Milliseconds the upload took, host to device, end to end.
    double uploadMs() const;

    /// The device label buffer (a uint8 per voxel, zeroed when first made), as a sink for engines.
    LabelSink labelSink();
    /// Voxels with a non-zero label in the label buffer, counted on the device (no download).
    std::size_t countLabels();
    /// Copies `box` (all when null) of the label buffer into `out` (made on the volume's grid when
    /// it is not already).
    void downloadLabels(LabelMap& out, const VoxelBox* box = nullptr);
    /// Copies `bytes` of device memory (a soft map an engine keeps there) into `host`, in stream order.
    void download(void* host, const void* device, std::size_t bytes) const;
    /// Replaces the label buffer with `labels` (a mask loaded from a file, an undo).
    void uploadLabels(const LabelMap& labels);

    /// Scratch memory shared by this context's engines, slot by slot (grow-only; contents are not
    /// kept across a grow). A slot belongs to one engine at a time.
    void* scratch(int slot, std::size_t bytes);
    /// Waits for the stream; GpuError if a kernel on it failed.
    void synchronize() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace lucent::gpu
