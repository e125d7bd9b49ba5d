/// @brief NumPy arrays as Lucent's volumes and label maps, without copying: a volume borrows an
/// array's bytes, a label result becomes an array that owns the engine's labels.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/Volume.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>

namespace lucent::python {

namespace py = pybind11;

/// The grid of an array given without an image: its shape, 1 mm spacing, origin 0, LPS axes.
Geometry arrayGeometry(const py::array& array);

/// A volume over `array`'s own bytes (no copy). The array must be 3D, Fortran-contiguous (i
/// fastest, Lucent's voxel order) and int16 or float32 in native byte order (the Python layer
/// converts any other array once before it gets here); std::invalid_argument otherwise. The
/// caller keeps `array` alive while the volume is used.
Volume borrowVolume(const py::array& array, const Geometry& geometry);

/// A label map on `geometry` holding `array`'s uint8 values (copied: LabelMap owns a vector).
LabelMap labelMapFrom(const py::array& array, const Geometry& geometry);

/// `labels` as a Fortran-ordered uint8 array of the grid's shape that owns them (no copy).
py::array labelsArray(LabelMap&& labels);

/// `volume`'s voxels as a Fortran-ordered array of its grid's shape, kept alive by `owner`.
py::array volumeArray(const Volume& volume, py::handle owner);

}  // namespace lucent::python
