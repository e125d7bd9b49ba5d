/// @brief Slicer's `.seg.nrrd` segment fields (names, colours, label values) as NRRD key/value pairs.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelTable.h"

#include <string>
#include <utility>
#include <vector>

namespace lucent::io {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

/// The fields Slicer writes for a binary-labelmap segmentation with one layer: one SegmentN_ block
/// per label in `values` (ID, name, colour 0..1, label value, layer 0, extent in voxels).
KeyValues slicerSegmentFields(const LabelMap& labels, const LabelTable& table, const std::vector<std::uint8_t>& values);

/// Names and colours from such fields (files of Slicer or of Lucent); unknown or broken fields are
/// skipped: they only name labels, the voxels stand on their own.
void readSlicerSegmentFields(const KeyValues& fields, LabelTable& table);

}  // namespace lucent::io
