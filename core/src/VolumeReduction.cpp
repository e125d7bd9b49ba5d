/// @brief reduceVolume: block means on several threads (VolumeReduction.h).
#include "lucent/core/VolumeReduction.h"

#include "lucent/core/ParallelFor.h"

#include <algorithm>
#include <stdexcept>

namespace lucent {

namespace {

/// The mean of the block of cell (ci, cj, ck), over the voxels inside the volume.
double blockMean(const Volume& v, int f, int ci, int cj, int ck) {
    const auto& d = v.geometry().dims;
    const int i0 = ci * f, j0 = cj * f, k0 = ck * f;
    const int i1 = std::min(i0 + f, d[0]), j1 = std::min(j0 + f, d[1]), k1 = std::min(k0 + f, d[2]);
    double sum = 0;
    for (int k = k0; k < k1; ++k)
        for (int j = j0; j < j1; ++j) {
            const std::size_t row = v.geometry().index(0, j, k);
            for (int i = i0; i < i1; ++i) sum += v.value(row + std::size_t(i));
        }
    return sum / double((i1 - i0) * (j1 - j0) * (k1 - k0));
}

}  // namespace

Volume reduceVolume(const Volume& volume, const LabelReduction& plan) {
    if (volume.geometry().dims != plan.fine) throw std::invalid_argument("volume reduction: the plan was made for another grid");
    Volume out(reducedGeometry(volume.geometry(), plan), volume.pixelType());
    out.metadata() = volume.metadata();
    const auto& c = plan.cells;
    parallelFor(std::size_t(c[2]), 0, [&](std::size_t ck) {
        for (int cj = 0; cj < c[1]; ++cj)
            for (int ci = 0; ci < c[0]; ++ci)  // setValue rounds int16 to nearest
                out.setValue(out.geometry().index(ci, cj, int(ck)), blockMean(volume, plan.factor, ci, cj, int(ck)));
    });
    return out;
}

}  // namespace lucent
