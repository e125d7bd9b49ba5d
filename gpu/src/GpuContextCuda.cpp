/// @brief The per-volume GPU context: stream, resident volume, label buffer, scratch slots.
#include "lucent/gpu/GpuContext.h"

#include "lucent/core/HostVolumeWork.h"
#include "lucent/core/StageTimes.h"
#include "CudaCheck.h"
#include "CudaEngineBase.h"
#include "DeviceBuffer.h"
#include "LabelCount.h"
#include "LabelReductionCuda.h"
#include "LabelScatter.h"
#include "Staging.h"
#include "lucent/gpu/DeviceVolume.h"

#include <cuda_runtime.h>

#include <chrono>
#include <map>
#include <optional>

namespace lucent::gpu {

struct GpuContext::Impl {
    const Volume* volume = nullptr;
    cudaStream_t stream = nullptr;
    std::unique_ptr<DeviceVolume> device;
    DeviceBuffer labels;
    DeviceBuffer counter;
    DeviceBuffer cells;  // the 3D pane's coarse label copy
    DeviceBuffer voxels;  // setLabelsAt's packed voxels
    std::map<int, DeviceBuffer> scratch;
    int nextSlot = kEngineScratchSlot + 1;
    double uploadMs = 0;
    mutable std::optional<std::pair<double, double>> range;
    ~Impl() {
        // Buffers are freed after the stream's work is done.
        if (stream) {
            cudaStreamSynchronize(stream);
            cudaStreamDestroy(stream);
        }
    }
};

GpuContext::GpuContext(const Volume& volume, const ProgressCallback& progress) : m_impl(std::make_unique<Impl>()) {
    m_impl->volume = &volume;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        cudaGetLastError();
        throw GpuError("no CUDA device or driver found");
    }
    cudaCheck(cudaStreamCreateWithFlags(&m_impl->stream, cudaStreamNonBlocking), "GPU stream");
    const auto t0 = std::chrono::steady_clock::now();
    {
        const stages::Scope stage("gpu upload");
        m_impl->device = std::make_unique<DeviceVolume>(volume, m_impl->stream, progress);
    }
    m_impl->uploadMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

GpuContext::GpuContext(const Volume& volume, DeviceVolume&& resident) : m_impl(std::make_unique<Impl>()) {
    cudaCheck(cudaStreamCreateWithFlags(&m_impl->stream, cudaStreamNonBlocking), "GPU stream");
    rebind(volume, std::move(resident));
}

void GpuContext::rebind(const Volume& volume, DeviceVolume&& resident) {
    if (resident.geometry().dims != volume.geometry().dims || resident.pixelType() != volume.pixelType())
        throw GpuError("GPU context: the resident voxels are not the named volume's grid and type");
    // The previous volume's work is over before its voxels are let go.
    cudaCheck(cudaStreamSynchronize(m_impl->stream), "GPU work");
    const std::size_t n = volume.voxelCount();
    if (m_impl->labels.get() && m_impl->labels.bytes() != n) m_impl->labels = DeviceBuffer();
    if (m_impl->labels.get()) cudaCheck(cudaMemsetAsync(m_impl->labels.get(), 0, n, m_impl->stream), "label buffer");
    m_impl->volume = &volume;
    if (m_impl->device)
        *m_impl->device = std::move(resident);
    else
        m_impl->device = std::make_unique<DeviceVolume>(std::move(resident));
    m_impl->range.reset();
    m_impl->uploadMs = 0;
    cudaCheck(cudaStreamSynchronize(cudaStreamLegacy), "the caller's GPU work");
}

GpuContext::~GpuContext() = default;

const Volume& GpuContext::volume() const { return *m_impl->volume; }
const DeviceVolume& GpuContext::deviceVolume() const { return *m_impl->device; }
void* GpuContext::stream() const { return m_impl->stream; }
std::pair<double, double> GpuContext::range() const {
    if (!m_impl->range) m_impl->range = m_impl->device->range();
    return *m_impl->range;
}

double GpuContext::uploadMs() const { return m_impl->uploadMs; }

LabelSink GpuContext::labelSink() {
    const std::size_t n = m_impl->volume->voxelCount();
    if (!m_impl->labels.get()) {
        m_impl->labels = DeviceBuffer(n, "the label buffer");
        cudaCheck(cudaMemsetAsync(m_impl->labels.get(), 0, n, m_impl->stream), "label buffer");
    }
    return LabelSink::device(m_impl->labels.as<std::uint8_t>(), n);
}

std::size_t GpuContext::countLabels() {
    const LabelSink sink = labelSink();
    if (!m_impl->counter.get()) m_impl->counter = DeviceBuffer(sizeof(unsigned long long), "the label counter");
    return std::size_t(countNonZeroOnDevice(sink.data, sink.voxels, m_impl->stream, m_impl->counter.get()));
}

void GpuContext::downloadLabels(LabelMap& out, const VoxelBox* box) {
    const Geometry& g = m_impl->volume->geometry();
    const LabelSink sink = labelSink();
    if (out.voxelCount() != g.voxelCount() || !out.geometry().sameGrid(g)) out = LabelMap(g);
    const VoxelBox b = box ? *box : wholeBox(g);
    hostwork::note(b.voxelCount());
    copyLabelsToHost(*this, sink.data, LabelSink::host(out), b);
}

void GpuContext::downloadReducedLabels(const LabelReduction& plan, LabelMap& out) {
    const Geometry& g = m_impl->volume->geometry();
    if (plan.fine != g.dims) throw GpuError("label reduction: the plan was made for another grid");
    const LabelSink sink = labelSink();
    const Geometry cells = reducedGeometry(g, plan);
    if (out.voxelCount() != cells.voxelCount() || !out.geometry().sameGrid(cells)) out = LabelMap(cells);
    m_impl->cells.reserve(plan.cellCount(), "the 3D label copy");
    reduceLabelsOnDevice(sink.data, plan, m_impl->cells.as<std::uint8_t>(), m_impl->stream);
    cudaCheck(cudaMemcpyAsync(out.data(), m_impl->cells.get(), plan.cellCount(), cudaMemcpyDeviceToHost, m_impl->stream),
              "3D label copy");
    cudaCheck(cudaStreamSynchronize(m_impl->stream), "3D label copy");
}

void GpuContext::download(void* host, const void* device, std::size_t bytes) const {
    cudaCheck(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, m_impl->stream), "download");
    cudaCheck(cudaStreamSynchronize(m_impl->stream), "download");
}

