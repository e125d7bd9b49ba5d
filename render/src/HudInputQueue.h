/// @brief Input events for one ImGui context, queued between frames and handed to ImGuiIO one
/// button or key change per frame (what ImGui 1.87 later called the trickle event queue).
#pragma once

#include <cstddef>
#include <deque>
#include <string>

struct ImGuiIO;

namespace lucent::render {

class HudInputQueue {
public:
    void mouseMove(float x, float y);
    void mouseLeave();
    void mouseButton(int button, bool down);
    void wheel(float dx, float dy);
    void key(int key, bool down);
    void text(const std::string& utf8);
    void modifiers(bool ctrl, bool shift, bool alt, bool super);

    /// Applies the events due in this frame to `io` (whose context is current); a second change of
    /// one button or key, or a move after a button change, waits for the next frame.
    void apply(ImGuiIO& io);
    bool empty() const { return m_events.empty(); }

private:
    enum class Type { Move, Button, Wheel, Key, Text, Modifiers };
    struct Event {
        Type type;
        float x = 0, y = 0;  // position or wheel
        int code = 0;        // button, key, or modifier bits
        bool down = false;
        std::string text;
    };
    void push(Event event);

    std::deque<Event> m_events;
};

}  // namespace lucent::render
