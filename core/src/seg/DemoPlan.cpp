/// @brief The demo's two requests from the volume's shape and intensities.
#include "lucent/core/seg/DemoPlan.h"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <vector>

namespace lucent {

namespace {

/// The quantiles tried for the interval's lower bound, brightest first: a CT head's skull is in the
/// top 5 %; an MR's top 5 % may be scattered bright dots (vessels, noise), so the rule steps down
/// until the structure it grows is visible.
constexpr std::array kQuantiles{0.95, 0.90, 0.80, 0.70, 0.50};
/// A structure is visible when its cut through the demo's slice covers this share of the slice.
constexpr double kVisibleShare = 0.005;

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

/// The largest 4-connected component of slice k's pixels in [lower, upper]: its size and the seed
/// to grow it from (its first pixel along the middle row from the left, a skull's side, else its
/// first pixel). A component on the slice lies inside the 3D region grown from any of its pixels.
struct SliceComponent {
    std::size_t pixels = 0;
    VoxelIndex seed{};
};

SliceComponent largestOnSlice(const Volume& v, int k, double lower, double upper) {
    const int nx = v.geometry().dims[0], ny = v.geometry().dims[1];
    std::vector<int> component(std::size_t(nx) * std::size_t(ny), -1);
    const auto inside = [&](int i, int j) {
        const double x = v.value(i, j, k);
        return x >= lower && x <= upper;
    };
    SliceComponent best;
    std::vector<int> stack;
    int count = 0;
    for (int start = 0; start < nx * ny; ++start) {
        if (component[std::size_t(start)] >= 0 || !inside(start % nx, start / nx)) continue;
        std::size_t size = 0;
        std::optional<int> onMiddleRow;
        component[std::size_t(start)] = count;
        stack.assign(1, start);
        while (!stack.empty()) {
            const int p = stack.back();
            stack.pop_back();
            ++size;
            const int i = p % nx, j = p / nx;
            if (j == ny / 2 && (!onMiddleRow || p < *onMiddleRow)) onMiddleRow = p;
            const std::array<std::array<int, 2>, 4> next{{{i - 1, j}, {i + 1, j}, {i, j - 1}, {i, j + 1}}};
            for (const auto& [a, b] : next) {
                if (a < 0 || b < 0 || a >= nx || b >= ny) continue;
                const int q = b * nx + a;
                if (component[std::size_t(q)] >= 0 || !inside(a, b)) continue;
                component[std::size_t(q)] = count;
                stack.push_back(q);
            }
        }
        ++count;
        if (size > best.pixels) {
            const int p = onMiddleRow.value_or(start);
            best = {size, VoxelIndex{p % nx, p / nx, k}};
        }
    }
    return best;
}

/// The first voxel of the volume in [lower, upper] (a slice with none of the interval's values).
VoxelIndex firstInVolume(const Volume& v, double lower, double upper) {
    for (std::size_t i = 0; i < v.voxelCount(); ++i) {
        const double x = v.value(i);
        if (x >= lower && x <= upper) {
            const auto& d = v.geometry().dims;
            const std::size_t slice = std::size_t(d[0]) * std::size_t(d[1]);
            return {int(i % std::size_t(d[0])), int(i % slice / std::size_t(d[0])), int(i / slice)};
        }
    }
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
    if (!(highest > lowest)) throw std::invalid_argument("every voxel of the volume has the same value: nothing to segment");
    plan.growing.volume = &volume;
    plan.growing.regionGrowing.upper = highest;
    const int k = plan.snake.snake.slice;
    const double visible = kVisibleShare * double(d[0]) * double(d[1]);
    SliceComponent best;
    for (const double fraction : kQuantiles) {
        const double lower = quantile(volume, fraction);
        const SliceComponent found = largestOnSlice(volume, k, lower, highest);
        if (found.pixels > best.pixels) {
            best = found;
            plan.growing.regionGrowing.lower = lower;
        }
        if (best.pixels >= visible) break;
    }
    if (best.pixels == 0) {
        plan.growing.regionGrowing.lower = quantile(volume, kQuantiles.front());
        plan.growing.seeds = {firstInVolume(volume, plan.growing.regionGrowing.lower, highest)};
    } else {
        plan.growing.seeds = {best.seed};
    }
    return plan;
}

}  // namespace lucent
