/// @brief One GPU context per volume (the role FAISS's GpuResources plays): the stream, the
/// resident volume (uploaded once), scratch memory, and the label buffer that engines write and
/// the renderer reads through CUDA-OpenGL interop. Every CUDA engine takes it, so none re-uploads.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelReduction.h"
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
    /// A context over voxels already on the device (`resident`, a caller's memory): nothing is
    /// uploaded. `volume` names the same grid and type (a residentVolume, Resident.h, with no host
    /// voxels). Waits first for the legacy default stream, where a DLPack producer orders its writes
    /// when asked for stream 1: this context's stream does not wait for it by itself.
    GpuContext(const Volume& volume, DeviceVolume&& resident);
    ~GpuContext();
    /// The same context over another resident volume (the next run of a caller that keeps its
    /// contexts: the Python module's device calls): the stream, scratch slots and counter stay;
    /// the label buffer is zeroed again, or dropped when the voxel count differs; waits for the
    /// stream's earlier work and, as the constructor, for the legacy default stream.
    void rebind(const Volume& volume, DeviceVolume&& resident);
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
    /// A coarse copy of the label buffer, reduced on the device by `plan` (LabelReduction.h), into
    /// `out` (made on reducedGeometry when it is not already): the 3D pane's live labels download
    /// cells, never the volume.
    void downloadReducedLabels(const LabelReduction& plan, LabelMap& out);
    /// Copies `bytes` of device memory (a soft map an engine keeps there) into `host`, in stream order.
    void download(void* host, const void* device, std::size_t bytes) const;
    /// Replaces the label buffer with `labels` (a mask loaded from a file, an undo).
    void uploadLabels(const LabelMap& labels);
    /// Replaces `box` of the label buffer with `labels`, box-sized, x fastest (a scrubbed 3D snake state).
    void uploadLabels(const std::uint8_t* labels, const VoxelBox& box);
    /// Sets single voxels of the label buffer: each of `voxels` holds a voxel's index in its low 63 bits
    /// and its label (0 or 1) in the top bit (kLabelBit); a voxel named twice must get the same label. A
    /// scrubbed 3D snake state changes the voxels its steps flipped: far fewer than their box.
    void setLabelsAt(const std::uint64_t* voxels, std::size_t count);
    static constexpr std::uint64_t kLabelBit = std::uint64_t(1) << 63;

    /// Scratch memory, slot by slot (grow-only; contents are not kept across a grow). The engines
    /// share kEngineScratchSlot (one run at a time on a context); any other user takes a slot of
    /// its own from reserveScratch().
    void* scratch(int slot, std::size_t bytes);
    static constexpr int kEngineScratchSlot = 0;
    /// A scratch slot no one else is given (the viewer's soft-map copy, for one).
    int reserveScratch();
    /// Waits for the stream; GpuError if a kernel on it failed.
    void synchronize() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace lucent::gpu
