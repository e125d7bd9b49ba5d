/// @brief Device-resident volume: chunked pinned upload with progress, copies, CUB min/max.
#include "CudaCheck.h"
#include "lucent/core/ParallelFor.h"
#include "DeviceBuffer.h"
#include "Staging.h"
#include "lucent/gpu/DeviceVolume.h"

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace lucent::gpu {

struct DeviceVolume::Impl {
    Geometry geometry;
    PixelType type = PixelType::Int16;
    DeviceBuffer data;
};

namespace {

/// Two pinned staging buffers: the CPU fills one while the copy engine drains the other, so the
/// upload runs at PCIe speed without pinning the caller's (pageable, possibly huge) volume. They
/// live as long as the process (pinning is slow: not on every load) and
/// one upload at a time uses them.
struct Staging {
    static constexpr std::size_t kChunk = std::size_t(32) << 20;
    std::mutex mutex;
    void* buffer[2] = {nullptr, nullptr};
    cudaEvent_t drained[2] = {nullptr, nullptr};

    /// Allocates on first use; the caller holds the mutex.
    void prepare() {
        for (int b = 0; b < 2; ++b) {
            if (!buffer[b]) cudaCheck(cudaHostAlloc(&buffer[b], kChunk, cudaHostAllocDefault), "pinned staging buffer for the GPU volume");
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

void uploadStaged(void* device, const void* host, std::size_t bytes, cudaStream_t stream, const ProgressCallback& progress) {
    Staging& st = staging();
    std::lock_guard lock(st.mutex);
    st.prepare();
    int b = 0;
    for (std::size_t done = 0; done < bytes; done += Staging::kChunk, b ^= 1) {
        const std::size_t n = std::min(Staging::kChunk, bytes - done);
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

}  // namespace

DeviceVolume::DeviceVolume(const Volume& volume, void* stream, const ProgressCallback& progress)
    : m_impl(std::make_unique<Impl>()) {
    m_impl->geometry = volume.geometry();
    m_impl->type = volume.pixelType();
    m_impl->data = DeviceBuffer(volume.byteSize(), "the volume");
    uploadStaged(m_impl->data.get(), volume.data(), volume.byteSize(), static_cast<cudaStream_t>(stream), progress);
}

DeviceVolume::~DeviceVolume() = default;
DeviceVolume::DeviceVolume(DeviceVolume&&) noexcept = default;
DeviceVolume& DeviceVolume::operator=(DeviceVolume&&) noexcept = default;

const Geometry& DeviceVolume::geometry() const { return m_impl->geometry; }
PixelType DeviceVolume::pixelType() const { return m_impl->type; }
void* DeviceVolume::devicePointer() const { return m_impl->data.get(); }

Volume DeviceVolume::download() const {
    Volume v(m_impl->geometry, m_impl->type);
    void* dst = m_impl->type == PixelType::Int16 ? static_cast<void*>(v.int16Data()) : static_cast<void*>(v.float32Data());
    cudaCheck(cudaMemcpy(dst, m_impl->data.get(), m_impl->data.bytes(), cudaMemcpyDeviceToHost), "GPU volume download");
    return v;
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
    if (m_impl->type == PixelType::Int16) return minMax(static_cast<const std::int16_t*>(m_impl->data.get()), n);
    return minMax(static_cast<const float*>(m_impl->data.get()), n);
}

void downloadStaged(void* host, const void* device, std::size_t bytes, void* streamHandle) {
    if (bytes == 0) return;
    auto stream = static_cast<cudaStream_t>(streamHandle);
    Staging& st = staging();
    std::lock_guard lock(st.mutex);
    st.prepare();
    const std::size_t chunks = (bytes + Staging::kChunk - 1) / Staging::kChunk;
    auto issue = [&](std::size_t c) {
        const std::size_t at = c * Staging::kChunk, n = std::min(Staging::kChunk, bytes - at);
        cudaCheck(cudaMemcpyAsync(st.buffer[c & 1], static_cast<const char*>(device) + at, n, cudaMemcpyDeviceToHost, stream),
                  "label download");
        cudaCheck(cudaEventRecord(st.drained[c & 1], stream), "label download");
    };
    issue(0);
    for (std::size_t c = 0; c < chunks; ++c) {
        // The next chunk lands in the other buffer, emptied by the previous pass of this loop.
        if (c + 1 < chunks) issue(c + 1);
        cudaCheck(cudaEventSynchronize(st.drained[c & 1]), "label download");
        const std::size_t at = c * Staging::kChunk;
        copyChunk(static_cast<char*>(host) + at, st.buffer[c & 1], std::min(Staging::kChunk, bytes - at));
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
