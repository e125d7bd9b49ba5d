/// @brief `lucent._lucent`: the compiled half of the `lucent` package (the engines, files); the
/// package's Python files give it its public interface (app/python/lucent/__init__.py).
#include "Bindings.h"
#include "DeviceArrays.h"

#include "lucent/core/Errors.h"
#include "lucent/core/Version.h"

#include <stdexcept>

namespace lucent::python {

namespace {

/// Lucent's exceptions as Python's: a file's trouble is an OSError, a bad seed or parameter a
/// ValueError, a device fault a RuntimeError; never a crash.
void translateErrors() {
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const IoError& e) {
            PyErr_SetString(PyExc_OSError, e.what());
        } catch (const std::invalid_argument& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const std::out_of_range& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const GpuError& e) {
            PyErr_SetString(PyExc_RuntimeError, e.what());
        } catch (const Cancelled& e) {
            PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
        }
    });
}

}  // namespace

}  // namespace lucent::python

PYBIND11_MODULE(_lucent, m) {
    using namespace lucent::python;
    m.doc() = "Lucent's engines and files (use the lucent package, not this module)";
    m.attr("__version__") = lucent::kVersion;
    translateErrors();
    defineImage(m);
    defineSegment(m);
    defineDeviceArrays(m);
}
