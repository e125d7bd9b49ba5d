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

/// Writes `box` of a device label buffer into a host sink (through the context's scratch).
void copyLabelsToHost(GpuContext& context, const std::uint8_t* deviceLabels, const LabelSink& sink, const VoxelBox& box);

}  // namespace lucent::gpu
