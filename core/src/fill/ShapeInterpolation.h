/// @brief The shape on the slices between two labelled slices of one matched group of regions:
/// signed-distance interpolation, the morphological median of Albu et al. (2008), and a region with
/// no partner shrinking to nothing halfway.
#pragma once

#include "PlaneMask.h"
#include "lucent/core/FillMethod.h"

#include <functional>

namespace lucent::fill {

/// Receives the shape of the slice `offset` slices past the first labelled one (1 .. gap - 1).
using EmitShape = std::function<void(int offset, const PlaneMask& shape)>;

/// The shapes between `first` (offset 0) and `last` (offset gap), both non-empty, by `method`.
void interpolatePair(const PlaneMask& first, const PlaneMask& last, int gap, FillMethod method,
                     const PlaneSpacing& spacing, const EmitShape& emit);

/// A region with no overlapping partner on the other labelled slice: eroded in proportion to the
/// distance from its own slice, so that it is gone halfway (at offset gap / 2 and beyond). `atFirst`:
/// the region lies on the first labelled slice (offset 0), else on the last (offset gap).
void vanish(const PlaneMask& region, bool atFirst, int gap, const PlaneSpacing& spacing, const EmitShape& emit);

}  // namespace lucent::fill
