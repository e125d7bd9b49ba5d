/// @brief Builds without CUDA have no CUDA fill (hasCudaSliceFill says so; this is never reached).
#include "SliceFillCuda.h"

#include "lucent/core/Errors.h"

namespace lucent::gpu {

SliceFillReport fillBetweenSlicesCuda(LabelMap&, const SliceFillPlan&, FillMethod, const ProgressCallback&, std::size_t&) {
    throw GpuError("this build has no CUDA support");
}

}  // namespace lucent::gpu
