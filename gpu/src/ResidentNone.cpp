/// @brief Resident.h for builds without CUDA: nothing can be resident.
#include "lucent/gpu/Resident.h"

#include "lucent/core/Errors.h"

namespace lucent::gpu {

struct DeviceLabels::Impl {};

DeviceLabels::DeviceLabels(std::size_t) { throw GpuError("device labels unavailable: this build has no CUDA support"); }
DeviceLabels::~DeviceLabels() = default;
std::uint8_t* DeviceLabels::data() const { return nullptr; }
std::size_t DeviceLabels::voxels() const { return 0; }
int DeviceLabels::device() const { return -1; }
void DeviceLabels::copyTo(std::uint8_t*) const {}
int currentDevice() { return -1; }

std::shared_ptr<GpuContext> residentContext(const Volume&, DeviceVolume&&) {
    throw GpuError("resident volumes unavailable: this build has no CUDA support");
}
std::size_t releaseResidentMemory(bool) { return 0; }

RegionGrowingParams residentSeedInterval(const GpuContext&, const std::vector<VoxelIndex>&) {
    throw GpuError("resident volumes unavailable: this build has no CUDA support");
}

HostTransfers hostTransfers() { return {}; }

}  // namespace lucent::gpu
