/// @brief Plane extraction kernels: one thread per pixel of the plane (a few MB per call at most).
#include "PlaneCopy.h"

#include "CudaCheck.h"

namespace lucent::gpu {

namespace {

struct AsIs {
    __device__ std::uint8_t operator()(std::uint8_t v) const { return v; }
};
struct Unsigned16 {
    __device__ std::uint16_t operator()(std::int16_t v) const { return static_cast<std::uint16_t>(v + 32768); }
};

template <typename In, typename Out, typename Convert>
__global__ void planeKernel(const In* in, int dx, int dy, VolumePlane plane, int w, int h, Out* out, Convert convert) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= w || j >= h) return;
    out[std::size_t(j) * std::size_t(w) + std::size_t(i)] = convert(in[planeVoxel(plane, i, j, dx, dy)]);
}

template <typename In, typename Out, typename Convert>
void launch(const In* in, std::array<int, 3> dims, VolumePlane plane, Out* out, cudaStream_t stream, Convert convert) {
    const auto [w, h] = planeSize(plane, dims);
    const dim3 block(32, 8), grid((unsigned(w) + 31) / 32, (unsigned(h) + 7) / 8);
    planeKernel<<<grid, block, 0, stream>>>(in, dims[0], dims[1], plane, w, h, out, convert);
    launchCheck("copying a plane for a slice view");
}

}  // namespace

void launchPlaneBytes(const std::uint8_t* in, std::array<int, 3> dims, VolumePlane plane, std::uint8_t* out, cudaStream_t stream) {
    launch(in, dims, plane, out, stream, AsIs{});
}

void launchPlaneUnsigned16(const std::int16_t* in, std::array<int, 3> dims, VolumePlane plane, std::uint16_t* out,
                           cudaStream_t stream) {
    launch(in, dims, plane, out, stream, Unsigned16{});
}

}  // namespace lucent::gpu
