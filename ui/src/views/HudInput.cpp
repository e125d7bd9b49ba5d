/// @brief Qt to HUD input: positions scaled to device pixels, Qt keys mapped to ImGui's, and a
/// repaint whenever ImGui has something new to show (a hover, a press, queued clicks).
#include "lucent/ui/HudInput.h"

#include "lucent/render/Hud.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QTimer>
#include <QWheelEvent>
#include <QWidget>

#include <optional>

namespace lucent::ui {

namespace {

std::optional<render::HudButton> hudButton(Qt::MouseButton button) {
    switch (button) {
        case Qt::LeftButton:
            return render::HudButton::Left;
        case Qt::RightButton:
            return render::HudButton::Right;
        case Qt::MiddleButton:
            return render::HudButton::Middle;
        default:
            return std::nullopt;
    }
}

std::optional<render::HudKey> hudKey(int key) {
    using K = render::HudKey;
    switch (key) {
        case Qt::Key_Tab:
            return K::Tab;
        case Qt::Key_Left:
            return K::Left;
        case Qt::Key_Right:
            return K::Right;
        case Qt::Key_Up:
            return K::Up;
        case Qt::Key_Down:
            return K::Down;
        case Qt::Key_PageUp:
            return K::PageUp;
        case Qt::Key_PageDown:
            return K::PageDown;
        case Qt::Key_Home:
            return K::Home;
        case Qt::Key_End:
            return K::End;
        case Qt::Key_Insert:
            return K::Insert;
        case Qt::Key_Delete:
            return K::Delete;
        case Qt::Key_Backspace:
            return K::Backspace;
        case Qt::Key_Space:
            return K::Space;
        case Qt::Key_Return:
            return K::Enter;
        case Qt::Key_Escape:
            return K::Escape;
        case Qt::Key_Enter:
            return K::KeypadEnter;
        case Qt::Key_A:
            return K::A;
        case Qt::Key_C:
            return K::C;
        case Qt::Key_V:
            return K::V;
        case Qt::Key_X:
            return K::X;
        case Qt::Key_Y:
            return K::Y;
        case Qt::Key_Z:
            return K::Z;
        default:
            return std::nullopt;
    }
}

}  // namespace

HudInput::HudInput(QWidget* widget, render::Hud* hud) : m_widget(widget), m_hud(hud) {}

void HudInput::modifiers(Qt::KeyboardModifiers mods) {
    m_hud->setModifiers(mods & Qt::ControlModifier, mods & Qt::ShiftModifier, mods & Qt::AltModifier,
                        mods & Qt::MetaModifier);
}

void HudInput::move(QPointF logical) {
    const qreal dpr = m_widget->devicePixelRatioF();
    m_hud->mouseMove(float(logical.x() * dpr), float(logical.y() * dpr));
}

bool HudInput::overPanel(QPointF logical) const {
    const qreal dpr = m_widget->devicePixelRatioF();
    return m_hud->panelContains(float(logical.x() * dpr), float(logical.y() * dpr));
}

void HudInput::updateCursor(bool overPanel) {
    // The view's tools may show their own cursor; over the panel the arrow is the right one.
    if (overPanel && !m_cursorOverridden) {
        m_hadCursor = m_widget->testAttribute(Qt::WA_SetCursor);
        m_savedCursor = m_widget->cursor();
        m_widget->setCursor(Qt::ArrowCursor);
        m_cursorOverridden = true;
    } else if (!overPanel && m_cursorOverridden) {
        if (m_hadCursor)
            m_widget->setCursor(m_savedCursor);
        else
            m_widget->unsetCursor();
        m_cursorOverridden = false;
    }
}

bool HudInput::mousePress(QMouseEvent* event) {
    const auto button = hudButton(event->button());
    if (!m_hud->ready() || !button) return false;
    modifiers(event->modifiers());
    move(event->position());
    // Decided on the panel's last drawn rectangle, not on ImGui's last frame: the press may come
    // before any move that would have let ImGui see the mouse there. A press on the view never
    // reaches ImGui: queued, it was applied once the panel appeared under it (a brush stroke where
    // a run's panel then showed pressed its Pause).
    if (!overPanel(event->position())) return false;
    m_hud->mouseButton(*button, true);
    m_captured |= event->button();
    m_widget->update();
    return true;
}

bool HudInput::mouseMove(QMouseEvent* event) {
    if (!m_hud->ready()) return false;
    modifiers(event->modifiers());
    move(event->position());
    // A drag that began on the view stays the view's when it crosses the panel.
    const bool viewDrag = (event->buttons() & ~m_captured) != Qt::NoButton;
    const bool mine = m_captured != Qt::NoButton || (!viewDrag && overPanel(event->position()));
    updateCursor(mine);
    // ImGui wanted the mouse in the last frame: one more frame shows the hover leaving or moving.
    if (mine || m_hud->wantsMouse()) m_widget->update();
    return mine;
}

bool HudInput::mouseRelease(QMouseEvent* event) {
    const auto button = hudButton(event->button());
    if (!m_hud->ready() || !button) return false;
    modifiers(event->modifiers());
    move(event->position());
    const bool mine = m_captured.testFlag(event->button());
    if (mine) m_hud->mouseButton(*button, false);  // ImGui saw the press: it sees the release
    m_captured &= ~event->button();
    if (mine) m_widget->update();
    updateCursor(overPanel(event->position()));
    return mine;
}

bool HudInput::wheel(QWheelEvent* event) {
    if (!m_hud->ready()) return false;
    modifiers(event->modifiers());
    move(event->position());
    m_hud->wheel(event->angleDelta().x() / 120.0f, event->angleDelta().y() / 120.0f);
    const bool mine = overPanel(event->position());
    if (mine) m_widget->update();
    return mine;
}

bool HudInput::keyPress(QKeyEvent* event) {
    if (!m_hud->ready()) return false;
    modifiers(event->modifiers());
    if (const auto key = hudKey(event->key()); key && !event->isAutoRepeat()) m_hud->key(*key, true);
    const QString text = event->text();
    if (!text.isEmpty() && text.at(0).isPrint()) m_hud->text(text.toStdString());
    const bool mine = m_hud->wantsKeyboard();
    if (mine) m_widget->update();
    return mine;
}

bool HudInput::keyRelease(QKeyEvent* event) {
    if (!m_hud->ready()) return false;
    modifiers(event->modifiers());
    if (const auto key = hudKey(event->key()); key && !event->isAutoRepeat()) m_hud->key(*key, false);
    const bool mine = m_hud->wantsKeyboard();
    if (mine) m_widget->update();
    return mine;
}

void HudInput::leave() {
    if (!m_hud->ready()) return;
    m_hud->mouseLeave();
    updateCursor(false);
    if (m_hud->wantsMouse()) m_widget->update();
}

void HudInput::afterFrame() {
    if (!m_hud->needsFrame()) return;
    // Not update() from inside paintGL: the request must come after this paint has finished.
    QTimer::singleShot(0, m_widget, [w = m_widget] { w->update(); });
}

}  // namespace lucent::ui
