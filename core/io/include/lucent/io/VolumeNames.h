/// @brief The names of a scan's volumes (`{series}` of a batch, the Python batch's stems) and
/// which volume of an input a document describes.
#pragma once

#include "lucent/core/SeriesInfo.h"
#include "lucent/io/ImageSource.h"

#include <string>
#include <vector>

namespace lucent::io {

/// `{series}` of one volume: its series number and description (a volume file: its name without the
/// suffix); letters, digits, '.' and '-' are kept, every other run of characters is one '_';
/// "series" when nothing is left.
std::string seriesFileName(const SeriesInfo& s);
/// seriesFileName() of every volume, made unique by "_2", "_3", ... in listing order.
std::vector<std::string> seriesFileNames(const std::vector<SeriesInfo>& series);

/// Which volume of an input a document describes, so that each of a batch's documents names its own:
/// `input` is the volume file (PATH itself, or a file found under the folder PATH), or for a DICOM
/// series PATH as given; `series` is the id `lucent info PATH` lists for it and `--series` takes
/// (a SeriesInstanceUID, `UID#2` for a split part, a file's path under the folder).
struct VolumeIdentity {
    std::string input;
    std::string series;
};
/// The identity of volume `index` of `scan`'s listing.
VolumeIdentity identify(const SourceScan& scan, std::size_t index);

}  // namespace lucent::io
