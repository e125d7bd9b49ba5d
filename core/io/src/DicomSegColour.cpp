/// @brief sRGB <-> DICOM 16-bit CIELab for segment colours, through DCMTK's IODCIELabUtil.
#include "lucent/io/DicomSeg.h"

#include <dcmtk/dcmiod/cielabutil.h>

#include <algorithm>
#include <cmath>

namespace lucent::io {

namespace {
template <typename T>
T roundClamped(double v, double hi) {
    return static_cast<T>(std::lround(std::clamp(v, 0.0, hi)));
}
}  // namespace

std::array<std::uint16_t, 3> rgbToDicomLab(const std::array<std::uint8_t, 3>& rgb) {
    double l = 0, a = 0, b = 0;
    IODCIELabUtil::rgb2DicomLab(l, a, b, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
    return {roundClamped<std::uint16_t>(l, 65535), roundClamped<std::uint16_t>(a, 65535),
            roundClamped<std::uint16_t>(b, 65535)};
}

std::array<std::uint8_t, 3> dicomLabToRgb(const std::array<std::uint16_t, 3>& lab) {
    double r = 0, g = 0, b = 0;
    IODCIELabUtil::dicomLab2RGB(r, g, b, lab[0], lab[1], lab[2]);
    return {roundClamped<std::uint8_t>(r * 255.0, 255), roundClamped<std::uint8_t>(g * 255.0, 255),
            roundClamped<std::uint8_t>(b * 255.0, 255)};
}

}  // namespace lucent::io
