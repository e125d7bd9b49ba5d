/// @brief A GL texture registered with CUDA (CUDA-OpenGL interop), so that what the CUDA engines
/// write on the device (the GPU context's label buffer) reaches the texture the views sample
/// without a round trip through host memory. Plain C++: GL objects are passed by name.
#pragma once

#include "lucent/core/VolumePlane.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <array>
#include <cstddef>
#include <memory>

namespace lucent::gpu {

class GpuContext;

class GlTextureLink {
public:
    /// A whole-volume 3D texture, or a slice view's 2D texture of one plane.
    enum class Shape { Texture3D, Texture2D };
    /// What a plane's voxels are on the device and become in the texture.
    enum class PlaneElement { Byte, Int16AsUnsigned16 };

    /// Registers the GL texture `texture` (a GL name, level 0 allocated; a context of its share
    /// group current). Throws GpuError when CUDA cannot map it (no device, a software GL such as
    /// Mesa's llvmpipe, a format CUDA does not map): the caller uploads from host memory instead.
    explicit GlTextureLink(unsigned texture, Shape shape = Shape::Texture3D);
    /// Unregisters (a context of the share group current).
    ~GlTextureLink();
    GlTextureLink(const GlTextureLink&) = delete;
    GlTextureLink& operator=(const GlTextureLink&) = delete;

    /// Copies `box` of a device array (x fastest on `dims`, `elementBytes` a voxel) into the same
    /// box of the texture, on `stream` (a cudaStream_t; null: the default stream), mapping the
    /// texture for the copy only, and waits for it, so GL may sample right after.
    void copyFrom(const void* device, std::array<int, 3> dims, std::size_t elementBytes, const VoxelBox& box, void* stream);

    /// Fills the whole texture (GL_R16, the volume's dimensions) from the context's resident int16
    /// volume as value + 32768, the unsigned 16-bit texels of the slice shader: the voxels cross
    /// PCIe once, for the GPU context, and reach GL from device memory. Throws GpuError for a float
    /// volume, other dimensions or any CUDA failure (the caller then uploads from host memory).
    void fillFromVolume(const GpuContext& context);

    /// Fills a 2D texture of planeSize(plane, dims) with `plane` of a device array (x fastest on
    /// `dims`; bytes as they are, or int16 as value + 32768) on `stream`, and waits: a slice view's
    /// plane reaches GL from device memory, a few MB whatever the volume. A null `stream` is the
    /// link's own (non-blocking): the copy then never waits for the engines' queued work, so the
    /// caller must know the source is not being written (the resident volume; a locked label sink).
    void copyPlane(const void* device, std::array<int, 3> dims, VolumePlane plane, PlaneElement element, void* stream);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace lucent::gpu
