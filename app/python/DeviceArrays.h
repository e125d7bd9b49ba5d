/// @brief CUDA arrays (CuPy, PyTorch: anything with `__dlpack__`) segmented where they lie: the
/// caller's device memory borrowed as the engine's volume, the labels handed back in device memory
/// as an object the caller's library imports (cupy.from_dlpack, torch.from_dlpack).
#pragma once

#include "DlPack.h"

#include "lucent/core/Volume.h"
#include "lucent/gpu/Resident.h"

#include <pybind11/pybind11.h>

#include <memory>

namespace lucent::python {

namespace py = pybind11;

/// A CUDA array taken from its DLPack capsule (the capsule is marked used; the producer's deleter
/// runs when this is dropped). Its voxels in Lucent's order: a Fortran-contiguous array as it is, a
/// C-contiguous one as its transpose (`reversed`: axes reversed, no byte moved).
struct DeviceArray {
    dlpack::ManagedTensor* managed = nullptr;
    Geometry geometry;  ///< the array's shape in Lucent's axis order, 1 mm voxels
    PixelType type = PixelType::Int16;
    void* data = nullptr;
    int device = 0;
    bool reversed = false;
    DeviceArray() = default;
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    ~DeviceArray();
};

/// Labels in device memory, on the grid of `array` and in its axis order: `__dlpack__` and
/// `__dlpack_device__` for the caller's library to import them (as many times as asked; the memory
/// lives while any import does).
py::object deviceLabelsObject(std::shared_ptr<gpu::DeviceLabels> labels, const DeviceArray& array);

void defineDeviceArrays(py::module_& m);  ///< _borrow_device_array, _DeviceLabels, _cuda_device, _host_transfers

}  // namespace lucent::python
