/// @brief The 3D presets' transfer functions: CT in Hounsfield units, MR scaled from the data range.
#include "lucent/render/Preset3D.h"

namespace lucent::render {

const char* preset3DName(Preset3D preset) {
    switch (preset) {
    case Preset3D::CtBone: return "ct-bone";
    case Preset3D::CtSoftTissue: return "ct-soft";
    case Preset3D::Mr: return "mr";
    case Preset3D::None: return "none";
    }
    return "none";
}

const char* preset3DLabel(Preset3D preset) {
    switch (preset) {
    case Preset3D::CtBone: return "CT bone";
    case Preset3D::CtSoftTissue: return "CT soft tissue";
    case Preset3D::Mr: return "MR";
    case Preset3D::None: return "None (labels only)";
    }
    return "";
}

bool parsePreset3D(const std::string& name, Preset3D& preset) {
    for (Preset3D p : presets3D())
        if (name == preset3DName(p)) {
            preset = p;
            return true;
        }
    return false;
}

const std::vector<Preset3D>& presets3D() {
    static const std::vector<Preset3D> all{Preset3D::CtBone, Preset3D::CtSoftTissue, Preset3D::Mr, Preset3D::None};
    return all;
}

Preset3D defaultPreset3D(const std::string& modality, double minValue) {
    if (modality.empty()) return minValue <= -900 ? Preset3D::CtBone : Preset3D::Mr;
    return modality == "CT" ? Preset3D::CtBone : Preset3D::Mr;
}

std::vector<TransferPoint> transferPoints(Preset3D preset, double lo, double hi) {
    switch (preset) {
    case Preset3D::CtBone:
        // Nothing below cancellous bone, so the skull is not hidden behind skin and brain.
        return {{-1024, {0, 0, 0}, 0},          {150, {0.55, 0.35, 0.25}, 0},   {250, {0.85, 0.72, 0.55}, 0.35},
                {600, {0.95, 0.9, 0.8}, 0.85}, {3071, {1, 1, 1}, 0.9}};
    case Preset3D::CtSoftTissue:
        // Fat faint yellow, muscle and organs red and translucent, bone pale and nearly opaque.
        return {{-1024, {0, 0, 0}, 0},       {-400, {0, 0, 0}, 0},           {-100, {0.75, 0.65, 0.35}, 0.01},
                {20, {0.8, 0.35, 0.3}, 0.08}, {120, {0.9, 0.45, 0.4}, 0.12}, {300, {0.95, 0.9, 0.82}, 0.6},
                {3071, {1, 1, 1}, 0.8}};
    case Preset3D::Mr: {
        // MR has no units: the ramp follows the volume's robust range.
        const double w = hi > lo ? hi - lo : 1.0;
        return {{lo, {0, 0, 0}, 0},
                {lo + 0.12 * w, {0.3, 0.3, 0.3}, 0},
                {lo + 0.45 * w, {0.75, 0.72, 0.7}, 0.15},
                {hi, {1, 1, 1}, 0.6}};
    }
    case Preset3D::None: return {};
    }
    return {};
}

}  // namespace lucent::render
