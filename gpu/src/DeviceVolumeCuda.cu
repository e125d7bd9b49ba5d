/// @brief Device-resident volume: chunked pinned upload with progress, copies, CUB min/max.
#include "CudaCheck.h"
#include "lucent/core/ParallelFor.h"
#include "DeviceBuffer.h"
#include "Staging.h"
#include "TransferCount.h"
#include "lucent/gpu/DeviceVolume.h"

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace lucent::gpu {

struct DeviceVolume::Impl {
    Geometry geometry;
    PixelType type = PixelType::Int16;
    DeviceBuffer data;         // an uploaded volume's own copy
    void* borrowed = nullptr;  // else the caller's device memory
    void* voxels() const { return borrowed ? borrowed : data.get(); }
    std::size_t itemBytes() const { return type == PixelType::Int16 ? sizeof(std::int16_t) : sizeof(float); }
    std::size_t bytes() const { return geometry.voxelCount() * itemBytes(); }
};

namespace {

/// Bytes of each staging buffer: 32 MiB, or LUCENT_STAGING_MIB (1 to 256) to measure another size.
/// Pinning costs in proportion to the bytes pinned and a command pays it before its first upload
/// (the CUDA warm-up, on the path of `lucent segment`), but smaller chunks move fewer bytes a second
/// each way (each chunk's copy starts its threads anew, the likely cause). 8 MiB took a fixed cost
/// off the warm-up and added one per byte to every transfer: a loss from about a gigabyte up and in
/// the viewer, which pins once (BENCHMARKS.md, the speed4244 run).
std::size_t stagingChunk() {
    static const std::size_t bytes = [] {
        const char* text = std::getenv("LUCENT_STAGING_MIB");
        const long mib = text && *text ? std::strtol(text, nullptr, 10) : 0;
        return std::size_t(mib >= 1 && mib <= 256 ? mib : 32) << 20;
    }();
    return bytes;
}

/// Two pinned staging buffers: the CPU fills one while the copy engine drains the other, so the
/// upload runs at PCIe speed without pinning the caller's (pageable, possibly huge) volume. They
/// live as long as the process (pinning is slow: not on every load) and
/// one upload at a time uses them.
struct Staging {
    const std::size_t chunk = stagingChunk();
    std::mutex mutex;
    void* buffer[2] = {nullptr, nullptr};
    cudaEvent_t drained[2] = {nullptr, nullptr};

    /// Allocates on first use; the caller holds the mutex.
    void prepare() {
        for (int b = 0; b < 2; ++b) {
            if (!buffer[b]) cudaCheck(cudaHostAlloc(&buffer[b], chunk, cudaHostAllocDefault), "pinned staging buffer for the GPU volume");
            if (!drained[b]) cudaCheck(cudaEventCreateWithFlags(&drained[b], cudaEventDisableTiming), "GPU volume upload");
        }
    }
};

Staging& staging() {
    static Staging* s = new Staging;  // never destroyed: the driver may be gone at static destruction
    return *s;
}

/// memcpy of one chunk on several threads: one thread alone copies more slowly than PCIe moves.
void copyChunk(void* dst, const void* src, std::size_t n) {
    constexpr std::size_t kParts = 8;
    if (n < (std::size_t(4) << 20)) {
        std::memcpy(dst, src, n);
        return;
    }
    const std::size_t part = (n + kParts - 1) / kParts;
    parallelFor(kParts, kParts, [&](std::size_t p) {
        const std::size_t at = p * part;
        if (at < n) std::memcpy(static_cast<char*>(dst) + at, static_cast<const char*>(src) + at, std::min(part, n - at));
    });
}

/// out[c][b][a] = in[c * step][b * step][a * step] over the sampled grid `s` of the volume `d`.
template <typename T>
__global__ void gatherGrid(const T* in, int3 d, int3 s, int step, T* out) {
    const long long n = (long long)s.x * s.y * s.z;
    for (long long o = blockIdx.x * (long long)blockDim.x + threadIdx.x; o < n; o += (long long)gridDim.x * blockDim.x) {
        const long long a = o % s.x, b = (o / s.x) % s.y, c = o / ((long long)s.x * s.y);
        out[o] = in[(c * step * d.y + b * step) * (long long)d.x + a * step];
    }
}

}  // namespace

DeviceVolume::DeviceVolume(const Volume& volume, void* stream, const ProgressCallback& progress)
    : m_impl(std::make_unique<Impl>()) {
    m_impl->geometry = volume.geometry();
    m_impl->type = volume.pixelType();
    m_impl->data = DeviceBuffer(volume.byteSize(), "the volume");
    uploadStaged(m_impl->data.get(), volume.data(), volume.byteSize(), stream, progress);
    noteVolumeUpload(volume.byteSize());
}

DeviceVolume::DeviceVolume(const Geometry& geometry, PixelType type, void* devicePointer)
    : m_impl(std::make_unique<Impl>()) {
    if (!devicePointer && geometry.voxelCount()) throw GpuError("GPU volume: no device memory given");
    m_impl->geometry = geometry;
    m_impl->type = type;
    m_impl->borrowed = devicePointer;
}

DeviceVolume::~DeviceVolume() = default;
DeviceVolume::DeviceVolume(DeviceVolume&&) noexcept = default;
DeviceVolume& DeviceVolume::operator=(DeviceVolume&&) noexcept = default;

const Geometry& DeviceVolume::geometry() const { return m_impl->geometry; }
PixelType DeviceVolume::pixelType() const { return m_impl->type; }
void* DeviceVolume::devicePointer() const { return m_impl->voxels(); }

Volume DeviceVolume::download() const {
    Volume v(m_impl->geometry, m_impl->type);
    cudaCheck(cudaMemcpy(const_cast<void*>(v.data()), m_impl->voxels(), m_impl->bytes(), cudaMemcpyDeviceToHost),
              "GPU volume download");
    return v;
}

double DeviceVolume::value(std::size_t index) const {
    if (index >= m_impl->geometry.voxelCount()) throw std::out_of_range("GPU volume: voxel index outside the volume");
    const std::size_t item = m_impl->itemBytes();
    union {
        std::int16_t i16;
        float f32;
    } v{};
    cudaCheck(cudaMemcpy(&v, static_cast<const char*>(m_impl->voxels()) + index * item, item, cudaMemcpyDeviceToHost),
              "GPU voxel read");
    return m_impl->type == PixelType::Int16 ? double(v.i16) : double(v.f32);
}

Volume DeviceVolume::window(const VoxelBox& box) const {
    const auto& d = m_impl->geometry.dims;
    Geometry g;
    for (int a = 0; a < 3; ++a) g.dims[a] = box.hi[a] - box.lo[a] + 1;
    Volume out(g, m_impl->type);
    const std::size_t item = m_impl->itemBytes();
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(m_impl->voxels(), std::size_t(d[0]) * item, std::size_t(d[0]), std::size_t(d[1]));
    p.srcPos = make_cudaPos(std::size_t(box.lo[0]) * item, std::size_t(box.lo[1]), std::size_t(box.lo[2]));
    p.dstPtr = make_cudaPitchedPtr(const_cast<void*>(out.data()), std::size_t(g.dims[0]) * item, std::size_t(g.dims[0]),
                                   std::size_t(g.dims[1]));
    p.extent = make_cudaExtent(std::size_t(g.dims[0]) * item, std::size_t(g.dims[1]), std::size_t(g.dims[2]));
    p.kind = cudaMemcpyDeviceToHost;
    cudaCheck(cudaMemcpy3D(&p), "GPU volume window");
    return out;
}

Volume DeviceVolume::sampleGrid(int step) const {
    const auto& d = m_impl->geometry.dims;
    Geometry g;
    for (int a = 0; a < 3; ++a) g.dims[a] = (d[a] + step - 1) / step;
    Volume out(g, m_impl->type);
    DeviceBuffer samples(out.byteSize(), "the volume's sample grid");
    const int3 dd = make_int3(d[0], d[1], d[2]), ss = make_int3(g.dims[0], g.dims[1], g.dims[2]);
    const unsigned blocks = unsigned(std::min<std::size_t>((g.voxelCount() + 255) / 256, 65535));
    if (m_impl->type == PixelType::Int16)
        gatherGrid<<<blocks, 256>>>(static_cast<const std::int16_t*>(m_impl->voxels()), dd, ss, step, samples.as<std::int16_t>());
    else
        gatherGrid<<<blocks, 256>>>(static_cast<const float*>(m_impl->voxels()), dd, ss, step, samples.as<float>());
    cudaCheck(cudaGetLastError(), "GPU volume sample grid");
    cudaCheck(cudaMemcpy(const_cast<void*>(out.data()), samples.get(), out.byteSize(), cudaMemcpyDeviceToHost),
              "GPU volume sample grid");
    return out;
}

namespace {
template <typename T>
std::pair<double, double> minMax(const T* data, std::size_t n) {
    // CUB takes the item count as an int here: the volume goes in chunks below 2^31 items, so 2^32
    // voxels and more reduce whole (a cast of the count wrapped to 0 items, and fc / fcm sized their
    // tables from the empty range).
    constexpr std::size_t kChunk = std::size_t(1) << 30;
    DeviceBuffer out(2 * sizeof(T), "the volume's range");
    const int largest = static_cast<int>(std::min(n, kChunk));
    std::size_t tempBytes = 0, tempMax = 0;
    cub::DeviceReduce::Min(nullptr, tempBytes, data, out.as<T>(), largest);
    tempMax = tempBytes;
    cub::DeviceReduce::Max(nullptr, tempBytes, data, out.as<T>() + 1, largest);
    tempMax = std::max(tempMax, tempBytes);
    DeviceBuffer temp(tempMax, "the volume's range");
    double lo = 0, hi = 0;
    for (std::size_t at = 0; at < n; at += kChunk) {
        const int count = static_cast<int>(std::min(kChunk, n - at));
        std::size_t bytes = tempMax;
        cub::DeviceReduce::Min(temp.get(), bytes, data + at, out.as<T>(), count);
        bytes = tempMax;
        cub::DeviceReduce::Max(temp.get(), bytes, data + at, out.as<T>() + 1, count);
        T host[2];
        cudaCheck(cudaMemcpy(host, out.get(), sizeof host, cudaMemcpyDeviceToHost), "GPU range");
        lo = at == 0 ? double(host[0]) : std::min(lo, double(host[0]));
        hi = at == 0 ? double(host[1]) : std::max(hi, double(host[1]));
    }
    return {lo, hi};
}
}  // namespace

std::pair<double, double> DeviceVolume::range() const {
    const std::size_t n = m_impl->geometry.voxelCount();
    if (n == 0) return {0.0, 0.0};
    if (m_impl->type == PixelType::Int16) return minMax(static_cast<const std::int16_t*>(m_impl->voxels()), n);
    return minMax(static_cast<const float*>(m_impl->voxels()), n);
}

void uploadStaged(void* device, const void* host, std::size_t bytes, void* streamHandle, const ProgressCallback& progress) {
    auto stream = static_cast<cudaStream_t>(streamHandle);
    Staging& st = staging();
    std::lock_guard lock(st.mutex);
    st.prepare();
    int b = 0;
    for (std::size_t done = 0; done < bytes; done += st.chunk, b ^= 1) {
        const std::size_t n = std::min(st.chunk, bytes - done);
        cudaCheck(cudaEventSynchronize(st.drained[b]), "GPU volume upload");
        copyChunk(st.buffer[b], static_cast<const char*>(host) + done, n);
        cudaCheck(cudaMemcpyAsync(static_cast<char*>(device) + done, st.buffer[b], n, cudaMemcpyHostToDevice, stream),
                  "GPU volume upload");
        cudaCheck(cudaEventRecord(st.drained[b], stream), "GPU volume upload");
        if (progress && !progress(done + n, bytes)) {
            cudaStreamSynchronize(stream);
            throw Cancelled();
        }
    }
    // The buffers are reused by the next upload: it must not find them still being read.
    cudaCheck(cudaStreamSynchronize(stream), "GPU volume upload");
}

void downloadStaged(void* host, const void* device, std::size_t bytes, void* streamHandle) {
    if (bytes == 0) return;
    auto stream = static_cast<cudaStream_t>(streamHandle);
    Staging& st = staging();
    std::lock_guard lock(st.mutex);
    st.prepare();
    const std::size_t chunks = (bytes + st.chunk - 1) / st.chunk;
    auto issue = [&](std::size_t c) {
        const std::size_t at = c * st.chunk, n = std::min(st.chunk, bytes - at);
        cudaCheck(cudaMemcpyAsync(st.buffer[c & 1], static_cast<const char*>(device) + at, n, cudaMemcpyDeviceToHost, stream),
                  "label download");
        cudaCheck(cudaEventRecord(st.drained[c & 1], stream), "label download");
    };
    issue(0);
    for (std::size_t c = 0; c < chunks; ++c) {
        // The next chunk lands in the other buffer, emptied by the previous pass of this loop.
        if (c + 1 < chunks) issue(c + 1);
        cudaCheck(cudaEventSynchronize(st.drained[c & 1]), "label download");
        const std::size_t at = c * st.chunk;
        copyChunk(static_cast<char*>(host) + at, st.buffer[c & 1], std::min(st.chunk, bytes - at));
    }
}

void releaseStaging() {
    Staging& st = staging();
    std::lock_guard lock(st.mutex);
    for (int b = 0; b < 2; ++b) {
        if (st.buffer[b]) cudaFreeHost(st.buffer[b]);
        if (st.drained[b]) cudaEventDestroy(st.drained[b]);
        st.buffer[b] = nullptr;
        st.drained[b] = nullptr;
    }
}

void warmUpStaging() {
    Staging& st = staging();
    std::lock_guard lock(st.mutex);
    st.prepare();
}

}  // namespace lucent::gpu
