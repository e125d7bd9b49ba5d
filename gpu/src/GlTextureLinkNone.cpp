/// @brief GlTextureLink without CUDA or GL headers: registration says why it cannot exist, and
/// callers upload from host memory.
#include "lucent/gpu/GlTextureLink.h"

#include "lucent/core/Errors.h"

namespace lucent::gpu {

struct GlTextureLink::Impl {};

GlTextureLink::GlTextureLink(unsigned, Shape) {
    throw GpuError("CUDA-OpenGL interop unavailable: this build has no CUDA support or no OpenGL headers");
}
GlTextureLink::~GlTextureLink() = default;
void GlTextureLink::copyFrom(const void*, std::array<int, 3>, std::size_t, const VoxelBox&, void*) {}
void GlTextureLink::fillFromVolume(const GpuContext&) {}
void GlTextureLink::copyPlane(const void*, std::array<int, 3>, VolumePlane, PlaneElement, void*) {}

}  // namespace lucent::gpu
