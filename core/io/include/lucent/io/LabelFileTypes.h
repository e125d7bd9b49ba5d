/// @brief What a label file holds when read, and how one is exported: shared by LabelFile.h and the
/// formats that need more than a volume writer (DICOM SEG, surfaces).
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelTable.h"
#include "lucent/core/Progress.h"
#include "lucent/core/Volume.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lucent::io {

/// A label layer as read from a file: the labels on the reference grid and what they are called.
struct LabelFileContents {
    LabelMap labels;
    LabelTable table;  ///< names and colours the file carried; default entries for the rest
    std::vector<std::string> warnings;
    CoordinateCodes codes;  ///< a NIfTI file's qform / sform codes (1 for other formats)
};

/// What a label export needs besides the labels.
struct LabelExportOptions {
    /// The labels to write (empty: every label with a voxel); others are written as background.
    std::vector<std::uint8_t> labels;
    /// The labels that have a voxel, ascending, when the caller counted them already (`segment`
    /// counts its result): the writer then makes no pass of its own to find them.
    std::optional<std::vector<std::uint8_t>> present;
    /// The DICOM file of each slice of the source series (Volume metadata sliceFiles); empty when
    /// the volume did not come from DICOM. A DICOM SEG needs them; NIfTI then stores rows bottom-up
    /// as dcm2niix does, so the mask lies on the voxels of a dcm2niix conversion of the series.
    std::vector<std::string> sourceSliceFiles;
    bool ras = false;  ///< surfaces in RAS instead of LPS (STL header says which)
    /// A NIfTI output's qform / sform codes: those of the volume (or mask) the labels lie on.
    CoordinateCodes codes;
    ProgressCallback progress;
};

}  // namespace lucent::io
