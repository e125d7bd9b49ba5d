/// @brief Reads the header of one DICOM file into per-frame records (DCMTK inside, none in the API).
#pragma once

#include "lucent/io/DicomRecords.h"

#include <string>
#include <vector>

namespace lucent::io {

/// Segmentation: a DICOM SEG (our own exports often sit in the series folder); skipped, and named.
enum class HeaderOutcome { Image, NotDicom, NotImage, Segmentation };

/// Registers the JPEG, JPEG-LS and RLE decoders and quiets DCMTK's log; safe to call often.
void initialiseDcmtk();

/// Parses `file`'s header (pixel data is not read). NotDicom / NotImage: skip quietly.
/// Segmentation: skip with a word (it has pixel data, but labels, not an image of the series).
/// Throws IoError naming the file when it is DICOM but unreadable.
HeaderOutcome parseDicomHeader(const std::string& file, std::vector<DicomFrameHeader>& frames);

}  // namespace lucent::io
