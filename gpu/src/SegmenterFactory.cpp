/// @brief Engine selection. The CUDA engines are the next step of the GPU layer; until one exists for
/// a method, auto gives the CPU engine and an explicit cuda request is refused with the reason.
#include "lucent/gpu/SegmenterFactory.h"

#include "lucent/core/seg/FuzzyCMeansCpu.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/core/seg/SnakeCpu.h"
#include "lucent/gpu/DeviceInfo.h"

#include <stdexcept>

namespace lucent::gpu {

Backend parseBackend(const std::string& name) {
    if (name == "auto") return Backend::Auto;
    if (name == "cpu") return Backend::Cpu;
    if (name == "cuda") return Backend::Cuda;
    throw std::invalid_argument("backend must be auto, cpu or cuda, not '" + name + "'");
}

Method parseMethod(const std::string& name) {
    if (name == "srg") return Method::RegionGrowing;
    if (name == "fc") return Method::FuzzyConnectedness;
    if (name == "fcm") return Method::FuzzyCMeans;
    if (name == "snake") return Method::Snake;
    throw std::invalid_argument("method must be srg, fc, fcm or snake, not '" + name + "'");
}

namespace {
std::unique_ptr<Segmenter> createCpu(Method method) {
    switch (method) {
    case Method::RegionGrowing: return std::make_unique<RegionGrowingCpu>();
    case Method::FuzzyConnectedness: return std::make_unique<FuzzyConnectednessCpu>();
    case Method::FuzzyCMeans: return std::make_unique<FuzzyCMeansCpu>();
    case Method::Snake: return std::make_unique<SnakeCpu>();
    }
    throw std::invalid_argument("unknown method");
}
}  // namespace

std::unique_ptr<Segmenter> createSegmenter(Method method, Backend backend) {
    if (backend == Backend::Cuda) {
        if (!cudaCompiledIn()) throw std::invalid_argument("backend cuda: this build has no CUDA support");
        if (listDevices().empty()) throw std::invalid_argument("backend cuda: no CUDA device or driver found");
        throw std::invalid_argument(std::string("backend cuda: no CUDA engine for ") + methodName(method) +
                                    " yet (use --backend cpu or auto)");
    }
    return createCpu(method);
}

}  // namespace lucent::gpu
