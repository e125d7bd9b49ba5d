/// @brief The label formats that need more than a volume writer: DICOM SEG (DCMTK) and surfaces (VTK).
#pragma once

#include "lucent/io/LabelFileTypes.h"

namespace lucent::io {

/// DICOM SEG referencing options.sourceSliceFiles, one segment per value of `values`.
void writeSegFile(const LabelMap& labels, const LabelTable& table, const std::vector<std::uint8_t>& values,
                  const std::string& path, const LabelExportOptions& options);
/// A DICOM SEG placed onto `reference`, its segment names and colours into out.table.
void readSegFile(const std::string& path, const Geometry& reference, LabelFileContents& out);
/// STL (one merged solid) or OBJ (one object per label) surfaces of `values`, in patient mm.
void writeSurfaces(const LabelMap& labels, const LabelTable& table, const std::vector<std::uint8_t>& values,
                   const std::string& path, const LabelExportOptions& options);

}  // namespace lucent::io
