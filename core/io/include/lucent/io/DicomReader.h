/// @brief Finds DICOM series under a path and loads one into a Volume (DCMTK behind a plain API).
#pragma once

#include "lucent/core/Progress.h"
#include "lucent/core/Volume.h"
#include "lucent/io/DicomRecords.h"

#include <string>
#include <vector>

namespace lucent::io {

struct DicomOptions {
    unsigned threads = 0;          ///< 0: all cores
    ProgressCallback progress;     ///< (files done, files total); return false to cancel
};

struct DicomScanResult {
    std::vector<DicomSeries> series;
    std::vector<std::string> warnings;  ///< files skipped and why
    std::size_t filesScanned = 0;
};

/// One row of a tag browser.
struct DicomTag {
    std::string tag;    ///< "(0010,0010)"
    std::string vr;     ///< "PN"
    std::string name;   ///< "PatientName"
    std::string value;  ///< as text; large values summarised
};

class DicomReader {
public:
    /// False when the build has no DCMTK: scan and load then throw IoError saying so.
    static bool available();
    /// Reads the headers of every file under `path` (a folder, recursively, or one file) in
    /// parallel and assembles the series. Files that are not DICOM images are skipped; broken
    /// DICOM files are named in the warnings. Throws Cancelled when progress returns false.
    static DicomScanResult scan(const std::string& path, const DicomOptions& options = {});
    /// scan() of the given `files` (found under `path`, which the warnings name).
    static DicomScanResult scanFiles(const std::string& path, const std::vector<std::string>& files,
                                     const DicomOptions& options = {});
    /// Decodes the pixel data of every slice in parallel, rescaled to stored units (HU for CT).
    /// Int16 when every value fits, else float32. Throws IoError naming the file on any problem.
    /// A multi-temporal series (series.timeFrames): its first time frame.
    static Volume load(const DicomSeries& series, const DicomOptions& options = {});
    /// Time frame `frame` (0 to timeFrames.size() - 1; 0 for a single volume) of `series`, on the
    /// grid of load(), by load()'s rules. Throws IoError when there is no such frame.
    static Volume loadFrame(const DicomSeries& series, int frame, const DicomOptions& options = {});
    /// Every time frame of `series` (one volume when it has none), all of one pixel type, each file
    /// read once (an enhanced file holding every frame too). All are held at once: their total is
    /// checked against the read limit before any is allocated. Progress counts files.
    static std::vector<Volume> loadFrames(const DicomSeries& series, const DicomOptions& options = {});
    /// Every element of `file` (meta header, dataset, nested items depth-first) for a tag browser.
    static std::vector<DicomTag> dumpTags(const std::string& file);
};

}  // namespace lucent::io
