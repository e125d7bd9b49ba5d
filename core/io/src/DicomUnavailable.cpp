/// @brief DicomReader for builds without DCMTK: says so clearly instead of failing obscurely.
#include "lucent/core/Errors.h"
#include "lucent/io/DicomReader.h"

namespace lucent::io {

namespace {
[[noreturn]] void unavailable(const std::string& path) {
    throw IoError(path + ": this build of Lucent has no DICOM support (DCMTK was not found at configure time); "
                         "volume files (.nii, .nii.gz, .mha, .mhd, .nrrd) can be read");
}
}  // namespace

bool DicomReader::available() { return false; }

DicomScanResult DicomReader::scan(const std::string& path, const DicomOptions&) { unavailable(path); }

std::vector<DicomTag> DicomReader::dumpTags(const std::string& file) { unavailable(file); }

Volume DicomReader::load(const DicomSeries& series, const DicomOptions&) {
    unavailable(series.info.files.empty() ? series.info.id : series.info.files.front());
}

}  // namespace lucent::io
