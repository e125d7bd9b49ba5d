/// @brief Reads the header of one DICOM file into per-frame records (DCMTK inside, none in the API).
#pragma once

#include "lucent/io/DicomRecords.h"

#include <string>
#include <vector>

namespace lucent::io {

enum class HeaderOutcome { Image, NotDicom, NotImage };

/// Registers the JPEG, JPEG-LS and RLE decoders and quiets DCMTK's log; safe to call often.
void initialiseDcmtk();

/// Parses `file`'s header (pixel data is not read). NotDicom / NotImage: skip quietly.
/// Throws IoError naming the file when it is DICOM but unreadable.
HeaderOutcome parseDicomHeader(const std::string& file, std::vector<DicomFrameHeader>& frames);

}  // namespace lucent::io
