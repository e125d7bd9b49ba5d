/// @brief CUDA-OpenGL interop for 3D textures: register once, map per copy, 3D copy of a box.
#include "lucent/gpu/GlTextureLink.h"

#include "CudaCheck.h"
#include "DeviceBuffer.h"
#include "PlaneCopy.h"
#include "VolumeTextureFill.h"
#include "lucent/gpu/DeviceVolume.h"
#include "lucent/gpu/GpuContext.h"

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

namespace lucent::gpu {

struct GlTextureLink::Impl {
    cudaGraphicsResource_t resource = nullptr;
    DeviceBuffer plane;  // copyPlane's packed image (one plane: a few MB)
    cudaStream_t ownStream = nullptr;  // copyPlane without a stream: never waits behind the engines' work
};

GlTextureLink::GlTextureLink(unsigned texture, Shape shape) : m_impl(std::make_unique<Impl>()) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        cudaGetLastError();
        throw GpuError("CUDA-OpenGL interop: no CUDA device");
    }
    // No write-discard flag: a copy may update only a box and the rest must stay.
    cudaCheck(cudaGraphicsGLRegisterImage(&m_impl->resource, texture, shape == Shape::Texture3D ? GL_TEXTURE_3D : GL_TEXTURE_2D,
                                          cudaGraphicsRegisterFlagsNone),
              "CUDA-OpenGL interop: registering GL texture " + std::to_string(texture));
}

GlTextureLink::~GlTextureLink() {
    if (m_impl && m_impl->resource) {
        // Without the GL context current this fails; its error must not stay behind for the next
        // kernel launch on this thread to report (cudaGetLastError returns any earlier failure).
        if (cudaGraphicsUnregisterResource(m_impl->resource) != cudaSuccess) cudaGetLastError();
    }
    if (m_impl && m_impl->ownStream && cudaStreamDestroy(m_impl->ownStream) != cudaSuccess) cudaGetLastError();
}

void GlTextureLink::copyFrom(const void* device, std::array<int, 3> dims, std::size_t elementBytes, const VoxelBox& box,
                             void* streamHandle) {
    if (box.empty()) return;
    auto stream = static_cast<cudaStream_t>(streamHandle);
    cudaCheck(cudaGraphicsMapResources(1, &m_impl->resource, stream), "CUDA-OpenGL interop: mapping the texture");
    cudaArray_t array = nullptr;
    cudaError_t status = cudaGraphicsSubResourceGetMappedArray(&array, m_impl->resource, 0, 0);
    if (status == cudaSuccess) {
        cudaMemcpy3DParms p{};
        const std::size_t pitch = std::size_t(dims[0]) * elementBytes;
        p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(device), pitch, std::size_t(dims[0]), std::size_t(dims[1]));
        // Positions: bytes in the linear buffer, elements in the array; the extent in elements.
        p.srcPos = make_cudaPos(std::size_t(box.lo[0]) * elementBytes, std::size_t(box.lo[1]), std::size_t(box.lo[2]));
        p.dstArray = array;
        p.dstPos = make_cudaPos(std::size_t(box.lo[0]), std::size_t(box.lo[1]), std::size_t(box.lo[2]));
        p.extent = make_cudaExtent(std::size_t(box.hi[0] - box.lo[0] + 1), std::size_t(box.hi[1] - box.lo[1] + 1),
                                   std::size_t(box.hi[2] - box.lo[2] + 1));
        p.kind = cudaMemcpyDeviceToDevice;
        status = cudaMemcpy3DAsync(&p, stream);
    }
    const cudaError_t unmapped = cudaGraphicsUnmapResources(1, &m_impl->resource, stream);
    cudaCheck(status, "CUDA-OpenGL interop: copying into the texture");
    cudaCheck(unmapped, "CUDA-OpenGL interop: unmapping the texture");
    cudaCheck(cudaStreamSynchronize(stream), "CUDA-OpenGL interop");
}

void GlTextureLink::fillFromVolume(const GpuContext& context) {
    const DeviceVolume& volume = context.deviceVolume();
    if (volume.pixelType() != PixelType::Int16) throw GpuError("volume texture from the device: int16 volumes only");
    const auto& d = volume.geometry().dims;
    const std::size_t count = volume.geometry().voxelCount();
    // The texels are made in a transient buffer: the resident volume stays as the engines read it.
    DeviceBuffer texels(count * sizeof(std::uint16_t), "the volume texture's texels");
    auto stream = static_cast<cudaStream_t>(context.stream());
    launchUnsignedTexels(static_cast<const std::int16_t*>(volume.devicePointer()), texels.as<std::uint16_t>(), count, stream);
    copyFrom(texels.get(), {d[0], d[1], d[2]}, sizeof(std::uint16_t), VoxelBox{{0, 0, 0}, {d[0] - 1, d[1] - 1, d[2] - 1}},
             stream);
}

void GlTextureLink::copyPlane(const void* device, std::array<int, 3> dims, VolumePlane plane, PlaneElement element,
                              void* streamHandle) {
    const auto [w, h] = planeSize(plane, dims);
    if (w <= 0 || h <= 0) return;
    const std::size_t bytes = element == PlaneElement::Byte ? 1 : 2;
    auto stream = static_cast<cudaStream_t>(streamHandle);
    if (!stream) {
        if (!m_impl->ownStream)
            cudaCheck(cudaStreamCreateWithFlags(&m_impl->ownStream, cudaStreamNonBlocking), "CUDA-OpenGL interop: a stream");
        stream = m_impl->ownStream;
    }
    m_impl->plane.reserve(std::size_t(w) * std::size_t(h) * bytes, "a slice view's plane");
    if (element == PlaneElement::Byte)
        launchPlaneBytes(static_cast<const std::uint8_t*>(device), dims, plane, m_impl->plane.as<std::uint8_t>(), stream);
    else
        launchPlaneUnsigned16(static_cast<const std::int16_t*>(device), dims, plane, m_impl->plane.as<std::uint16_t>(), stream);
    cudaCheck(cudaGraphicsMapResources(1, &m_impl->resource, stream), "CUDA-OpenGL interop: mapping a slice view's texture");
    cudaArray_t array = nullptr;
    cudaError_t status = cudaGraphicsSubResourceGetMappedArray(&array, m_impl->resource, 0, 0);
    if (status == cudaSuccess)
        status = cudaMemcpy2DToArrayAsync(array, 0, 0, m_impl->plane.get(), std::size_t(w) * bytes, std::size_t(w) * bytes,
                                          std::size_t(h), cudaMemcpyDeviceToDevice, stream);
    const cudaError_t unmapped = cudaGraphicsUnmapResources(1, &m_impl->resource, stream);
    cudaCheck(status, "CUDA-OpenGL interop: copying a plane into a slice view's texture");
    cudaCheck(unmapped, "CUDA-OpenGL interop: unmapping a slice view's texture");
    cudaCheck(cudaStreamSynchronize(stream), "CUDA-OpenGL interop");
}

}  // namespace lucent::gpu
