/// @brief Label layers on disk in every format Lucent exchanges, read back onto the volume's own grid.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelTable.h"
#include "lucent/core/Progress.h"
#include "lucent/core/Volume.h"
#include "lucent/io/LabelFileTypes.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lucent::io {

/// Reads the label file at `path` (NIfTI, NRRD with Slicer's segment fields, MetaImage, DICOM SEG) onto
/// `reference`. A file that holds the same voxel centres with its axes in another order or direction
/// (a NIfTI written bottom-up, as dcm2niix writes) is reordered exactly; any other grid is an IoError
/// naming the file and the difference: a mask is never resampled.
LabelFileContents readLabelFile(const std::string& path, const Geometry& reference);

/// Reads a label volume file (NIfTI, NRRD, MetaImage) on its own grid, voxels in the order stored, so
/// that writing the result back with writeLabelFile keeps the file's dimensions, voxel order and
/// affine. IoError naming the file when it cannot be read or is no label map (a value that is not an
/// integer in 0..255).
LabelFileContents readLabelVolumeFile(const std::string& path);


/// True when the name ends in an extension writeLabelFile knows: .nii .nii.gz .nrrd .mha .mhd .dcm .stl .obj.
bool isLabelExportName(const std::string& path);

/// Writes the label layer in the format the extension names, atomically (a failure leaves no file and
/// keeps an existing one). IoError when a chosen label has no voxel, when a DICOM SEG is asked for
/// without source files, or on any write failure, naming the file.
void writeLabelFile(const LabelMap& labels, const LabelTable& table, const std::string& path,
                    const LabelExportOptions& options);

/// The label values that have at least one voxel, ascending.
std::vector<std::uint8_t> presentLabels(const LabelMap& labels);

/// Grow from seeds' seeds: the label file at `path` read onto `reference` by readLabelFile's placement
/// rule (another grid is an IoError naming the file) into `seeds`; the voxels of each label present,
/// ascending (empty when every voxel is 0: the caller says so in its own terms).
std::vector<std::pair<int, std::size_t>> readSeedLabels(const std::string& path, const Geometry& reference,
                                                         LabelMap& seeds);

}  // namespace lucent::io
