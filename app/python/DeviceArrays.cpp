/// @brief CUDA arrays through DLPack (DeviceArrays.h): borrowing a producer's capsule, exporting
/// labels in device memory as one.
#include "DeviceArrays.h"

#include "Bindings.h"

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace lucent::python {

namespace {

std::string shapeText(const std::int64_t* shape, int ndim) {
    std::string out = "(";
    for (int d = 0; d < ndim; ++d) out += (d ? ", " : "") + std::to_string(shape[d]);
    return out + (ndim == 1 ? ",)" : ")");
}

/// True when items lie one after another along the axes in `order` (the first fastest); axes of one
/// voxel have any stride. Null strides are C order (the protocol's rule).
bool contiguous(const dlpack::Tensor& t, bool fortran) {
    std::int64_t expected = 1;
    for (int n = 0; n < 3; ++n) {
        const int axis = fortran ? n : 2 - n;
        const std::int64_t stride = t.strides ? t.strides[axis] : (axis == 2 ? 1 : axis == 1 ? t.shape[2] : t.shape[1] * t.shape[2]);
        if (t.shape[axis] != 1 && stride != expected) return false;
        expected *= t.shape[axis];
    }
    return true;
}

/// The checks of a borrowed array, each a ValueError naming what to do.
void checkDeviceArray(const dlpack::Tensor& t) {
    if (t.device.type != dlpack::kCuda)
        throw std::invalid_argument("lucent: the array lies on DLPack device type " + std::to_string(t.device.type) +
                                    ", not a CUDA device (2); host arrays go through numpy");
    const int current = gpu::currentDevice();
    if (current < 0)
        throw std::invalid_argument("lucent: the array lies on CUDA device " + std::to_string(t.device.id) +
                                    ", but this process has no CUDA device (or this build of lucent no CUDA)");
    if (t.device.id != current)
        throw std::invalid_argument(
            "lucent: the array is on CUDA device " + std::to_string(t.device.id) + ", lucent runs on the current device " +
            std::to_string(current) + ": make device " + std::to_string(t.device.id) + " current (cupy.cuda.Device(" +
            std::to_string(t.device.id) + ").use(), torch.cuda.set_device(" + std::to_string(t.device.id) +
            ")) or move the array");
    if (t.ndim != 3) throw std::invalid_argument("lucent: the array must be 3D, got " + std::to_string(t.ndim) + "D");
    for (int d = 0; d < 3; ++d)
        if (t.shape[d] < 1 || t.shape[d] > INT_MAX)
            throw std::invalid_argument("lucent: the array's axis " + std::to_string(d) + " has " +
                                        std::to_string(t.shape[d]) + " voxels; each axis needs 1 to 2^31 - 1");
    const bool int16 = t.dtype.code == dlpack::kInt && t.dtype.bits == 16, float32 = t.dtype.code == dlpack::kFloat && t.dtype.bits == 32;
    if (t.dtype.lanes != 1 || !(int16 || float32))
        throw std::invalid_argument("lucent: a CUDA array must be int16 or float32 here (DLPack type code " +
                                    std::to_string(t.dtype.code) + ", " + std::to_string(t.dtype.bits) +
                                    " bits; the lucent package converts the others on the device)");
    if (!contiguous(t, true) && !contiguous(t, false))
        throw std::invalid_argument("lucent: the CUDA array of shape " + shapeText(t.shape, 3) + " and strides " +
                                    (t.strides ? shapeText(t.strides, 3) : std::string("(C order)")) +
                                    " is not contiguous: the engines read C- or Fortran-contiguous device memory "
                                    "(make one with cupy.ascontiguousarray(a) or a.contiguous())");
}

std::shared_ptr<DeviceArray> borrowDeviceArray(const py::capsule& capsule) {
    PyObject* c = capsule.ptr();
    if (!PyCapsule_IsValid(c, dlpack::kCapsuleName))
        throw std::invalid_argument("lucent: not an unused DLPack capsule (array.__dlpack__() gives one; each is read once)");
    auto array = std::make_shared<DeviceArray>();
    array->managed = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(c, dlpack::kCapsuleName));
    // Ours from here (the protocol's hand-over): the capsule no longer deletes it, ~DeviceArray does.
    PyCapsule_SetName(c, dlpack::kUsedCapsuleName);
    const dlpack::Tensor& t = array->managed->tensor;
    checkDeviceArray(t);
    array->reversed = !contiguous(t, true);
    for (int d = 0; d < 3; ++d) array->geometry.dims[d] = int(t.shape[array->reversed ? 2 - d : d]);
    array->type = t.dtype.code == dlpack::kInt ? PixelType::Int16 : PixelType::Float32;
    array->data = static_cast<char*>(t.data) + t.byteOffset;
    array->device = t.device.id;
    return array;
}

/// One export of labels: the tensor the consumer reads and what keeps its memory alive.
struct LabelsExport {
    dlpack::ManagedTensor managed{};
    std::shared_ptr<gpu::DeviceLabels> labels;
    std::int64_t shape[3]{}, strides[3]{};
};

/// Labels in device memory, as Python sees them (`_DeviceLabels`).
struct DeviceLabelsObject {
    std::shared_ptr<gpu::DeviceLabels> labels;
    std::int64_t shape[3]{}, strides[3]{};
};

/// A capsule nobody consumed deletes its tensor; a consumed one ("used_dltensor") is its consumer's.
void capsuleDestructor(PyObject* capsule) {
    if (PyCapsule_IsValid(capsule, dlpack::kUsedCapsuleName)) return;
    PyObject *type = nullptr, *value = nullptr, *trace = nullptr;
    PyErr_Fetch(&type, &value, &trace);
    if (auto* m = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(capsule, dlpack::kCapsuleName)))
        m->deleter(m);
    else
        PyErr_WriteUnraisable(capsule);
    PyErr_Restore(type, value, trace);
}

