/// @brief A display window a scan carries (DICOM Window Center / Width with its explanation).
#pragma once

#include <string>

namespace lucent {

/// One VOI window as DICOM stores it: centre and width in rescaled units (HU for CT), and the
/// file's explanation ("BRAIN", "BONE"), empty when the file gives none.
struct NamedWindow {
    double center = 0, width = 1;
    std::string name;

    bool operator==(const NamedWindow&) const = default;
};

}  // namespace lucent
