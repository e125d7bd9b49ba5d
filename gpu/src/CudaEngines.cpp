/// @brief The CUDA engines this build has.
#include "FuzzyCMeansCuda.h"
#include "FuzzyConnectednessCuda.h"
#include "GrowCutCuda.h"
#include "RegionGrowingCuda.h"
#include "Snake3dCuda.h"
#include "SnakeCuda.h"

namespace lucent::gpu {

std::unique_ptr<Segmenter> createCuda(Method method, std::shared_ptr<GpuContext> context) {
    switch (method) {
    case Method::RegionGrowing: return std::make_unique<RegionGrowingCuda>(std::move(context));
    case Method::FuzzyConnectedness: return std::make_unique<FuzzyConnectednessCuda>(std::move(context));
    case Method::FuzzyCMeans: return std::make_unique<FuzzyCMeansCuda>(std::move(context));
    case Method::Snake: return std::make_unique<SnakeCuda>(std::move(context));
    case Method::Snake3d: return std::make_unique<Snake3dCuda>(std::move(context));
    case Method::GrowCut: return std::make_unique<GrowCutCuda>(std::move(context));
    default: return nullptr;
    }
}

}  // namespace lucent::gpu
