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

/// The header of a volume file alone: geometry (checked), scalar type, frames, rescale, data files
/// and where the voxels are (`source`); `bytes` stays empty. Reads the header's bytes (a .nii.gz:
/// inflates its 348) and no voxel, so listing a file costs the same at any size. The sizes are
/// checked against the read limit and the data's length (IoError naming the file).
RawImage readRawImageHeader(const std::string& path);
/// Header and every frame's voxels.
RawImage readRawImage(const std::string& path);
/// Writes atomically in the format the extension names; IoError on failure, nothing left behind.
void writeRawImage(const RawImage& image, const std::string& path);

/// The layout of everything Lucent writes for one input (convert's volume, segment's masks,
/// memberships and connectivity maps, export, the viewer's label export), so that within one format
/// every output of one input has the same dimensions, voxel order and affine and a mask overlays its
/// image voxel for voxel.
struct OutputLayout {
    bool dicomSeries = false;  ///< the input was a DICOM series (its Volume metadata lists sliceFiles)
    CoordinateCodes codes;     ///< the input's NIfTI qform / sform codes (its space: scanner, MNI-152, ...)
    static OutputLayout of(const Volume& input) {
        return {!input.metadata().sliceFiles.empty(), input.metadata().codes};
    }
};

/// The one layout rule, applied by every writer below and by writeLabelFile: a NIfTI output of a
/// DICOM series stores its rows bottom-up, as dcm2niix stores the series (same dimensions and affine
/// as a dcm2niix conversion); anything else is stored as loaded. World positions never change, nor
/// the space a NIfTI names them in (the input's qform and sform codes).
RawImage inOutputLayout(RawImage image, const std::string& path, OutputLayout layout);

/// Frame 0 of a volume file, read straight into the volume (readVolume: RawImage.h).
Volume readVolumeFile(const std::string& path);
/// The same from a header already read (readRawImageHeader(path)): the header is not parsed again.
Volume readVolumeFile(const RawImage& header, const std::string& path);
/// Writes `volume` in the layout of its own input (OutputLayout::of(volume)).
void writeVolumeFile(const Volume& volume, const std::string& path);
/// Writes `volume` (a result on the grid of `layout`'s input, such as a connectivity map).
void writeVolumeFile(const Volume& volume, const std::string& path, OutputLayout layout);
/// Writes same-grid float volumes as one 4D file (NIfTI, MetaImage or NRRD), frame f = volumes[f],
/// in the layout of the input they were computed from.
void writeVolumeFrames(const std::vector<Volume>& volumes, const std::string& path, OutputLayout layout);
/// As above, in the layout of volumes.front()'s own input.
void writeVolumeFrames(const std::vector<Volume>& volumes, const std::string& path);
LabelMap readLabelMapFile(const std::string& path);
/// Writes labels as stored (no layout rule: writeLabelFile is the export that applies it).
void writeLabelMapFile(const LabelMap& labels, const std::string& path);

}  // namespace lucent::io
