/// @brief What a SEG needs from the DICOM files it is made from or read from (private to lucent_io).
#pragma once

#include "lucent/core/Geometry.h"

#include <dcmtk/dcmdata/dcfilefo.h>

#include <memory>
#include <string>

namespace lucent::io {

/// Tolerances shared by the SEG writer (source slice against the label map's geometry) and the
/// reader (SEG frame against the reference grid), so that what one writes the other reads back.
/// Positions: real headers round ImagePositionPatient (the MR sample to 0.1 mm, drifting by up to
/// a tenth of a voxel from the grid the loader fits), so a frame belongs to slice k when its
/// position is within a fifth of a voxel of slice k's origin along each axis; more is another
/// grid. Orientation and pixel spacing are copied strings, so they must agree closely.
constexpr double kSegPositionToleranceVoxels = 0.2;
constexpr double kSegOrientationTolerance = 1e-4;
constexpr double kSegSpacingTolerance = 1e-4;  ///< relative

/// The slice of `g` whose origin (voxel (0, 0, k)) is within kSegPositionToleranceVoxels of
/// `position` along each axis; -1 when none is, with `why` saying how far off it is.
int sliceAt(const Geometry& g, const Vec3& position, std::string& why);

/// Loads `file`'s dataset without its large values (pixel data stays on disk unless `whole`).
/// Real files carry junk after the dataset (the MR sample ends in 2.4 MB of zeros): what was
/// parsed before the junk is kept when it holds a SOP Instance UID. Throws IoError naming the file.
std::unique_ptr<DcmFileFormat> loadDicomDataset(const std::string& file, bool whole);

/// A decimal string (DICOM DS, at most 16 characters) for `v`, with as many digits as fit.
std::string decimalString(double v);

/// "(x, y, z)" with decimalString's digits, for messages.
std::string pointText(const Vec3& v);

/// The string value of `tag` in `item`, or empty.
std::string stringOf(DcmItem& item, const DcmTagKey& tag);

/// The first `n` numbers of `tag` in `item`; false when absent or short.
bool numbersOf(DcmItem& item, const DcmTagKey& tag, double* out, int n);

}  // namespace lucent::io