py::capsule exportLabels(const DeviceLabelsObject& self, const py::object& dlDevice, const py::object& copy) {
    const int device = self.labels->device();
    if (!dlDevice.is_none() && dlDevice.cast<std::pair<int, int>>() != std::pair<int, int>{dlpack::kCuda, device})
        throw py::buffer_error("lucent's labels lie on CUDA device " + std::to_string(device) + " and are not copied elsewhere");
    if (!copy.is_none() && copy.cast<bool>()) throw py::buffer_error("lucent's labels are exported without a copy");
    auto* e = new LabelsExport;
    e->labels = self.labels;
    for (int d = 0; d < 3; ++d) {
        e->shape[d] = self.shape[d];
        e->strides[d] = self.strides[d];
    }
    e->managed.tensor = {self.labels->data(), {dlpack::kCuda, device}, 3, {dlpack::kUInt, 8, 1}, e->shape, e->strides, 0};
    e->managed.managerContext = e;
    e->managed.deleter = [](dlpack::ManagedTensor* m) { delete static_cast<LabelsExport*>(m->managerContext); };
    PyObject* capsule = PyCapsule_New(&e->managed, dlpack::kCapsuleName, capsuleDestructor);
    if (!capsule) {
        delete e;
        throw py::error_already_set();
    }
    return py::reinterpret_steal<py::capsule>(capsule);
}

}  // namespace

DeviceArray::~DeviceArray() {
    if (managed && managed->deleter) managed->deleter(managed);
}

py::object deviceLabelsObject(std::shared_ptr<gpu::DeviceLabels> labels, const DeviceArray& array) {
    DeviceLabelsObject out;
    out.labels = std::move(labels);
    const auto& d = array.geometry.dims;
    // Lucent's order is x fastest: strides 1, nx, nx * ny along i, j, k; a reversed array's axes are k, j, i.
    const std::int64_t lucentStrides[3] = {1, d[0], std::int64_t(d[0]) * d[1]};
    for (int a = 0; a < 3; ++a) {
        const int axis = array.reversed ? 2 - a : a;
        out.shape[a] = d[axis];
        out.strides[a] = lucentStrides[axis];
    }
    return py::cast(std::move(out));
}

void defineDeviceArrays(py::module_& m) {
    py::class_<DeviceArray, std::shared_ptr<DeviceArray>>(m, "_DeviceArray", "A CUDA array borrowed through DLPack.")
        .def_readonly("reversed", &DeviceArray::reversed)
        .def_readonly("device", &DeviceArray::device)
        .def_property_readonly("pointer", [](const DeviceArray& a) { return reinterpret_cast<std::uintptr_t>(a.data); })
        .def_property_readonly("dtype", [](const DeviceArray& a) { return pixelTypeName(a.type); });
    py::class_<DeviceLabelsObject>(m, "_DeviceLabels", "Labels in device memory: import them with your array library's from_dlpack.")
        // Any stream may read them at once: the run synchronised before they were handed over. A legacy
        // (unversioned) capsule whatever max_version says, as the protocol allows.
        .def(
            "__dlpack__",
            [](const DeviceLabelsObject& self, const py::object&, const py::object&, const py::object& dlDevice,
               const py::object& copy) { return exportLabels(self, dlDevice, copy); },
            py::arg("stream") = py::none(), py::arg("max_version") = py::none(), py::arg("dl_device") = py::none(),
            py::arg("copy") = py::none())
        .def("__dlpack_device__", [](const DeviceLabelsObject& self) { return py::make_tuple(int(dlpack::kCuda), self.labels->device()); })
        .def_property_readonly("pointer", [](const DeviceLabelsObject& self) { return reinterpret_cast<std::uintptr_t>(self.labels->data()); });
    m.def("_borrow_device_array", &borrowDeviceArray, py::arg("capsule"));
    m.def("_cuda_device", &gpu::currentDevice, "The current CUDA device, -1 without one (or without CUDA in this build).");
    m.def("_host_transfers", [] {
        const gpu::HostTransfers t = gpu::hostTransfers();
        py::dict out;
        out["volume_upload_bytes"] = t.volumeUploadBytes;
        out["label_download_bytes"] = t.labelDownloadBytes;
        return out;
    });
}

}  // namespace lucent::python
