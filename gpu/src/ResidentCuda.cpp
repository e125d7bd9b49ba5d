/// @brief Resident volumes and labels (Resident.h): device label memory, the seed interval read off
/// the device, the host-transfer counts.
#include "lucent/gpu/Resident.h"

#include "CudaCheck.h"
#include "DeviceBuffer.h"
#include "ResidentCache.h"
#include "TransferCount.h"
#include "lucent/core/ValueHistogram.h"
#include "lucent/core/seg/SeedInterval.h"
#include "lucent/gpu/DeviceVolume.h"
#include "lucent/gpu/GpuContext.h"

#include <cuda_runtime.h>

#include <atomic>
#include <stdexcept>

namespace lucent::gpu {

namespace {
std::atomic<std::uint64_t> volumeUploads{0}, labelDownloads{0};
}  // namespace

void noteVolumeUpload(std::size_t bytes) { volumeUploads += bytes; }
void noteLabelDownload(std::size_t bytes) { labelDownloads += bytes; }
HostTransfers hostTransfers() { return {volumeUploads.load(), labelDownloads.load()}; }

struct DeviceLabels::Impl {
    DeviceBuffer buffer;
    std::size_t voxels = 0;
    int device = 0;
};

DeviceLabels::DeviceLabels(std::size_t voxels) : m_impl(std::make_unique<Impl>()) {
    cudaCheck(cudaGetDevice(&m_impl->device), "the labels");
    m_impl->buffer = takeLabelMemory(m_impl->device, voxels);
    m_impl->voxels = voxels;
}
DeviceLabels::~DeviceLabels() { keepLabelMemory(m_impl->device, std::move(m_impl->buffer)); }
std::uint8_t* DeviceLabels::data() const { return m_impl->buffer.as<std::uint8_t>(); }
std::size_t DeviceLabels::voxels() const { return m_impl->voxels; }
int DeviceLabels::device() const { return m_impl->device; }
void DeviceLabels::copyTo(std::uint8_t* host) const {
    cudaCheck(cudaMemcpy(host, data(), m_impl->voxels, cudaMemcpyDeviceToHost), "the labels");
}

int currentDevice() {
    int count = 0, device = -1;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 || cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    return device;
}

RegionGrowingParams residentSeedInterval(const GpuContext& context, const std::vector<VoxelIndex>& seeds) {
    const DeviceVolume& device = context.deviceVolume();
    const Geometry& g = device.geometry();
    if (seeds.empty()) throw std::invalid_argument("no seed to estimate the interval at");
    const VoxelIndex& s = seeds.front();
    if (!g.contains(s.i, s.j, s.k)) throw std::invalid_argument("the first seed lies outside the volume");
    const Volume sampled = device.sampleGrid(gridSampleStep(g.dims));
    return seedIntervalFrom(device.value(g.index(s.i, s.j, s.k)), sampled, context.range());
}

}  // namespace lucent::gpu