void GpuContext::uploadLabels(const LabelMap& labels) {
    const LabelSink sink = labelSink();
    if (labels.voxelCount() != sink.voxels) throw GpuError("label upload: the labels are not on the volume's grid");
    cudaCheck(cudaMemcpyAsync(sink.data, labels.data(), sink.voxels, cudaMemcpyHostToDevice, m_impl->stream),
              "label upload");
    cudaCheck(cudaStreamSynchronize(m_impl->stream), "label upload");
}

void GpuContext::uploadLabels(const std::uint8_t* labels, const VoxelBox& box) {
    const Geometry& g = m_impl->volume->geometry();
    if (box.empty() || !g.contains(box.lo[0], box.lo[1], box.lo[2]) || !g.contains(box.hi[0], box.hi[1], box.hi[2]))
        throw GpuError("label upload: the box is not inside the volume");
    const LabelSink sink = labelSink();
    const std::size_t nx = std::size_t(box.hi[0] - box.lo[0] + 1), ny = std::size_t(box.hi[1] - box.lo[1] + 1);
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(const_cast<std::uint8_t*>(labels), nx, nx, ny);
    p.dstPtr = make_cudaPitchedPtr(sink.data, std::size_t(g.dims[0]), std::size_t(g.dims[0]), std::size_t(g.dims[1]));
    p.dstPos = make_cudaPos(std::size_t(box.lo[0]), std::size_t(box.lo[1]), std::size_t(box.lo[2]));
    p.extent = make_cudaExtent(nx, ny, std::size_t(box.hi[2] - box.lo[2] + 1));
    p.kind = cudaMemcpyHostToDevice;
    cudaCheck(cudaMemcpy3DAsync(&p, m_impl->stream), "label upload");
    cudaCheck(cudaStreamSynchronize(m_impl->stream), "label upload");
}

void GpuContext::setLabelsAt(const std::uint64_t* voxels, std::size_t count) {
    if (count == 0) return;
    const LabelSink sink = labelSink();
    for (std::size_t i = 0; i < count; ++i)  // an index past the buffer would write outside it
        if ((voxels[i] & ~kLabelBit) >= sink.voxels) throw GpuError("label scatter: a voxel is outside the volume");
    m_impl->voxels.reserve(count * sizeof(std::uint64_t), "the labels' scattered voxels");
    // Through the pinned staging buffers, filled on several threads: a pageable copy runs on one.
    uploadStaged(m_impl->voxels.get(), voxels, count * sizeof(std::uint64_t), m_impl->stream);
    setLabelsAtOnDevice(sink.data, m_impl->voxels.as<std::uint64_t>(), count, m_impl->stream);
    cudaCheck(cudaStreamSynchronize(m_impl->stream), "label scatter");
}

void* GpuContext::scratch(int slot, std::size_t bytes) {
    DeviceBuffer& buffer = m_impl->scratch[slot];
    buffer.reserve(bytes, "scratch memory");
    return buffer.get();
}

int GpuContext::reserveScratch() { return m_impl->nextSlot++; }

void GpuContext::synchronize() const { cudaCheck(cudaStreamSynchronize(m_impl->stream), "GPU work"); }

}  // namespace lucent::gpu
