/// @brief Transfer-function presets of the 3D view (CT bone, CT soft tissue, MR, none).
#pragma once

#include <string>
#include <vector>

namespace lucent::render {

/// How the volume is shown in 3D; None hides it (labels and surfaces alone).
enum class Preset3D { CtBone, CtSoftTissue, Mr, None };

/// "ct-bone", "ct-soft", "mr", "none".
const char* preset3DName(Preset3D preset);
/// "CT bone", ... for menus.
const char* preset3DLabel(Preset3D preset);
/// Name -> preset; false for an unknown name.
bool parsePreset3D(const std::string& name, Preset3D& preset);
/// Every preset, in menu order.
const std::vector<Preset3D>& presets3D();
/// The preset a volume gets first: CT bone for CT, MR for other modalities. Volume files name no
/// modality: without one, a volume whose smallest value is air in HU (<= -900) counts as CT.
Preset3D defaultPreset3D(const std::string& modality, double minValue = 0);

/// One control point of a transfer function: at `value` the colour `rgb` and opacity `alpha`
/// (opacity per millimetre of ray, as VTK's unit distance of 1 mm).
struct TransferPoint {
    double value = 0;
    double rgb[3] = {0, 0, 0};
    double alpha = 0;
};

/// The control points of `preset` for a volume whose robust value range is [lo, hi] (MR presets
/// scale with it; CT presets are in HU and ignore it). Empty for None.
std::vector<TransferPoint> transferPoints(Preset3D preset, double lo, double hi);

}  // namespace lucent::render
