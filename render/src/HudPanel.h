/// @brief The run's panel of the HUD: figures, convergence plot and Play/Pause, Step, Accept, Cancel.
#pragma once

#include "lucent/render/HudState.h"

#include <array>
#include <optional>

namespace lucent::render {

using HudRect = std::array<float, 4>;  ///< x0, y0, x1, y1 in device pixels

/// Where the panel and its buttons were drawn in the last frame (buttons indexed by HudAction).
struct HudPanelFrame {
    std::optional<HudRect> panel;
    std::array<std::optional<HudRect>, std::size_t(HudAction::Faster) + 1> buttons;
    /// The panel appeared this frame: ImGui sizes an auto-resized window before showing it, so it is
    /// visible only from the next frame on.
    bool appearing = false;
};

/// Draws the panel as an ImGui window with its top-left corner at (x, y), between NewFrame and
/// Render; fills `frame` and returns the button released this frame. A compact panel leaves out the
/// plot (where the whole one would hide the run's seeds or polygon).
HudAction drawHudPanel(const HudState& hud, float x, float y, float dpr, bool compact, HudPanelFrame& frame);

}  // namespace lucent::render
