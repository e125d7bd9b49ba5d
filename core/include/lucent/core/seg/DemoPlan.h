/// @brief What `lucent --demo` plays on a volume: a snake on an axial slice, started from a
/// rectangle inside the image, then region growing of the brightest structure (a CT head's skull)
/// from a seed found on that slice. On the CT head it is the README's snake (slice 60, rectangle
/// 40,40,215,215) and the skull.
#pragma once

#include "lucent/core/Volume.h"
#include "lucent/core/seg/SegmentationRequest.h"

namespace lucent {

struct DemoPlan {
    SegmentationRequest snake;    ///< slice 5/9 of the way up, the rectangle 5/32 in from each edge
    SegmentationRequest growing;  ///< the interval [95th percentile, maximum], a seed in it
};

/// The plan for `volume` (requests point at it). Throws std::invalid_argument when the volume has
/// nothing to grow (every voxel alike) or is too small for a snake (under 8 x 8 pixels).
DemoPlan planDemo(const Volume& volume);

}  // namespace lucent
