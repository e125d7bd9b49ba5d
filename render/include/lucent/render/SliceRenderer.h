/// @brief Draws one resliced view into the current GL context: window/level, label overlay and
/// crosshair, all in one fragment shader over a full-viewport triangle.
#pragma once

#include "lucent/render/PlaneTextures.h"
#include "lucent/render/SliceViewGeometry.h"
#include "lucent/render/VolumeTextures.h"
#include "lucent/render/WindowLevel.h"

#include <string>

namespace lucent::render {

struct SliceStyle {
    WindowLevel window;
    float overlayOpacity = 0.5f;
    bool showCrosshair = true;
    std::array<float, 3> crosshairColour{1.0f, 0.85f, 0.1f};
};

class SliceRenderer {
public:
    /// Compiles the shader (needs a current context); false with `error` on failure.
    bool initialise(std::string& error);
    /// Draws the view; the viewport is the geometry's width x height. `plane`: the view's own plane
    /// textures, drawn from instead of the whole-volume ones for what they hold of the plane shown.
    void draw(const SliceViewGeometry& view, const VolumeTextures& textures, const SliceStyle& style,
              const PlaneTextures* plane = nullptr);
    /// Frees the program and vertex array (with this renderer's context current).
    void release();

private:
    unsigned m_program = 0, m_vao = 0;
    int m_uOrigin = -1, m_uDx = -1, m_uDy = -1, m_uDims = -1, m_uHeight = -1, m_uScale = -1, m_uWindow = -1,
        m_uOpacity = -1, m_uHasLabels = -1, m_uCross = -1, m_uCrossColour = -1, m_uVolume = -1, m_uLabels = -1,
        m_uColours = -1, m_uPreview = -1, m_uHasPreview = -1, m_uPreviewHidden = -1, m_uAxisR = -1, m_uAxisD = -1, m_uHeat = -1, m_uHasHeat = -1, m_uOffset = -1,
        m_uPlaneVolume = -1, m_uPlanePreview = -1, m_uUsePlaneVolume = -1, m_uUsePlanePreview = -1, m_uPlaneAxes = -1, m_uLinear = -1,
        m_uPlaneHeat = -1, m_uUsePlaneHeat = -1;
};

}  // namespace lucent::render
