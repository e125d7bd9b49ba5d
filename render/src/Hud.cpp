/// @brief The HUD's ImGui context: fonts at the view's device pixel ratio, queued input, one frame
/// per paint over the slice image.
#include "lucent/render/Hud.h"

#include "HudAnnotations.h"
#include "HudInputQueue.h"
#include "HudPanel.h"
#include "lucent/render/HudPlacement.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace lucent::render {

namespace {

// HudKey lists ImGui's keys in ImGui's order, so a HudKey is its own key map index.
static_assert(int(HudKey::Z) == ImGuiKey_Z && int(HudKey::Tab) == ImGuiKey_Tab);

constexpr const char* kFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr const char* kBoldFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
constexpr float kFontPixels = 14.0f;  // at a device pixel ratio of 1

/// Makes `context` current for a scope: several views, each with its own context, draw in turn.
class ContextScope {
public:
    explicit ContextScope(ImGuiContext* context) : m_previous(ImGui::GetCurrentContext()) {
        ImGui::SetCurrentContext(context);
    }
    ~ContextScope() { ImGui::SetCurrentContext(m_previous); }
    ContextScope(const ContextScope&) = delete;
    ContextScope& operator=(const ContextScope&) = delete;

private:
    ImGuiContext* m_previous;
};

ImFont* addFont(ImFontAtlas* atlas, const char* path, float pixels) {
    // ImGui asserts on a missing file: look first.
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
        if (ImFont* font = atlas->AddFontFromFileTTF(path, pixels)) return font;
    }
    return nullptr;
}

void setStyle(ImGuiStyle& style) {
    ImGui::StyleColorsDark(&style);
    style.WindowRounding = 5.0f;
    style.FrameRounding = 3.0f;
    style.WindowBorderSize = 0.0f;
    style.WindowPadding = ImVec2(8, 7);
    style.ItemSpacing = ImVec2(6, 4);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.06f, 0.07f, 0.09f, 1.0f);
    style.Colors[ImGuiCol_PlotLines] = ImVec4(1.0f, 0.75f, 0.3f, 1.0f);
    // Opaque buttons and plot: the panel's translucency must not make them change with the image.
    style.Colors[ImGuiCol_Button] = ImVec4(0.17f, 0.29f, 0.46f, 1.0f);
    style.Colors[ImGuiCol_ButtonHovered] = ImVec4(0.24f, 0.42f, 0.68f, 1.0f);
    style.Colors[ImGuiCol_ButtonActive] = ImVec4(0.30f, 0.52f, 0.86f, 1.0f);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.11f, 0.16f, 0.24f, 1.0f);
}

}  // namespace

struct Hud::Impl {
    ImGuiContext* context = nullptr;
    HudInputQueue input;
    ImGuiStyle baseStyle;  // at a device pixel ratio of 1
    float fontDpr = 0;     // the ratio the font atlas was built for; 0: not built
    ImFont* annotationFont = nullptr;
    double lastSeconds = -1;
    bool wantsMouse = false, wantsKeyboard = false, panelVisible = true, panelAppearing = false;
    HudPanelFrame panel;
    std::array<float, 2> panelSize{0, 0};    // as last drawn whole: where it fits is chosen with it
    std::array<float, 2> compactSize{0, 0};  // as last drawn without its plot
    // The place chosen for a run, left only for a place that covers nothing (keepPanelPlace): a
    // panel that took every frame's least covered corner jumped from corner to corner during a run.
    // Its first frames still measure the panel (a guess, then its drawn size): placed again then.
    struct Placed {
        int run = -1;
        std::array<float, 2> view{};
        int frames = 0;
        PanelPlace place;
    } placed;

    void ensureFonts(float dpr);
};

void Hud::Impl::ensureFonts(float dpr) {
    if (dpr == fontDpr) return;
    ImGuiIO& io = ImGui::GetIO();
    // The first build happens in the backend's first NewFrame, with its other device objects.
    if (fontDpr != 0) ImGui_ImplOpenGL3_DestroyFontsTexture();
    io.Fonts->Clear();
    const float pixels = std::round(kFontPixels * dpr);
    ImFont* regular = addFont(io.Fonts, kFont, pixels);
    if (!regular) {
        ImFontConfig config;
        config.SizePixels = std::round(13.0f * dpr);
        regular = io.Fonts->AddFontDefault(&config);
    }
    ImFont* bold = addFont(io.Fonts, kBoldFont, pixels);
    annotationFont = bold ? bold : regular;
    io.FontDefault = regular;
    ImGui::GetStyle() = baseStyle;
    ImGui::GetStyle().ScaleAllSizes(dpr);
    if (fontDpr != 0) ImGui_ImplOpenGL3_CreateFontsTexture();
    fontDpr = dpr;
}

Hud::Hud() : m_impl(std::make_unique<Impl>()) {}

Hud::~Hud() {
    if (!m_impl->context) return;
    // release() was not called with the GL context current: the GL names die with that context,
    // only ImGui's side is freed here (the backend's small record leaks rather than touch GL).
    {
        ContextScope scope(m_impl->context);
        ImGui::GetIO().BackendRendererUserData = nullptr;
        ImGui::GetIO().BackendRendererName = nullptr;
    }
    // Outside the scope, which would otherwise make the freed context current again.
    ImGui::DestroyContext(m_impl->context);
}

