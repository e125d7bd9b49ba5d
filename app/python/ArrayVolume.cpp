/// @brief NumPy arrays as volumes and label maps (ArrayVolume.h).
#include "ArrayVolume.h"

#include <stdexcept>
#include <string>

namespace lucent::python {

namespace {

/// Byte strides of a Fortran-ordered array of `dims` with `itemSize`-byte items.
std::vector<py::ssize_t> fortranStrides(const std::array<int, 3>& dims, py::ssize_t itemSize) {
    return {itemSize, itemSize * dims[0], itemSize * dims[0] * dims[1]};
}

std::vector<py::ssize_t> shapeOf(const std::array<int, 3>& dims) { return {dims[0], dims[1], dims[2]}; }

void requireShape(const py::array& array, const Geometry& geometry, const char* what) {
    if (array.ndim() != 3)
        throw std::invalid_argument(std::string(what) + " must be 3D, got " + std::to_string(array.ndim()) + "D");
    for (int d = 0; d < 3; ++d)
        if (array.shape(d) != geometry.dims[d])
            throw std::invalid_argument(std::string(what) + " has shape (" + std::to_string(array.shape(0)) + ", " +
                                        std::to_string(array.shape(1)) + ", " + std::to_string(array.shape(2)) +
                                        "), the grid is (" + std::to_string(geometry.dims[0]) + ", " +
                                        std::to_string(geometry.dims[1]) + ", " + std::to_string(geometry.dims[2]) +
                                        ")");
    if (!(array.flags() & py::array::f_style))
        throw std::invalid_argument(std::string(what) +
                                    " must be Fortran-contiguous here (the lucent package converts)");
}

}  // namespace

Geometry arrayGeometry(const py::array& array) {
    if (array.ndim() != 3)
        throw std::invalid_argument("the array must be 3D, got " + std::to_string(array.ndim()) + "D");
    Geometry g;
    for (int d = 0; d < 3; ++d) {
        if (array.shape(d) < 1 || array.shape(d) > std::numeric_limits<int>::max())
            throw std::invalid_argument("the array's axis " + std::to_string(d) + " has " +
                                        std::to_string(array.shape(d)) + " voxels; each axis needs 1 to 2^31 - 1");
        g.dims[d] = int(array.shape(d));
    }
    return g;
}

Volume borrowVolume(const py::array& array, const Geometry& geometry) {
    requireShape(array, geometry, "the volume");
    PixelType type;
    if (array.dtype().is(py::dtype::of<std::int16_t>()))
        type = PixelType::Int16;
    else if (array.dtype().is(py::dtype::of<float>()))
        type = PixelType::Float32;
    else
        throw std::invalid_argument("the volume must be int16 or float32 here, got " +
                                    std::string(py::str(array.dtype())));
    // The engines only read the volume: a read-only array is borrowed as well.
    char* bytes = static_cast<char*>(const_cast<void*>(array.data()));
    // The byte count from the checked shape and type, not array.nbytes(): pybind11 before 2.12 (Debian
    // 12 has 2.10) reads the item size from NumPy 1's descriptor layout, wrong under NumPy 2.
    return Volume(geometry, type, VoxelBuffer::borrowed(bytes, geometry.voxelCount() * (type == PixelType::Int16 ? sizeof(std::int16_t) : sizeof(float))));
}

LabelMap labelMapFrom(const py::array& array, const Geometry& geometry) {
    requireShape(array, geometry, "the labels");
    if (!array.dtype().is(py::dtype::of<std::uint8_t>()))
        throw std::invalid_argument("labels must be uint8, got " + std::string(py::str(array.dtype())));
    const auto* first = static_cast<const std::uint8_t*>(array.data());
    return LabelMap(geometry, std::vector<std::uint8_t>(first, first + geometry.voxelCount()));
}

py::array labelsArray(LabelMap&& labels) {
    auto* owned = new LabelMap(std::move(labels));
    py::capsule owner(owned, [](void* p) { delete static_cast<LabelMap*>(p); });
    const auto& dims = owned->geometry().dims;
    return py::array(py::dtype::of<std::uint8_t>(), shapeOf(dims), fortranStrides(dims, 1), owned->data(), owner);
}

py::array volumeArray(const Volume& volume, py::handle owner) {
    const auto& dims = volume.geometry().dims;
    const bool int16 = volume.pixelType() == PixelType::Int16;
    const py::dtype dtype = int16 ? py::dtype::of<std::int16_t>() : py::dtype::of<float>();
    return py::array(dtype, shapeOf(dims), fortranStrides(dims, int16 ? 2 : 4), volume.data(), owner);
}

}  // namespace lucent::python
