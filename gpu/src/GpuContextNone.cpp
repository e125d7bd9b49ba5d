/// @brief GpuContext for builds without CUDA: construction says why it cannot exist.
#include "lucent/gpu/GpuContext.h"

#include "lucent/core/Errors.h"
#include "lucent/gpu/DeviceVolume.h"

namespace lucent::gpu {

struct GpuContext::Impl {};

GpuContext::GpuContext(const Volume&, const ProgressCallback&) {
    throw GpuError("GPU context unavailable: this build has no CUDA support");
}
GpuContext::GpuContext(const Volume&, DeviceVolume&&) {
    throw GpuError("GPU context unavailable: this build has no CUDA support");
}
GpuContext::~GpuContext() = default;
void GpuContext::rebind(const Volume&, DeviceVolume&&) { throw GpuError("no CUDA"); }
const Volume& GpuContext::volume() const { throw GpuError("no CUDA"); }
const DeviceVolume& GpuContext::deviceVolume() const { throw GpuError("no CUDA"); }
void* GpuContext::stream() const { return nullptr; }
double GpuContext::uploadMs() const { return 0; }
std::pair<double, double> GpuContext::range() const { throw GpuError("no CUDA"); }
LabelSink GpuContext::labelSink() { throw GpuError("no CUDA"); }
void GpuContext::downloadLabels(LabelMap&, const VoxelBox*) { throw GpuError("no CUDA"); }
void GpuContext::downloadReducedLabels(const LabelReduction&, LabelMap&) { throw GpuError("no CUDA"); }
std::size_t GpuContext::countLabels() { throw GpuError("no CUDA"); }
void GpuContext::uploadLabels(const LabelMap&) { throw GpuError("no CUDA"); }
void GpuContext::uploadLabels(const std::uint8_t*, const VoxelBox&) { throw GpuError("no CUDA"); }
void GpuContext::setLabelsAt(const std::uint64_t*, std::size_t) { throw GpuError("no CUDA"); }
void GpuContext::download(void*, const void*, std::size_t) const { throw GpuError("no CUDA"); }
void* GpuContext::scratch(int, std::size_t) { throw GpuError("no CUDA"); }
int GpuContext::reserveScratch() { throw GpuError("no CUDA"); }
void GpuContext::synchronize() const {}

}  // namespace lucent::gpu