bool Hud::initialise(std::string& error) {
    if (m_impl->context) return true;
    // CreateContext makes the first context current for good: leave the current one as it was.
    ImGuiContext* previous = ImGui::GetCurrentContext();
    m_impl->context = ImGui::CreateContext();
    ImGui::SetCurrentContext(previous);
    ContextScope scope(m_impl->context);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the panel's place is ours, nothing to remember between runs
    io.LogFilename = nullptr;
    io.BackendPlatformName = "lucent";
    for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = k;
    setStyle(m_impl->baseStyle);
    if (!ImGui_ImplOpenGL3_Init("#version 330")) {
        ImGui::DestroyContext(m_impl->context);
        m_impl->context = nullptr;
        error = "Dear ImGui's OpenGL 3 backend failed to start (no GL 3.3 context or loader failure)";
        return false;
    }
    m_impl->fontDpr = 0;
    m_impl->lastSeconds = -1;
    return true;
}

void Hud::release() {
    if (!m_impl->context) return;
    {
        ContextScope scope(m_impl->context);
        ImGui_ImplOpenGL3_Shutdown();
    }
    ImGui::DestroyContext(m_impl->context);
    m_impl->context = nullptr;
    m_impl->fontDpr = 0;
    m_impl->panel = {};
}

bool Hud::ready() const { return m_impl->context != nullptr; }

void Hud::mouseMove(float x, float y) { m_impl->input.mouseMove(x, y); }
void Hud::mouseLeave() { m_impl->input.mouseLeave(); }
void Hud::mouseButton(HudButton button, bool down) { m_impl->input.mouseButton(int(button), down); }
void Hud::wheel(float dx, float dy) { m_impl->input.wheel(dx, dy); }
void Hud::key(HudKey key, bool down) { m_impl->input.key(int(key), down); }
void Hud::text(const std::string& utf8) { m_impl->input.text(utf8); }
void Hud::setModifiers(bool ctrl, bool shift, bool alt, bool super) {
    m_impl->input.modifiers(ctrl, shift, alt, super);
}

bool Hud::wantsMouse() const { return m_impl->wantsMouse; }
bool Hud::wantsKeyboard() const { return m_impl->wantsKeyboard; }

bool Hud::panelContains(float x, float y) const {
    const auto& r = m_impl->panel.panel;
    return r && x >= (*r)[0] && x < (*r)[2] && y >= (*r)[1] && y < (*r)[3];
}

void Hud::forgetPanel() { m_impl->panel = {}; }

bool Hud::needsFrame() const { return !m_impl->input.empty() || m_impl->panelAppearing; }

void Hud::setPanelVisible(bool visible) { m_impl->panelVisible = visible; }
bool Hud::panelVisible() const { return m_impl->panelVisible; }

std::optional<std::array<float, 4>> Hud::buttonRect(HudAction action) const {
    return m_impl->panel.buttons[std::size_t(action)];
}

std::optional<std::array<float, 4>> Hud::panelRect() const { return m_impl->panel.panel; }

HudAction Hud::draw(const SliceViewGeometry& view, const ViewAnnotations& annotations, const HudState& hud,
                    const ViewOverlay& overlay, float dpr, double seconds) {
    Impl& d = *m_impl;
    if (!d.context || view.width() <= 0 || view.height() <= 0) return HudAction::None;
    ContextScope scope(d.context);
    dpr = std::clamp(dpr, 0.5f, 8.0f);
    d.ensureFonts(dpr);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(view.width()), float(view.height()));
    io.DisplayFramebufferScale = ImVec2(1, 1);  // input and layout are in device pixels already
    // ImGui asserts on a zero step; hover fades and double clicks only need it roughly right.
    io.DeltaTime = d.lastSeconds < 0 ? 1.0f / 60 : float(std::clamp(seconds - d.lastSeconds, 1e-4, 1.0));
    d.lastSeconds = seconds;
    d.input.apply(io);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    ImDrawList* background = ImGui::GetBackgroundDrawList();
    drawViewOverlay(background, overlay, dpr);
    drawViewAnnotations(background, d.annotationFont, view, annotations, dpr);
    HudAction action = HudAction::None;
    d.panel = {};
    if (hud.active && d.panelVisible) {
        // The panel's sizes from their last frames (first guesses before they were drawn: the plot
        // is 48 px and a row's spacing tall).
        const std::array<float, 2> size = d.panelSize[0] > 0 ? d.panelSize : std::array<float, 2>{300 * dpr, 150 * dpr};
        const std::array<float, 2> compact =
            d.compactSize[0] > 0 ? d.compactSize : std::array<float, 2>{size[0], std::max(0.0f, size[1] - 52 * dpr)};
        const float header = annotationHeaderBottom(d.annotationFont, dpr);
        const PanelRoom room{float(view.width()), float(view.height()), header + 6 * dpr, header + 6 * dpr, 6 * dpr};
        constexpr int kMeasuringFrames = 3;
        const std::array<float, 2> viewSize{room.width, room.height};
        if (d.placed.run != hud.run || d.placed.view != viewSize) d.placed = {hud.run, viewSize, 0, {}};
        if (d.placed.frames++ < kMeasuringFrames) d.placed.place = placePanel(size, compact, room, overlay);
        else d.placed.place = keepPanelPlace(d.placed.place, size, compact, room, overlay);
        const PanelPlace place = d.placed.place;
        action = drawHudPanel(hud, place.at[0], place.at[1], dpr, place.compact, d.panel);
        if (d.panel.panel) {
            const HudRect& r = *d.panel.panel;
            (place.compact ? d.compactSize : d.panelSize) = {r[2] - r[0], r[3] - r[1]};
        }
    }
    d.panelAppearing = d.panel.appearing;
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    d.wantsMouse = io.WantCaptureMouse;
    d.wantsKeyboard = io.WantCaptureKeyboard;
    return action;
}

}  // namespace lucent::render
