/// @brief The text around a slice view (name, orientation letters, slice, scale bar, window) that
/// the geometry alone does not know, and the scale bar's rounding rule.
#pragma once

#include <string>

namespace lucent::render {

/// Inputs of the view annotations besides the geometry, filled by the ui each frame.
struct ViewAnnotations {
    bool hasVolume = false;
    double windowLevel = 40;   ///< shown as "L .."
    double windowWidth = 400;  ///< shown as "W .."
    /// Shown in the middle of a view without a volume (lines separated by '\n').
    std::string emptyHint = "Open a DICOM folder or a volume file\n(File menu or drag and drop)";
};

/// The scale bar's length in mm: the largest of 1, 2, 5, 10, ..., 500 mm not longer than a fifth of
/// `viewWidth` (pixels) at `pixelsPerMm`, and at least 1 mm; 0 when pixelsPerMm is not positive.
double scaleBarMm(double viewWidth, double pixelsPerMm);

}  // namespace lucent::render
