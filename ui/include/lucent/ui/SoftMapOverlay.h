/// @brief A live run's soft map (fuzzy connectedness' connectivity, a fuzzy C-means membership) shown
/// as a heat overlay: from the device through CUDA-OpenGL interop where the run can, else the host map
/// quantised to a byte a voxel. It knows the run and the views only through SoftMapSource, so it is
/// tested without an engine or GL.
#pragma once

#include "lucent/core/Volume.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace lucent::ui {

/// What the overlay needs of the run whose maps it shows and of the views' heat texture.
struct SoftMapSource {
    /// The run's soft maps on the host (computed on request); empty without a run or maps.
    std::function<std::vector<Volume>()> hostMaps;
    /// Writes map `index` on the device and copies it into the heat texture through interop; false
    /// where the engine or the GL cannot (the host path then runs).
    std::function<bool(int index)> copyFromDevice;
    /// The heat texture takes `values` (a byte a voxel); empty hides it.
    std::function<void(const std::vector<std::uint8_t>& values)> uploadHeat;
    /// The views draw again.
    std::function<void()> redraw;
};

class SoftMapOverlay {
public:
    explicit SoftMapOverlay(SoftMapSource source) : m_source(std::move(source)) {}

    /// Shows map `index` (FC: 0 the connectivity; FCM: the membership of cluster index + 1); -1 hides
    /// it. False when the run has no such map (nothing shown then).
    bool show(int index);
    /// Hides the map shown, if any.
    void hide();
    int shown() const { return m_shown; }
    /// Whether the map shown came from the device (no host copy of it was made).
    bool fromDevice() const { return m_fromDevice; }
    /// A map's values in 0..1 as a byte a voxel (clamped, rounded): plenty for a colour ramp; the
    /// exact values stay in the engine.
    static std::vector<std::uint8_t> heatValues(const Volume& map);

private:
    SoftMapSource m_source;
    int m_shown = -1;
    bool m_fromDevice = false;
};

}  // namespace lucent::ui
