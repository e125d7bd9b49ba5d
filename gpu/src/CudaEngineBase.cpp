/// @brief Device timing, context choice and label read-back for the CUDA engines.
#include "CudaEngineBase.h"

#include "CudaCheck.h"
#include "TransferCount.h"

#include <cuda_runtime.h>

namespace lucent::gpu {

DeviceTimer::DeviceTimer() = default;

DeviceTimer::~DeviceTimer() {
    if (m_start) cudaEventDestroy(static_cast<cudaEvent_t>(m_start));
    if (m_stop) cudaEventDestroy(static_cast<cudaEvent_t>(m_stop));
}

void DeviceTimer::begin(void* stream) {
    if (!m_start) {  // made on first use: engines are constructed before anything touches the device
        cudaEvent_t a = nullptr, b = nullptr;
        cudaCheck(cudaEventCreate(&a), "GPU timer");
        m_start = a;
        cudaCheck(cudaEventCreate(&b), "GPU timer");
        m_stop = b;
    }
    cudaCheck(cudaEventRecord(static_cast<cudaEvent_t>(m_start), static_cast<cudaStream_t>(stream)), "GPU timer");
}

void DeviceTimer::end(void* stream) {
    cudaCheck(cudaEventRecord(static_cast<cudaEvent_t>(m_stop), static_cast<cudaStream_t>(stream)), "GPU timer");
    cudaCheck(cudaEventSynchronize(static_cast<cudaEvent_t>(m_stop)), "GPU work");
    float ms = 0;
    cudaCheck(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(m_start), static_cast<cudaEvent_t>(m_stop)), "GPU timer");
    m_total += ms;
}

void checkGridLimits(const Geometry& g) {
    if (g.dims[1] > 65535 || g.dims[2] > 65535)
        throw GpuError("the CUDA engines take at most 65535 rows and slices; this volume has " + std::to_string(g.dims[1]) +
                       " x " + std::to_string(g.dims[2]));
}

std::shared_ptr<GpuContext> contextFor(const std::shared_ptr<GpuContext>& given, const SegmentationRequest& request) {
    if (given && &given->volume() == request.volume) return given;
    return std::make_shared<GpuContext>(*request.volume);
}

void copyLabelsToHost(GpuContext& context, const std::uint8_t* deviceLabels, const LabelSink& sink, const VoxelBox& box) {
    const Geometry& g = context.volume().geometry();
    if (box.empty()) return;
    cudaMemcpy3DParms p{};
    const std::size_t pitch = std::size_t(g.dims[0]);
    p.srcPtr = make_cudaPitchedPtr(const_cast<std::uint8_t*>(deviceLabels), pitch, pitch, std::size_t(g.dims[1]));
    p.dstPtr = make_cudaPitchedPtr(sink.data, pitch, pitch, std::size_t(g.dims[1]));
    p.srcPos = p.dstPos = make_cudaPos(std::size_t(box.lo[0]), std::size_t(box.lo[1]), std::size_t(box.lo[2]));
    p.extent = make_cudaExtent(std::size_t(box.hi[0] - box.lo[0] + 1), std::size_t(box.hi[1] - box.lo[1] + 1),
                               std::size_t(box.hi[2] - box.lo[2] + 1));
    p.kind = cudaMemcpyDeviceToHost;
    auto stream = static_cast<cudaStream_t>(context.stream());
    cudaCheck(cudaMemcpy3DAsync(&p, stream), "label download");
    cudaCheck(cudaStreamSynchronize(stream), "label download");
    noteLabelDownload(box.voxelCount());
}

}  // namespace lucent::gpu
