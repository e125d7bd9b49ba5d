/// @brief The HUD's input queue: coalesces moves, bounds its length, trickles clicks frame by frame.
#include "HudInputQueue.h"

#include <imgui.h>

#include <cfloat>
#include <set>

namespace lucent::render {

namespace {
// Events pile up only while no frame is drawn (the view is hidden): the oldest are worth nothing.
constexpr std::size_t kMaxEvents = 256;
}  // namespace

void HudInputQueue::push(Event event) {
    // Consecutive moves: only the last position matters.
    if (event.type == Type::Move && !m_events.empty() && m_events.back().type == Type::Move)
        m_events.back() = event;
    else
        m_events.push_back(std::move(event));
    while (m_events.size() > kMaxEvents) m_events.pop_front();
}

void HudInputQueue::mouseMove(float x, float y) { push({Type::Move, x, y}); }

void HudInputQueue::mouseLeave() { push({Type::Move, -FLT_MAX, -FLT_MAX}); }

void HudInputQueue::mouseButton(int button, bool down) {
    if (button >= 0 && button < 5) push({Type::Button, 0, 0, button, down});
}

void HudInputQueue::wheel(float dx, float dy) { push({Type::Wheel, dx, dy}); }

void HudInputQueue::key(int key, bool down) {
    if (key >= 0 && key < 512) push({Type::Key, 0, 0, key, down});
}

void HudInputQueue::text(const std::string& utf8) {
    if (!utf8.empty()) push({Type::Text, 0, 0, 0, false, utf8});
}

void HudInputQueue::modifiers(bool ctrl, bool shift, bool alt, bool super) {
    push({Type::Modifiers, 0, 0, (ctrl ? 1 : 0) | (shift ? 2 : 0) | (alt ? 4 : 0) | (super ? 8 : 0)});
}

void HudInputQueue::apply(ImGuiIO& io) {
    std::set<int> changedButtons, changedKeys;
    while (!m_events.empty()) {
        const Event& e = m_events.front();
        switch (e.type) {
            case Type::Move:
                // A move after a click belongs to the next frame, or the click lands where the mouse went.
                if (!changedButtons.empty()) return;
                io.MousePos = ImVec2(e.x, e.y);
                break;
            case Type::Button:
                if (changedButtons.count(e.code)) return;
                if (io.MouseDown[e.code] != e.down) changedButtons.insert(e.code);
                io.MouseDown[e.code] = e.down;
                break;
            case Type::Wheel:
                io.MouseWheelH += e.x;
                io.MouseWheel += e.y;
                break;
            case Type::Key:
                if (changedKeys.count(e.code)) return;
                if (io.KeysDown[e.code] != e.down) changedKeys.insert(e.code);
                io.KeysDown[e.code] = e.down;
                break;
            case Type::Text:
                io.AddInputCharactersUTF8(e.text.c_str());
                break;
            case Type::Modifiers:
                io.KeyCtrl = e.code & 1;
                io.KeyShift = e.code & 2;
                io.KeyAlt = e.code & 4;
                io.KeySuper = e.code & 8;
                break;
        }
        m_events.pop_front();
    }
}

}  // namespace lucent::render
