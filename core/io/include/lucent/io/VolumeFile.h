/// @brief Reads and writes volumes and label maps in any supported file format, chosen by extension.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/Volume.h"
#include "lucent/io/RawImage.h"

#include <string>
#include <vector>

namespace lucent::io {

/// True for .nii, .nii.gz, .mha, .mhd, .nrrd, .nhdr (case-insensitive).
bool isVolumeFileName(const std::string& path);
/// The format's name for reports ("NIfTI-1", "MetaImage", "NRRD"); empty when not a volume file.
std::string volumeFormatName(const std::string& path);

RawImage readRawImage(const std::string& path);
/// Writes atomically in the format the extension names; IoError on failure, nothing left behind.
void writeRawImage(const RawImage& image, const std::string& path);

Volume readVolumeFile(const std::string& path);
void writeVolumeFile(const Volume& volume, const std::string& path);
/// Writes same-grid float volumes as one 4D file (NIfTI, MetaImage or NRRD), frame f = volumes[f].
void writeVolumeFrames(const std::vector<Volume>& volumes, const std::string& path);
LabelMap readLabelMapFile(const std::string& path);
void writeLabelMapFile(const LabelMap& labels, const std::string& path);

}  // namespace lucent::io
