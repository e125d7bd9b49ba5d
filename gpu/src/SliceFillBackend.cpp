/// @brief The fill's backend choice: CUDA where this build, machine and method have it; a GPU
/// fault under auto fills on the CPU instead.
#include "lucent/gpu/SliceFillBackend.h"

#include "lucent/core/Errors.h"
#include "lucent/gpu/DeviceInfo.h"

#include "SliceFillCuda.h"

#include <stdexcept>

namespace lucent::gpu {

bool hasCudaSliceFill(FillMethod) { return cudaCompiledIn(); }

SliceFillRun fillBetweenSlices(LabelMap& map, const SliceFillOptions& options, Backend backend,
                               const ProgressCallback& progress) {
    SliceFillRun run;
    run.backend = backendKey(Backend::Cpu);
    if (backend == Backend::Cpu) {
        run.report = lucent::fillBetweenSlices(map, options, progress);
        return run;
    }
    const bool device = cudaCompiledIn() && !listDevices().empty();
    if (backend == Backend::Cuda) {
        if (!cudaCompiledIn()) throw std::invalid_argument("backend cuda: this build has no CUDA support");
        if (!device) throw std::invalid_argument("backend cuda: no CUDA device or driver found");
    }
    if (!device || !hasCudaSliceFill(options.method)) {
        run.report = lucent::fillBetweenSlices(map, options, progress);
        return run;
    }
    const SliceFillPlan plan = planSliceFill(map, options);
    try {
        run.report = fillBetweenSlicesCuda(map, plan, options.method, progress, run.deviceBytes);
        run.backend = backendKey(Backend::Cuda);
        return run;
    } catch (const GpuError& fault) {
        if (backend == Backend::Cuda) throw;
        run.notice = std::string("CUDA fill failed (") + fault.what() + "); filling on the CPU instead";
    }
    run.report = lucent::fillBetweenSlices(map, options, progress);
    return run;
}

}  // namespace lucent::gpu
