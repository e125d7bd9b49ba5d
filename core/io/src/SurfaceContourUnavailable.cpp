/// @brief Surface contouring for builds without VTK: says so instead of returning an empty surface.
#include "SurfaceContour.h"

#include "lucent/core/Errors.h"

namespace lucent::io::detail {

bool contourAvailable() { return false; }

void requireContour() {
    throw IoError(
        "this build has no VTK: surfaces cannot be written (configure with VTK 9 found and "
        "LUCENT_WITH_VTK=ON)");
}

RawMesh contourAndSmooth(const BinaryCrop&, int, double, const StageProgress&) {
    requireContour();
    return {};
}

}  // namespace lucent::io::detail
