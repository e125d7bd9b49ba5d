/// @brief The demo's two requests from the volume's shape and intensities.
#include "lucent/core/seg/DemoPlan.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

namespace lucent {

namespace {

/// The `fraction` quantile of the volume's values, from a sample of at most about a million voxels.
double quantile(const Volume& volume, double fraction) {
    const std::size_t n = volume.voxelCount();
    const std::size_t stride = std::max<std::size_t>(1, n / 1000000);
    std::vector<double> sample;
    sample.reserve(n / stride + 1);
    for (std::size_t i = 0; i < n; i += stride) sample.push_back(volume.value(i));
    const auto at = sample.begin() + std::ptrdiff_t(double(sample.size() - 1) * fraction);
    std::nth_element(sample.begin(), at, sample.end());
    return *at;
}

/// The first voxel of slice k in [lower, upper]: along the middle row from the left (a skull's
/// side), else anywhere on the slice, else anywhere in the volume.
VoxelIndex findSeed(const Volume& v, int k, double lower, double upper) {
    const auto& d = v.geometry().dims;
    const auto inside = [&](int i, int j, int kk) {
        const double x = v.value(i, j, kk);
        return x >= lower && x <= upper;
    };
    for (int i = 0; i < d[0]; ++i)
        if (inside(i, d[1] / 2, k)) return {i, d[1] / 2, k};
    const auto onSlice = [&](int z) -> std::optional<VoxelIndex> {
        for (int j = 0; j < d[1]; ++j)
            for (int i = 0; i < d[0]; ++i)
                if (inside(i, j, z)) return VoxelIndex{i, j, z};
        return std::nullopt;
    };
    if (const auto seed = onSlice(k)) return *seed;
    for (int z = 0; z < d[2]; ++z)
        if (const auto seed = onSlice(z)) return *seed;
    throw std::invalid_argument("the volume has no voxel to grow from");
}

}  // namespace

DemoPlan planDemo(const Volume& volume) {
    const auto& d = volume.geometry().dims;
    if (d[0] < 8 || d[1] < 8) throw std::invalid_argument("the volume's slices are too small for the demo's snake");
    DemoPlan plan;
    plan.snake.volume = &volume;
    plan.snake.snake.slice = d[2] * 5 / 9;
    const int i0 = d[0] * 5 / 32, j0 = d[1] * 5 / 32;
    plan.snake.snake.rect = {i0, j0, d[0] - 1 - i0, d[1] - 1 - j0};
    const auto [lowest, highest] = volume.range();
    const double lower = quantile(volume, 0.95);
    if (!(highest > lowest)) throw std::invalid_argument("every voxel of the volume has the same value: nothing to segment");
    plan.growing.volume = &volume;
    plan.growing.regionGrowing.lower = lower;
    plan.growing.regionGrowing.upper = highest;
    plan.growing.seeds = {findSeed(volume, plan.snake.snake.slice, lower, highest)};
    return plan;
}

}  // namespace lucent
