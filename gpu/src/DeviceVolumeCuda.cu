/// @brief Device-resident volume: allocation with a clear out-of-memory message, copies, CUB min/max.
#include "CudaCheck.h"
#include "lucent/gpu/DeviceVolume.h"

#include <cub/device/device_reduce.cuh>

#include <cstdio>

namespace lucent::gpu {

struct DeviceVolume::Impl {
    Geometry geometry;
    PixelType type = PixelType::Int16;
    std::size_t bytes = 0;
    void* data = nullptr;
    ~Impl() {
        if (data) cudaFree(data);
    }
};

DeviceVolume::DeviceVolume(const Volume& volume) : m_impl(std::make_unique<Impl>()) {
    m_impl->geometry = volume.geometry();
    m_impl->type = volume.pixelType();
    m_impl->bytes = volume.byteSize();
    const cudaError_t status = cudaMalloc(&m_impl->data, m_impl->bytes);
    if (status == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        std::size_t freeBytes = 0, total = 0;
        cudaMemGetInfo(&freeBytes, &total);
        char buf[256];
        std::snprintf(buf, sizeof buf, "GPU out of memory: the volume needs %.1f MiB, %.1f MiB of %.1f MiB are free",
                      m_impl->bytes / 1048576.0, freeBytes / 1048576.0, total / 1048576.0);
        m_impl->data = nullptr;
        throw std::runtime_error(buf);
    }
    cudaCheck(status, "GPU volume allocation");
    cudaCheck(cudaMemcpy(m_impl->data, volume.data(), m_impl->bytes, cudaMemcpyHostToDevice), "GPU volume upload");
}

DeviceVolume::~DeviceVolume() = default;
DeviceVolume::DeviceVolume(DeviceVolume&&) noexcept = default;
DeviceVolume& DeviceVolume::operator=(DeviceVolume&&) noexcept = default;

const Geometry& DeviceVolume::geometry() const { return m_impl->geometry; }
PixelType DeviceVolume::pixelType() const { return m_impl->type; }
void* DeviceVolume::devicePointer() const { return m_impl->data; }

Volume DeviceVolume::download() const {
    Volume v(m_impl->geometry, m_impl->type);
    void* dst = m_impl->type == PixelType::Int16 ? static_cast<void*>(v.int16Data()) : static_cast<void*>(v.float32Data());
    cudaCheck(cudaMemcpy(dst, m_impl->data, m_impl->bytes, cudaMemcpyDeviceToHost), "GPU volume download");
    return v;
}

namespace {
template <typename T>
std::pair<double, double> minMax(const T* data, std::size_t n) {
    T* out = nullptr;
    cudaCheck(cudaMalloc(&out, 2 * sizeof(T)), "GPU range");
    std::size_t tempBytes = 0, tempMax = 0;
    cub::DeviceReduce::Min(nullptr, tempBytes, data, out, static_cast<int>(n));
    tempMax = tempBytes;
    cub::DeviceReduce::Max(nullptr, tempBytes, data, out + 1, static_cast<int>(n));
    tempMax = std::max(tempMax, tempBytes);
    void* temp = nullptr;
    cudaCheck(cudaMalloc(&temp, tempMax), "GPU range");
    cub::DeviceReduce::Min(temp, tempMax, data, out, static_cast<int>(n));
    cub::DeviceReduce::Max(temp, tempMax, data, out + 1, static_cast<int>(n));
    T host[2];
    const cudaError_t status = cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    cudaFree(temp);
    cudaFree(out);
    cudaCheck(status, "GPU range");
    return {double(host[0]), double(host[1])};
}
}  // namespace

std::pair<double, double> DeviceVolume::range() const {
    const std::size_t n = m_impl->geometry.voxelCount();
    if (n == 0) return {0.0, 0.0};
    if (m_impl->type == PixelType::Int16) return minMax(static_cast<const std::int16_t*>(m_impl->data), n);
    return minMax(static_cast<const float*>(m_impl->data), n);
}

}  // namespace lucent::gpu
