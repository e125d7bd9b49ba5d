/// @brief Tolerant dataset loading and DS formatting for the SEG writer and reader.
#include "DicomSegSource.h"

#include "DicomHeaderParser.h"
#include "lucent/core/Errors.h"

#include <dcmtk/dcmdata/dctk.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace lucent::io {

std::unique_ptr<DcmFileFormat> loadDicomDataset(const std::string& file, bool whole) {
    initialiseDcmtk();
    {
        std::ifstream probe(file, std::ios::binary);
        if (!probe) throw IoError(file + ": cannot be opened");
    }
    auto ff = std::make_unique<DcmFileFormat>();
    const Uint32 maxRead = whole ? DCM_MaxReadLength : 4096;
    const OFCondition status =
        ff->loadFile(OFFilename(file.c_str()), EXS_Unknown, EGL_noChange, maxRead, ERM_autoDetect);
    DcmDataset* ds = ff->getDataset();
    if (status.bad() && (!ds || !ds->tagExists(DCM_SOPInstanceUID)))
        throw IoError(file + ": not readable as DICOM (" + status.text() + ")");
    return ff;
}

int sliceAt(const Geometry& g, const Vec3& position, std::string& why) {
    const Vec3 v = g.patientToVoxel(position);
    const double k = std::round(v.z);
    const double off = std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z - k)});
    if (std::isfinite(off) && off <= kSegPositionToleranceVoxels && k >= 0 && k < g.dims[2]) return int(k);
    why = pointText(position);
    why += " is at voxel ";
    why += pointText(v);
    why += " of the grid, not within " + decimalString(kSegPositionToleranceVoxels) + " voxel of a slice origin";
    return -1;
}

std::string decimalString(double v) {
    if (v == 0) return "0";  // never "-0"
    char buf[64];
    for (int digits = 15; digits > 1; --digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::string(buf).size() <= 16) return buf;
    }
    std::snprintf(buf, sizeof buf, "%.1g", v);
    return buf;
}

std::string pointText(const Vec3& v) {
    std::string s = "(";
    s += decimalString(v.x);
    s += ", ";
    s += decimalString(v.y);
    s += ", ";
    s += decimalString(v.z);
    s += ")";
    return s;
}

std::string stringOf(DcmItem& item, const DcmTagKey& tag) {
    OFString v;
    if (item.findAndGetOFStringArray(tag, v).good()) return std::string(v.c_str());
    return {};
}

bool numbersOf(DcmItem& item, const DcmTagKey& tag, double* out, int n) {
    for (int i = 0; i < n; ++i) {
        Float64 v;
        if (item.findAndGetFloat64(tag, v, static_cast<unsigned long>(i)).bad()) return false;
        out[i] = v;
    }
    return true;
}

}  // namespace lucent::io
