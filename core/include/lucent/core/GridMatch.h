/// @brief Whether two grids hold the same voxel centres, up to axes stored in another order or direction.
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/LabelMap.h"

#include <array>
#include <optional>
#include <string>

namespace lucent {

/// The one "same voxels" tolerance of Lucent: a twentieth of the smallest spacing of `g`, in mm.
/// Large enough for float-rounded affines (NIfTI stores float32), far below anything that would
/// move a voxel, so a mask that passes is placed without any resampling.
double sameVoxelsToleranceMm(const Geometry& g);

/// How a grid's voxels sit on a reference grid that covers the same voxel centres.
struct AxisMap {
    /// Reference axis a is source axis `sourceAxis[a]`...
    std::array<int, 3> sourceAxis{0, 1, 2};
    /// ...run backwards when `reversed[a]` (a file written bottom-up, as dcm2niix writes rows).
    std::array<bool, 3> reversed{false, false, false};
    bool identity() const;
};

/// The axis map from `source` onto `reference` when both grids hold the same voxel centres within
/// `toleranceMm` (dimensions, spacing and positions, any axis order or direction); empty otherwise.
std::optional<AxisMap> matchGrid(const Geometry& source, const Geometry& reference, double toleranceMm);

/// A short account of how `source` differs from `reference` ("dimensions 128x128x62 against
/// 256x256x108"), for the error a refused mask gives.
std::string describeGridDifference(const Geometry& source, const Geometry& reference);

/// `labels` rewritten on `reference` through `map`: an exact reordering of voxels, never a resampling.
LabelMap remapLabels(const LabelMap& labels, const Geometry& reference, const AxisMap& map);

/// The same voxel centres with the j axis (rows) stored the other way round: what dcm2niix writes
/// for a DICOM series, so a mask exported this way lies on a dcm2niix conversion's voxels.
Geometry reverseRows(const Geometry& g);
/// `labels` stored with the rows the other way round (on reverseRows(geometry)).
LabelMap reverseRows(const LabelMap& labels);

}  // namespace lucent
