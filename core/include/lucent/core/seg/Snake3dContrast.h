/// @brief Whether a 3D snake's surface found a structure's edge: the inside's and the outside's values over
/// the domain (what the region term compares), as counts, sums and sums of squares, and how much of the
/// start box the surface holds; the two tests that say a run found no edge of its own.
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

/// At or above this share of the start box inside the surface, the box lay inside one tissue. A box drawn
/// around a structure, across its edge, leaves its corners and margins outside it: a ball fills pi / 6
/// (52 %) of the box around it, the CT head's lateral ventricle 34 % of the box around its body, and a
/// rounded structure filling 90 % of its box would have to be nearly a box itself. A box inside uniform
/// brain near the skull is held whole (the surface grows to the bone, a real edge, though not the one
/// wanted: 99.96 % of the box 67,69,56,98,100,63).
inline constexpr double kSnake3dBoxHeld = 0.9;

struct Snake3dContrast {
    double insideVoxels = 0, insideSum = 0, insideSquares = 0;  ///< the level set's 1s over the domain
    double domainVoxels = 0, domainSum = 0, domainSquares = 0;  ///< every voxel of the domain
    double boxVoxels = 0, boxInside = 0;  ///< the start box's voxels, and those inside the surface (none without a box)

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
    /// The share of the start box inside the surface (0 without a box).
    double boxShare() const { return boxVoxels > 0 ? boxInside / boxVoxels : 0.0; }
    /// The surface holds (nearly) the whole start box: the box lay inside one tissue (kSnake3dBoxHeld).
    bool holdsTheBox() const { return boxVoxels > 0 && boxShare() >= kSnake3dBoxHeld; }
};

}  // namespace lucent
