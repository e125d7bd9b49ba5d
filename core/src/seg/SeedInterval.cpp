/// @brief Seed interval: the seed's tissue in its cube (values within 3 robust noise sigmas), then
/// mean +- max(2.5 SD, 2 % of the range).
#include "lucent/core/seg/SeedInterval.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lucent {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    if (v.size() % 2) return *mid;
    return 0.5 * (*mid + *std::max_element(v.begin(), mid));
}

struct Cube {
    std::vector<double> values;       ///< every voxel of the cube
    std::vector<double> differences;  ///< |face differences| between voxels both in the cube
};

Cube cubeAround(const Volume& volume, const VoxelIndex& s, int r) {
    const auto& d = volume.geometry().dims;
    const int i0 = std::max(0, s.i - r), i1 = std::min(d[0] - 1, s.i + r);
    const int j0 = std::max(0, s.j - r), j1 = std::min(d[1] - 1, s.j + r);
    const int k0 = std::max(0, s.k - r), k1 = std::min(d[2] - 1, s.k + r);
    Cube c;
    for (int k = k0; k <= k1; ++k)
        for (int j = j0; j <= j1; ++j)
            for (int i = i0; i <= i1; ++i) {
                const double v = volume.value(i, j, k);
                c.values.push_back(v);
                if (i < i1) c.differences.push_back(std::abs(v - volume.value(i + 1, j, k)));
                if (j < j1) c.differences.push_back(std::abs(v - volume.value(i, j + 1, k)));
                if (k < k1) c.differences.push_back(std::abs(v - volume.value(i, j, k + 1)));
            }
    return c;
}

}  // namespace

RegionGrowingParams seedInterval(const Volume& volume, const std::vector<VoxelIndex>& seeds,
                                 std::pair<double, double> dataRange) {
    if (seeds.empty()) throw std::invalid_argument("no seed to estimate the interval at");
    const VoxelIndex& s = seeds.front();
    if (!volume.geometry().contains(s.i, s.j, s.k))
        throw std::invalid_argument("the first seed lies outside the volume");
    const Cube cube = cubeAround(volume, s, kSeedIntervalRadius);
    // Robust voxel noise: a face difference of two voxels of one tissue has sqrt 2 times its SD.
    const double noise = 1.4826 * median(cube.differences) / std::sqrt(2.0);
    const double seed = volume.value(s.i, s.j, s.k);
    double sum = 0, sum2 = 0;
    std::size_t n = 0;
    for (double v : cube.values)
        if (std::abs(v - seed) <= 3.0 * noise) {
            sum += v;
            sum2 += v * v;
            ++n;
        }
    const double mean = sum / double(n);  // n >= 1: the seed itself is kept
    const double sd = std::sqrt(std::max(0.0, sum2 / double(n) - mean * mean));
    const double half = std::max(2.5 * sd, 0.02 * (dataRange.second - dataRange.first));
    RegionGrowingParams p;
    p.lower = std::floor(mean - half);
    p.upper = std::ceil(mean + half);
    return p;
}

}  // namespace lucent
