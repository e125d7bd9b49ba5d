/// @brief Engine selection: CUDA engines where this build and machine have them, CPU otherwise;
/// auto wraps the CUDA engine so that a GPU fault falls back to the CPU engine.
#include "lucent/gpu/SegmenterFactory.h"

#include "lucent/core/seg/FuzzyCMeansCpu.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/GrowCutCpu.h"
#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/core/seg/Snake3dCpu.h"
#include "lucent/core/seg/SnakeCpu.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/GpuContext.h"

#include "FallbackSegmenter.h"

#include <stdexcept>

namespace lucent::gpu {

/// The CUDA engine for `method`, or null (defined in CudaEngines.cpp / CudaEnginesNone.cpp).
std::unique_ptr<Segmenter> createCuda(Method method, std::shared_ptr<GpuContext> context);

Backend parseBackend(const std::string& name) {
    if (const auto backend = backendFromKey(name)) return *backend;
    throw std::invalid_argument("backend must be " + backendKeyList(", ", " or ") + ", not '" + name + "'");
}

Method parseMethod(const std::string& name) {
    if (const auto method = methodFromKey(name)) return *method;
    throw std::invalid_argument("method must be " + methodKeyList(", ", " or ") + ", not '" + name + "'");
}

bool hasCudaEngine(Method method) { return createCuda(method, nullptr) != nullptr; }

namespace {
std::unique_ptr<Segmenter> createCpu(Method method) {
    switch (method) {
    case Method::RegionGrowing: return std::make_unique<RegionGrowingCpu>();
    case Method::FuzzyConnectedness: return std::make_unique<FuzzyConnectednessCpu>();
    case Method::FuzzyCMeans: return std::make_unique<FuzzyCMeansCpu>();
    case Method::Snake: return std::make_unique<SnakeCpu>();
    case Method::Snake3d: return std::make_unique<Snake3dCpu>();
    case Method::GrowCut: return std::make_unique<GrowCutCpu>();
    }
    throw std::invalid_argument("unknown method");
}
}  // namespace

std::unique_ptr<Segmenter> createSegmenter(Method method, Backend backend, std::shared_ptr<GpuContext> context) {
    if (backend == Backend::Cpu) return createCpu(method);
    const bool compiled = cudaCompiledIn(), device = compiled && hasDevice();
    std::unique_ptr<Segmenter> cuda = device ? createCuda(method, std::move(context)) : nullptr;
    if (backend == Backend::Cuda) {
        if (!compiled) throw std::invalid_argument("backend cuda: this build has no CUDA support");
        if (!device) throw std::invalid_argument("backend cuda: no CUDA device or driver found");
        if (!cuda)
            throw std::invalid_argument(std::string("backend cuda: no CUDA engine for ") + methodName(method) +
                                        " yet (use --backend cpu or auto)");
        return cuda;
    }
    if (!cuda) return createCpu(method);
    return std::make_unique<FallbackSegmenter>(std::move(cuda), createCpu(method));
}

std::string fallbackNotice(const Segmenter& engine) {
    const auto* wrapper = dynamic_cast<const FallbackSegmenter*>(&engine);
    return wrapper ? wrapper->notice() : std::string();
}

}  // namespace lucent::gpu
