/// @brief What the CUDA engines share: the GPU context they run on (given, or made from the
/// request's volume), CUDA-event timing of their device work, and the step read-back.
#pragma once

#include "lucent/core/seg/Segmenter.h"
#include "lucent/gpu/GpuContext.h"

#include <memory>

namespace lucent::gpu {

/// Accumulates the device time of work enqueued on a stream between begin() and end().
class DeviceTimer {
public:
    DeviceTimer();
    ~DeviceTimer();
    DeviceTimer(const DeviceTimer&) = delete;
    DeviceTimer& operator=(const DeviceTimer&) = delete;
    void begin(void* stream);
    /// Waits for the stream and adds the elapsed device time.
    void end(void* stream);
    double totalMs() const { return m_total; }
    void reset() { m_total = 0; }

private:
    void* m_start = nullptr;
    void* m_stop = nullptr;
    double m_total = 0;
};

/// The context an engine runs on: `given` when it holds the request's volume, else a new one.
std::shared_ptr<GpuContext> contextFor(const std::shared_ptr<GpuContext>& given, const SegmentationRequest& request);

/// `box` with its x range widened down to a multiple of 4 (label kernels write 4 voxels a thread).
inline VoxelBox alignedBox(VoxelBox box) {
    box.lo[0] &= ~3;
    return box;
}
/// Blocks of 128 threads for a label kernel over `box`: x by quads, one block row per y and z.
struct LabelGrid {
    unsigned x, y, z;
};
inline LabelGrid labelGridOf(const VoxelBox& box) {
    const VoxelBox b = alignedBox(box);
    const unsigned quads = unsigned((b.hi[0] - b.lo[0] + 1 + 3) / 4);
    return {(quads + 127) / 128, unsigned(b.hi[1] - b.lo[1] + 1), unsigned(b.hi[2] - b.lo[2] + 1)};
}

#ifdef __CUDACC__
inline dim3 labelGrid(const VoxelBox& box) {
    const LabelGrid g = labelGridOf(box);
    return dim3(g.x, g.y, g.z);
}
#endif

/// The CUDA engines launch a block row per row and slice: more than 65535 of either is refused
/// (GpuError, so backend auto runs the CPU engine).
void checkGridLimits(const Geometry& geometry);

/// Writes `box` of a device label buffer into a host sink (through the context's scratch).
void copyLabelsToHost(GpuContext& context, const std::uint8_t* deviceLabels, const LabelSink& sink, const VoxelBox& box);

}  // namespace lucent::gpu
