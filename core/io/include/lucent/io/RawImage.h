/// @brief An image as a file holds it (RawLayout.h) converted to and from Volume and LabelMap.
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/LabelMap.h"
#include "lucent/core/Volume.h"
#include "lucent/io/ByteFile.h"
#include "lucent/io/RawLayout.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lucent::io {

/// Frame 0 as a Volume: int16 when every value is an integer that fits, else float32.
/// `source` names the file in error messages.
Volume toVolume(const RawImage& raw, const std::string& source);
/// Frame 0 of the file `header` (a header pass, readHeader) describes, read straight into the
/// volume's buffer: large reads on all cores (or one inflating stream), byte order and scalar type
/// converted in place on all cores; toVolume()'s type rule. `file` is the open header file.
Volume readVolume(const RawImage& header, ByteFile& file);
/// Frame `frame` (0 to frames-1) of a 4D image as a Volume, by toVolume()'s rules.
Volume toVolumeFrame(const RawImage& raw, int frame, const std::string& source);
/// Frame 0 as labels; throws IoError naming `source` unless every value is an integer in 0..255.
LabelMap toLabelMap(const RawImage& raw, const std::string& source);
/// The volume as a file image borrowing its voxels (no copy): `volume` must outlive the result.
RawImage fromVolume(const Volume& volume);
/// The labels as a uint8 file image borrowing them (no copy): `labels` must outlive the result.
RawImage fromLabelMap(const LabelMap& labels);

}  // namespace lucent::io
