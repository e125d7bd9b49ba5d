/// @brief DicomReader for builds without DCMTK: says so clearly instead of failing obscurely.
#include "lucent/core/Errors.h"
#include "lucent/io/DicomReader.h"
#include "lucent/io/FileUtil.h"

#include <filesystem>

namespace lucent::io {

namespace {
[[noreturn]] void unavailable(const std::string& path) {
    throw IoError(path + ": this build of Lucent has no DICOM support (DCMTK was not found at configure time); "
                         "volume files (.nii, .nii.gz, .mha, .mhd, .nrrd) can be read");
}
}  // namespace

bool DicomReader::available() { return false; }

DicomScanResult DicomReader::scan(const std::string& path, const DicomOptions&) {
    // What is wrong with the path itself comes first, in every build: a missing file, a FIFO.
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec))
        if (const std::string why = whyNotRegularFile(path); !why.empty()) throw IoError(why);
    unavailable(path);
}

DicomScanResult DicomReader::scanFiles(const std::string& path, const std::vector<std::string>& files,
                                       const DicomOptions&) {
    // A folder's volume files are read without DCMTK: the other files are only named.
    DicomScanResult result;
    if (!files.empty())
        result.warnings.push_back(std::to_string(files.size()) + " file(s) under " + path +
                                  " were not read: this build of Lucent has no DICOM support");
    return result;
}

std::vector<DicomTag> DicomReader::dumpTags(const std::string& file) { unavailable(file); }

Volume DicomReader::load(const DicomSeries& series, const DicomOptions&) {
    unavailable(series.info.files.empty() ? series.info.id : series.info.files.front());
}

Volume DicomReader::loadFrame(const DicomSeries& series, int, const DicomOptions&) {
    unavailable(series.info.files.empty() ? series.info.id : series.info.files.front());
}

std::vector<Volume> DicomReader::loadFrames(const DicomSeries& series, const DicomOptions&) {
    unavailable(series.info.files.empty() ? series.info.id : series.info.files.front());
}

}  // namespace lucent::io
