/// @brief The run's panel: a small translucent ImGui window that neither moves nor takes focus, so
/// the view under it keeps the keyboard and only the panel's own area takes the mouse.
#include "HudPanel.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>

namespace lucent::render {

namespace {

ImVec4 stateColour(const std::string& state) {
    if (state == "running") return ImVec4(0.45f, 0.9f, 0.45f, 1.0f);
    if (state == "paused") return ImVec4(1.0f, 0.8f, 0.3f, 1.0f);
    if (state == "finished") return ImVec4(0.5f, 0.78f, 1.0f, 1.0f);
    return ImGui::GetStyleColorVec4(ImGuiCol_Text);
}

/// A button of fixed width (Play and Pause swap without the row shifting); records its rectangle.
bool button(const char* label, HudAction action, float width, HudPanelFrame& frame) {
    const bool pressed = ImGui::Button(label, ImVec2(width, 0));
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    frame.buttons[std::size_t(action)] = HudRect{a.x, a.y, b.x, b.y};
    return pressed;
}

void figures(const HudState& hud) {
    ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", hud.method.empty() ? "Segmentation" : hud.method.c_str());
    if (!hud.backend.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("on %s", hud.backend.c_str());
    }
    ImGui::TextColored(stateColour(hud.state), "%s", hud.state.c_str());
    ImGui::SameLine();
    ImGui::Text(" iteration %d", hud.iteration);
    ImGui::Text("%.2f ms/step   %.0f fps", hud.msPerStep, hud.framesPerSecond);
    if (!hud.figure.empty()) ImGui::TextUnformatted(hud.figure.c_str());
}

void plot(const HudState& hud, float dpr) {
    if (hud.plot.empty()) return;
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%s %.4g", hud.plotLabel.c_str(), double(hud.plot.back()));
    // A fixed width: filling the window would keep an auto-resized window as wide as its widest
    // text ever was (a scrubbed step's longer line), never shrinking back.
    const float width = 240 * dpr;
    ImGui::PlotLines("##plot", hud.plot.data(), int(hud.plot.size()), 0, overlay, FLT_MAX, FLT_MAX,
                     ImVec2(width, 48 * dpr));
}

/// "Speed [-] 20 steps/s [+]": the pace of the run, a step down or up its ladder.
HudAction speedRow(const HudState& hud, HudPanelFrame& frame, HudAction action) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Speed");
    ImGui::SameLine();
    const float width = ImGui::GetFrameHeight();
    if (button("-", HudAction::Slower, width, frame)) action = HudAction::Slower;
    ImGui::SameLine();
    ImGui::TextUnformatted(hud.speed.c_str());
    ImGui::SameLine();
    if (button("+", HudAction::Faster, width, frame)) action = HudAction::Faster;
    return action;
}

}  // namespace

HudAction drawHudPanel(const HudState& hud, float x, float y, float dpr, bool compact, HudPanelFrame& frame) {
    frame = {};
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.6f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    HudAction action = HudAction::None;
    if (ImGui::Begin("##run", nullptr, flags)) {
        frame.appearing = ImGui::IsWindowAppearing();
        figures(hud);
        if (!compact) plot(hud, dpr);
        const ImGuiStyle& style = ImGui::GetStyle();
        const float width = ImGui::CalcTextSize("Accept").x + 2 * style.FramePadding.x + 4 * dpr;
        ImGui::BeginDisabled(!hud.canStep);
        if (hud.running) {
            if (button("Pause", HudAction::Pause, width, frame)) action = HudAction::Pause;
        } else if (button("Play", HudAction::Play, width, frame)) {
            action = HudAction::Play;
        }
        ImGui::SameLine();
        if (button("Step", HudAction::Step, width, frame)) action = HudAction::Step;
        ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::BeginDisabled(!hud.canAccept);
        if (button("Accept", HudAction::Accept, width, frame)) action = HudAction::Accept;
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (button("Cancel", HudAction::Cancel, width, frame)) action = HudAction::Cancel;
        if (!hud.speed.empty()) action = speedRow(hud, frame, action);
        const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        frame.panel = HudRect{at.x, at.y, at.x + size.x, at.y + size.y};
    }
    ImGui::End();
    return action;
}

}  // namespace lucent::render
