/// @brief DeviceVolume for builds without CUDA: construction says why it cannot exist.
#include "lucent/gpu/DeviceVolume.h"

#include "lucent/core/Errors.h"

#include <stdexcept>

namespace lucent::gpu {

struct DeviceVolume::Impl {};

DeviceVolume::DeviceVolume(const Volume&, void*, const ProgressCallback&) {
    throw GpuError("GPU volume unavailable: this build has no CUDA support");
}
DeviceVolume::DeviceVolume(const Geometry&, PixelType, void*) {
    throw GpuError("GPU volume unavailable: this build has no CUDA support");
}
DeviceVolume::~DeviceVolume() = default;
DeviceVolume::DeviceVolume(DeviceVolume&&) noexcept = default;
DeviceVolume& DeviceVolume::operator=(DeviceVolume&&) noexcept = default;
const Geometry& DeviceVolume::geometry() const { throw std::logic_error("no CUDA"); }
PixelType DeviceVolume::pixelType() const { throw std::logic_error("no CUDA"); }
void* DeviceVolume::devicePointer() const { return nullptr; }
Volume DeviceVolume::download() const { throw std::logic_error("no CUDA"); }
std::pair<double, double> DeviceVolume::range() const { throw std::logic_error("no CUDA"); }
double DeviceVolume::value(std::size_t) const { throw std::logic_error("no CUDA"); }
Volume DeviceVolume::window(const VoxelBox&) const { throw std::logic_error("no CUDA"); }
Volume DeviceVolume::sampleGrid(int) const { throw std::logic_error("no CUDA"); }

}  // namespace lucent::gpu
