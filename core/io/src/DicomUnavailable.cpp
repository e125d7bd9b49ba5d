/// @brief DicomReader for builds without DCMTK: says so clearly instead of failing obscurely.
#include "lucent/core/Errors.h"
#include "lucent/io/DicomReader.h"

namespace lucent::io {

bool DicomReader::available() { return false; }

DicomScanResult DicomReader::scan(const std::string& path, const DicomOptions&) {
    throw IoError(path + ": this build of Lucent has no DICOM support (DCMTK was not found at configure time); "
                         "volume files (.nii, .nii.gz, .mha, .mhd, .nrrd) can be read");
}

std::vector<DicomTag> DicomReader::dumpTags(const std::string& file) {
    scan(file, {});
    return {};
}

Volume DicomReader::load(const DicomSeries& series, const DicomOptions& options) {
    return scan(series.info.files.empty() ? series.info.id : series.info.files.front(), options), Volume{};
}

}  // namespace lucent::io
