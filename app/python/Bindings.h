/// @brief What the module's binding files share: the Image type and each file's definitions.
#pragma once

#include "lucent/core/Volume.h"
#include "lucent/io/VolumeNames.h"

#include <pybind11/pybind11.h>

#include <memory>

namespace lucent::python {

namespace py = pybind11;

/// A loaded volume and which one of its input it is (`lucent.load`'s result).
struct Image {
    std::shared_ptr<const Volume> volume;
    io::VolumeIdentity identity;
};

void defineImage(py::module_& m);    ///< Image, _load, _save_labels, _save_volume (ImageBindings.cpp)
void defineSegment(py::module_& m);  ///< _segment, _segment_image, _segment_resident (SegmentBindings.cpp)

}  // namespace lucent::python
