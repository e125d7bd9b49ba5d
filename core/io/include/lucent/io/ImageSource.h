/// @brief One entry point for "what is in this path" and "load that volume": DICOM or volume files.
#pragma once

#include "lucent/core/SeriesInfo.h"
#include "lucent/core/Volume.h"
#include "lucent/io/DicomReader.h"

#include <ostream>
#include <string>
#include <vector>

namespace lucent::io {

struct SourceListing {
    std::vector<SeriesInfo> series;
    std::vector<std::string> warnings;  ///< about the path as a whole (skipped files)
};

class ImageSource {
public:
    /// Lists the volumes under `path`: a volume file gives one; a DICOM file or folder gives one
    /// per series (split where a series is not one volume).
    static SourceListing list(const std::string& path, const DicomOptions& options = {});
    /// Loads the volume whose id (or SeriesInstanceUID) is `seriesId`; empty picks the only one
    /// and is an error when there are several. Warnings about the chosen volume go to `warnings`.
    static Volume load(const std::string& path, const std::string& seriesId, const DicomOptions& options = {},
                       std::vector<std::string>* warnings = nullptr);
    /// Writes a listing as `{"series": [...], "warnings": [...]}`.
    static void writeJson(const SourceListing& listing, std::ostream& out);
    /// Writes a listing as readable text.
    static void writeText(const SourceListing& listing, std::ostream& out);
};

}  // namespace lucent::io
