/// @brief A coarse copy of a volume for the 3D pane: the mean of each f x f x f block, on the grid of
/// the label reduction (LabelReduction.h), so that ray casting and its texture cost what the screen
/// shows, not what the volume weighs.
#pragma once

#include "lucent/core/LabelReduction.h"
#include "lucent/core/Volume.h"

namespace lucent {

/// The block means of `volume` by `plan` (made for its dimensions) on reducedGeometry(), in the same
/// pixel type (int16 means rounded to nearest); edge blocks average the voxels they hold. A factor
/// of 1 copies the voxels. The metadata is kept.
Volume reduceVolume(const Volume& volume, const LabelReduction& plan);

}  // namespace lucent
