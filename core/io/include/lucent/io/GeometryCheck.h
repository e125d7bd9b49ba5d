/// @brief One sanity check of image geometry for every reader (DICOM, NIfTI, NRRD, MetaImage).
#pragma once

#include "lucent/core/Geometry.h"

#include <string>
#include <vector>

namespace lucent::io {

/// Checks the geometry read from `source`. What has one sensible reading is repaired, and a
/// warning saying what was assumed is added to `warnings` (never silently):
/// - a spacing of 0: 1 mm; a negative spacing: its magnitude, with that axis reversed;
/// - an axis without a direction (zero length): perpendicular to the other two;
/// - an axis direction that is not unit length: normalised (quietly within 1e-3, float rounding);
/// - axes that are parallel (not independent): the identity (axial) orientation;
/// - independent axes that are not perpendicular: kept (a sheared grid), with a warning.
/// What has no sensible reading throws IoError naming `source`, the value and what was expected:
/// a dimension below 1, a spacing, direction or origin value that is not finite, a spacing
/// magnitude outside 1e-6..1e6 mm.
void checkGeometry(Geometry& g, const std::string& source, std::vector<std::string>& warnings);

}  // namespace lucent::io
