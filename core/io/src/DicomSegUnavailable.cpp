/// @brief DICOM SEG for builds without DCMTK: every call says clearly that DICOM is not built in.
#include "lucent/core/Errors.h"
#include "lucent/io/DicomSeg.h"

namespace lucent::io {

namespace {
[[noreturn]] void unavailable(const std::string& path) {
    throw IoError(path +
                  ": this build of Lucent has no DICOM support (DCMTK was not found at configure time); "
                  "DICOM SEG files can be neither written nor read");
}
}  // namespace

void writeDicomSeg(const LabelMap&, const std::vector<std::string>&, const std::vector<SegmentInfo>&,
                   const std::string& path) {
    unavailable(path);
}

SegImport readDicomSeg(const std::string& path, const Geometry&) { unavailable(path); }

bool isDicomSegFile(const std::string&) { return false; }

std::array<std::uint16_t, 3> rgbToDicomLab(const std::array<std::uint8_t, 3>&) { unavailable("CIELab colour"); }

std::array<std::uint8_t, 3> dicomLabToRgb(const std::array<std::uint16_t, 3>&) { unavailable("CIELab colour"); }

}  // namespace lucent::io
