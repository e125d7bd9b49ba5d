/// @brief backgroundCluster: the faces' votes for their nearest centre (BackgroundCluster.h).
#include "lucent/core/seg/BackgroundCluster.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace lucent {

namespace {

std::size_t nearestCentre(double value, const std::vector<double>& centres) {
    std::size_t best = 0;
    for (std::size_t c = 1; c < centres.size(); ++c)
        if (std::abs(value - centres[c]) < std::abs(value - centres[best])) best = c;
    return best;
}

}  // namespace

std::optional<int> backgroundCluster(const Volume& volume, const std::vector<double>& centres) {
    if (centres.size() < 2 || volume.voxelCount() == 0) return std::nullopt;
    const auto& d = volume.geometry().dims;
    std::vector<std::size_t> votes(centres.size(), 0);
    std::size_t total = 0;
    const auto vote = [&](int i, int j, int k) {
        ++votes[nearestCentre(volume.value(i, j, k), centres)];
        ++total;
    };
    // Each face voxel once: the k faces whole, the j faces without their k rows, the i faces
    // without their j and k rows.
    for (int k : {0, d[2] - 1}) {
        for (int j = 0; j < d[1]; ++j)
            for (int i = 0; i < d[0]; ++i) vote(i, j, k);
        if (d[2] == 1) break;
    }
    for (int k = 1; k < d[2] - 1; ++k) {
        for (int j : {0, d[1] - 1}) {
            for (int i = 0; i < d[0]; ++i) vote(i, j, k);
            if (d[1] == 1) break;
        }
        for (int j = 1; j < d[1] - 1; ++j)
            for (int i : {0, d[0] - 1}) {
                vote(i, j, k);
                if (d[0] == 1) break;
            }
    }
    const auto most = std::max_element(votes.begin(), votes.end());
    if (double(*most) <= kBackgroundFaceShare * double(total)) return std::nullopt;
    return int(most - votes.begin()) + 1;
}

}  // namespace lucent
