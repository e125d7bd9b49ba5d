/// @brief Hands a slice view's Qt mouse, wheel and key events to its HUD (in device pixels) and
/// says which of them the HUD keeps.
#pragma once

#include <QCursor>

class QKeyEvent;
class QMouseEvent;
class QWheelEvent;
class QWidget;

namespace lucent::render {
class Hud;
}

namespace lucent::ui {

/// Every event goes to the HUD (so ImGui sees the mouse leave its panel too); the handlers return
/// true when the HUD keeps the event: the view then ignores it. A press on the panel captures that
/// button until its release, like a Qt widget's mouse grab.
class HudInput {
public:
    HudInput(QWidget* widget, render::Hud* hud);

    bool mousePress(QMouseEvent* event);
    bool mouseMove(QMouseEvent* event);
    bool mouseRelease(QMouseEvent* event);
    bool wheel(QWheelEvent* event);
    bool keyPress(QKeyEvent* event);
    bool keyRelease(QKeyEvent* event);
    /// The mouse left the widget: nothing of the HUD stays hovered.
    void leave();
    /// After a frame: asks for another while ImGui has input left to see, and shows the arrow
    /// cursor over the panel.
    void afterFrame();

private:
    void modifiers(Qt::KeyboardModifiers mods);
    void move(QPointF logical);
    bool overPanel(QPointF logical) const;
    void updateCursor(bool overPanel);

    QWidget* m_widget;
    render::Hud* m_hud;
    Qt::MouseButtons m_captured;  // buttons pressed on the panel, still down
    bool m_cursorOverridden = false;
    bool m_hadCursor = false;  // the widget had its own cursor before the panel's arrow
    QCursor m_savedCursor;
};

}  // namespace lucent::ui
