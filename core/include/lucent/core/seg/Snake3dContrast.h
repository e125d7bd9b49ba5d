/// @brief Whether a 3D snake's surface sets its inside apart from its surroundings: the inside's and the
/// outside's values over the domain (what the region term compares), as counts, sums and sums of
/// squares, and the test that says a run found no edge to stop at.
#pragma once

#include <algorithm>
#include <cmath>

namespace lucent {

/// Below this separation (|mean inside - mean outside| / standard deviation inside) a run found no edge.
/// With the outside's mean less than one of the inside's standard deviations away, the region the run
/// grew is not set apart by its values: the region term moves the surface by noise, and it stops at the
/// box or the domain's edge, not at a structure's. The inside's own spread is the measure, not a pooled
/// one: the outside is everything else in the domain (bone and air around a brain box), whose spread says
/// nothing about the structure. On the CT head a box around a lateral ventricle separates by 2.8, boxes
/// inside uniform brain by 0.6 to 1.0 (core/README.md, the 3D snake).
inline constexpr double kSnake3dLeastSeparation = 1.0;

struct Snake3dContrast {
    double insideVoxels = 0, insideSum = 0, insideSquares = 0;  ///< the level set's 1s over the domain
    double domainVoxels = 0, domainSum = 0, domainSquares = 0;  ///< every voxel of the domain

    double meanInside() const { return insideVoxels > 0 ? insideSum / insideVoxels : 0.0; }
    double meanOutside() const {
        const double n = domainVoxels - insideVoxels;
        return n > 0 ? (domainSum - insideSum) / n : 0.0;
    }
    double sdInside() const {
        if (insideVoxels < 2) return 0.0;
        const double m = meanInside();
        return std::sqrt(std::max(0.0, (insideSquares - insideVoxels * m * m) / (insideVoxels - 1)));
    }
    /// |mean inside - mean outside| in standard deviations of the inside (infinite for a constant inside
    /// that differs from the outside; 0 with an empty inside or outside).
    double separation() const {
        if (insideVoxels < 1 || domainVoxels - insideVoxels < 1) return 0.0;
        const double gap = std::abs(meanInside() - meanOutside()), sd = sdInside();
        return sd > 0 ? gap / sd : (gap > 0 ? INFINITY : 0.0);
    }
    /// The run's surface sets its inside apart from its surroundings (kSnake3dLeastSeparation).
    bool separates() const { return separation() >= kSnake3dLeastSeparation; }
};

}  // namespace lucent
