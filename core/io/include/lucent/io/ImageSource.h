/// @brief One entry point for "what is in this path" and "load that volume": DICOM or volume files.
#pragma once

#include "lucent/core/SeriesInfo.h"
#include "lucent/core/Volume.h"
#include "lucent/io/DicomReader.h"
#include "lucent/io/RawImage.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace lucent::io {

struct SourceListing {
    std::vector<SeriesInfo> series;
    std::vector<std::string> warnings;  ///< about the path as a whole (skipped files)
};

/// What one reading of a path found, kept whole so that the volume chosen from its listing loads
/// without reading the headers again: list, let someone choose, then load. A volume file's voxels
/// are not read by the scan (its header says where they are); load reads them, once.
struct SourceScan {
    std::string path;
    SourceListing listing;
    std::vector<DicomSeries> dicom;      ///< the first listing.series entries: a folder's DICOM series
    std::vector<std::string> volumeFiles;  ///< the entries after them: a folder's volume files
    std::optional<RawImage> volumeFile;  ///< the file's header (no voxels) when `path` is a volume file
    std::size_t filesScanned = 0;        ///< files whose headers were read (DICOM)
};

/// What choose() does with an empty id when a path holds several volumes.
enum class WhenUnnamed {
    Refuse,  ///< an error listing the ids (the CLI: the user must say which)
    Largest  ///< the one with the most voxels, the first of equals (the viewer's scripted open)
};

class ImageSource {
public:
    /// Lists the volumes under `path`: a volume file gives one; a DICOM file gives one per series
    /// (split where a series is not one volume); a folder gives its DICOM series, then its volume
    /// files (id: the path under the folder), whose detached data files are not listed again.
    static SourceListing list(const std::string& path, const DicomOptions& options = {});
    /// Loads the volume whose id (or SeriesInstanceUID) is `seriesId`; empty picks the only one
    /// and is an error when there are several. Warnings about the chosen volume go to `warnings`.
    /// Is scan(), choose(Refuse) and load(scan) in one call.
    static Volume load(const std::string& path, const std::string& seriesId, const DicomOptions& options = {},
                       std::vector<std::string>* warnings = nullptr);
    /// Reads `path` once for list-then-load: the listing and what loading needs. Progress counts a
    /// whole open, this header pass being its first quarter (load() reports the rest), so one bar
    /// covers both passes even with a choice between them. Throws Cancelled when progress says so.
    static SourceScan scan(const std::string& path, const DicomOptions& options = {});
    /// The one series-choice rule: the index in `scan.listing.series` of the volume whose id is
    /// `seriesId`, else the largest part of the series whose SeriesInstanceUID it is (with a
    /// warning); empty picks the only volume, or per `whenUnnamed` when there are several. A volume
    /// file holds one volume whatever the id. Throws IoError when nothing fits, naming the path.
    static std::size_t choose(const SourceScan& scan, const std::string& seriesId, WhenUnnamed whenUnnamed,
                              std::vector<std::string>* warnings = nullptr);
    /// Loads volume `index` of the scan's listing without reading the headers again; progress goes
    /// on from where scan() stopped. Warnings about that volume go to `warnings`.
    static Volume load(const SourceScan& scan, std::size_t index, const DicomOptions& options = {},
                       std::vector<std::string>* warnings = nullptr);
    /// Volumes over time in volume `index`: a 4D file's frames, a multi-temporal DICOM series'
    /// time frames; 1 for a single volume.
    static int frameCount(const SourceScan& scan, std::size_t index);
    /// Every time frame of volume `index` (frameCount() of them), all on one grid and of one pixel
    /// type (float32 for all when one needs it), frame 0 being what load() gives. All are held at
    /// once, so their total is checked against the read limit first. Progress covers the pixels of
    /// every frame, from where scan() stopped; Cancelled when it says so. Warnings as load()'s.
    static std::vector<Volume> loadFrames(const SourceScan& scan, std::size_t index, const DicomOptions& options = {},
                                          std::vector<std::string>* warnings = nullptr);
    /// Writes a listing as `{"series": [...], "warnings": [...]}`.
    static void writeJson(const SourceListing& listing, std::ostream& out);
    /// Writes a listing as readable text.
    static void writeText(const SourceListing& listing, std::ostream& out);
};

}  // namespace lucent::io
