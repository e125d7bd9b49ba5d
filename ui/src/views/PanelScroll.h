/// @brief A side panel's body inside a vertical scroll area: a tall page (the 3D snake's, the brush's
/// settings) scrolls instead of making the window taller than the screen.
#pragma once

class QDockWidget;
class QWidget;

namespace lucent::ui {

/// Sets `body` as `dock`'s widget inside a frameless scroll area that is as wide as the body needs
/// (no horizontal scrolling) and as short as the dock is allowed to be.
void setScrollingBody(QDockWidget* dock, QWidget* body);

}  // namespace lucent::ui
