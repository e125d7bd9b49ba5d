/// @brief What `lucent --demo` plays on a volume: a snake on an axial slice, started from a
/// rectangle inside the image, then region growing of a bright structure that is visible on that
/// slice (a CT head's skull, an MR's scalp) from a seed in it. On the CT head it is the README's
/// snake (slice 60, rectangle 40,40,215,215) and the skull.
#pragma once

#include "lucent/core/Volume.h"
#include "lucent/core/seg/SegmentationRequest.h"

namespace lucent {

struct DemoPlan {
    SegmentationRequest snake;    ///< slice 5/9 of the way up, the rectangle 5/32 in from each edge
    /// The interval [q, maximum] for the highest q of the 95th, 90th, 80th, 70th, 50th percentiles
    /// whose largest structure on the snake's slice covers 0.5 % of it (else the largest found), the
    /// seed in that structure: never a lone bright dot.
    SegmentationRequest growing;
};

/// The plan for `volume` (requests point at it). Throws std::invalid_argument when the volume has
/// nothing to grow (every voxel alike) or is too small for a snake (under 8 x 8 pixels).
DemoPlan planDemo(const Volume& volume);

}  // namespace lucent
