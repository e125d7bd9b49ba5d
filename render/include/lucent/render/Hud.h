/// @brief The Dear ImGui heads-up display of one slice view: annotations, screen overlay and the
/// run's panel, drawn in the view's GL context; input arrives in device pixels from the ui.
#pragma once

#include "lucent/render/HudState.h"
#include "lucent/render/SliceViewGeometry.h"
#include "lucent/render/ViewAnnotations.h"

#include <array>
#include <memory>
#include <optional>
#include <string>

namespace lucent::render {

/// Keys the HUD's widgets use (ImGui's key map indices; no ImGui type leaks into this header).
enum class HudKey {
    Tab,
    Left,
    Right,
    Up,
    Down,
    PageUp,
    PageDown,
    Home,
    End,
    Insert,
    Delete,
    Backspace,
    Space,
    Enter,
    Escape,
    KeypadEnter,
    A,
    C,
    V,
    X,
    Y,
    Z
};

/// Mouse buttons as ImGui counts them.
enum class HudButton { Left = 0, Right = 1, Middle = 2 };

/// One ImGui context plus its OpenGL 3 backend per view: every view has its own GL context, and
/// vertex arrays are not shared between contexts. Input is queued and handed to ImGui at the next
/// frame, one button or key change per frame, so that a click shorter than a frame still shows
/// ImGui a press and then a release (ImGui 1.86 samples its input state once per frame).
class Hud {
public:
    Hud();
    ~Hud();
    Hud(const Hud&) = delete;
    Hud& operator=(const Hud&) = delete;

    /// Creates the context and the backend's GL objects (the view's GL context current); false with
    /// `error` on failure.
    bool initialise(std::string& error);
    /// Frees the GL objects and the context (the same GL context current).
    void release();
    bool ready() const;

    /// Input, in device pixels from the view's top-left corner.
    void mouseMove(float x, float y);
    /// The mouse left the view: nothing is hovered.
    void mouseLeave();
    void mouseButton(HudButton button, bool down);
    /// Wheel notches (one notch = 1), horizontal and vertical.
    void wheel(float dx, float dy);
    void key(HudKey key, bool down);
    void text(const std::string& utf8);
    void setModifiers(bool ctrl, bool shift, bool alt, bool super);

    /// ImGui wanted the mouse in the last frame (hovering the panel, or a drag that began on it).
    bool wantsMouse() const;
    /// ImGui wanted the keyboard in the last frame (an active widget).
    bool wantsKeyboard() const;
    /// The point (device pixels) lies on the panel as last drawn: the place where a press belongs
    /// to the HUD even when ImGui has not yet seen the mouse there.
    bool panelContains(float x, float y) const;
    /// The run's panel is gone before the next frame draws it away (a run ended or was cancelled):
    /// a press where it was goes to the view, not to a panel no longer there.
    void forgetPanel();
    /// Input is still queued: draw another frame for ImGui to see it.
    bool needsFrame() const;

    /// Shows or hides the run's panel in every frame that follows (annotations stay).
    void setPanelVisible(bool visible);
    bool panelVisible() const;

    /// Draws one frame over the view's viewport (view.width() x view.height() device pixels) in the
    /// current GL context and restores the GL state it changes. `overlay` thickness and radii are in
    /// logical pixels (scaled by `dpr`); `seconds` is a monotonic clock. Returns the panel button
    /// released on this frame, HudAction::None otherwise.
    HudAction draw(const SliceViewGeometry& view, const ViewAnnotations& annotations, const HudState& hud,
                   const ViewOverlay& overlay, float dpr, double seconds);

    /// The button's rectangle {x0, y0, x1, y1} in device pixels as last drawn; nullopt when it was not
    /// drawn (for tests and for placing things beside the panel).
    std::optional<std::array<float, 4>> buttonRect(HudAction action) const;
    /// The panel's rectangle as last drawn, nullopt when hidden.
    std::optional<std::array<float, 4>> panelRect() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace lucent::render
