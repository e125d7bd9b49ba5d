/// @brief The annotations of a slice view, laid out like a radiology workstation's: name top-left,
/// slice top-right, window bottom-left, scale bar bottom-right, patient letters on the edges.
#include "HudAnnotations.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace lucent::render {

namespace {

constexpr ImU32 kNameColour = IM_COL32(120, 200, 255, 255);
constexpr ImU32 kLetterColour = IM_COL32(255, 200, 60, 255);
constexpr ImU32 kTextColour = IM_COL32(225, 225, 225, 255);
constexpr ImU32 kHintColour = IM_COL32(160, 160, 160, 255);
constexpr ImU32 kShadow = IM_COL32(0, 0, 0, 200);

ImU32 colour(const std::array<float, 4>& c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c[0], c[1], c[2], c[3])); }

/// Writes text with its top-left corner at `at`, over a one-pixel shadow that keeps it legible on
/// bright tissue (the raster annotations it replaces had none and vanished over bone).
void shadowedText(ImDrawList* list, ImFont* font, ImVec2 at, ImU32 col, const std::string& text, float dpr) {
    const float size = font->FontSize;
    const float d = std::max(1.0f, std::round(dpr));
    at = ImVec2(std::round(at.x), std::round(at.y));
    list->AddText(font, size, ImVec2(at.x + d, at.y + d), kShadow, text.c_str());
    list->AddText(font, size, at, col, text.c_str());
}

ImVec2 textSize(ImFont* font, const std::string& text) {
    return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.c_str());
}

void drawScaleBar(ImDrawList* list, ImFont* font, const SliceViewGeometry& view, float dpr) {
    const double mm = scaleBarMm(view.width(), view.pixelsPerMm());
    if (mm <= 0) return;
    const float len = float(std::round(mm * view.pixelsPerMm()));
    const float w = float(view.width()), h = float(view.height());
    char label[32];
    std::snprintf(label, sizeof label, "%g mm", mm);
    const ImVec2 ts = textSize(font, label);
    const float x0 = w - 16 * dpr - len, y0 = h - 10 * dpr - ts.y - 6 * dpr;
    const float tick = 4 * dpr, thick = 2 * dpr;
    // Shadow first, then the bar: one stroke of each segment.
    for (int pass = 0; pass < 2; ++pass) {
        const float o = pass == 0 ? std::max(1.0f, std::round(dpr)) : 0.0f;
        const ImU32 col = pass == 0 ? kShadow : kTextColour;
        list->AddLine(ImVec2(x0 + o, y0 + o), ImVec2(x0 + len + o, y0 + o), col, thick);
        list->AddLine(ImVec2(x0 + o, y0 - tick + o), ImVec2(x0 + o, y0 + tick + o), col, thick);
        list->AddLine(ImVec2(x0 + len + o, y0 - tick + o), ImVec2(x0 + len + o, y0 + tick + o), col, thick);
    }
    shadowedText(list, font, ImVec2(x0 + (len - ts.x) / 2, y0 + 4 * dpr), kTextColour, label, dpr);
}

void drawHint(ImDrawList* list, ImFont* font, const SliceViewGeometry& view, const std::string& hint, float dpr) {
    std::istringstream lines(hint);
    std::string line;
    std::vector<std::string> all;
    while (std::getline(lines, line)) all.push_back(line);
    const float lineHeight = font->FontSize * 1.3f;
    float y = (view.height() - lineHeight * float(all.size())) / 2;
    for (const std::string& l : all) {
        const ImVec2 ts = textSize(font, l);
        shadowedText(list, font, ImVec2((view.width() - ts.x) / 2, y), kHintColour, l, dpr);
        y += lineHeight;
    }
}

}  // namespace

float annotationHeaderBottom(ImFont* font, float dpr) { return 4 * dpr + font->FontSize; }

void drawViewAnnotations(ImDrawList* list, ImFont* font, const SliceViewGeometry& view,
                         const ViewAnnotations& annotations, float dpr) {
    const float w = float(view.width()), h = float(view.height());
    const float margin = 6 * dpr, top = 4 * dpr, bottom = h - 4 * dpr - font->FontSize;
    std::string name = orientationName(view.orientation());
    for (char& c : name) c = char(std::toupper(static_cast<unsigned char>(c)));
    // A resampled plane says so: its pixels are not any slice of the scan.
    if (!view.showsVolumePlane()) name += "  resliced";
    shadowedText(list, font, ImVec2(margin, top), kNameColour, name, dpr);
    if (!annotations.hasVolume) return drawHint(list, font, view, annotations.emptyHint, dpr);

    // Orientation letters in the middle of each edge: right, left, top, bottom.
    const std::string right = view.edgeLetter(0), left = view.edgeLetter(1), up = view.edgeLetter(2),
                      down = view.edgeLetter(3);
    const float midY = (h - font->FontSize) / 2;
    shadowedText(list, font, ImVec2(w - margin - textSize(font, right).x, midY), kLetterColour, right, dpr);
    shadowedText(list, font, ImVec2(margin, midY), kLetterColour, left, dpr);
    shadowedText(list, font, ImVec2((w - textSize(font, up).x) / 2, top), kLetterColour, up, dpr);
    shadowedText(list, font, ImVec2((w - textSize(font, down).x) / 2, bottom), kLetterColour, down, dpr);

    char text[96];
    std::snprintf(text, sizeof text, "slice %d / %d", view.slice() + 1, view.sliceCount());
    shadowedText(list, font, ImVec2(w - margin - textSize(font, text).x, top), kTextColour, text, dpr);
    std::snprintf(text, sizeof text, "W %.0f  L %.0f", annotations.windowWidth, annotations.windowLevel);
    shadowedText(list, font, ImVec2(margin, bottom), kTextColour, text, dpr);
    drawScaleBar(list, font, view, dpr);
}

void drawViewOverlay(ImDrawList* list, const ViewOverlay& overlay, float dpr) {
    std::vector<ImVec2> points;
    for (const ViewOverlay::Polyline& line : overlay.lines) {
        points.clear();
        for (const auto& p : line.points) points.emplace_back(p[0], p[1]);
        if (points.empty()) continue;
        const ImU32 col = colour(line.colour);
        if (points.size() > 1)
            list->AddPolyline(points.data(), int(points.size()), col, line.closed ? ImDrawFlags_Closed : 0,
                              line.thickness * dpr);
        if (!line.markNodes) continue;
        const float half = 2.5f * dpr;
        for (const ImVec2& p : points) {
            list->AddRectFilled(ImVec2(p.x - half - dpr, p.y - half - dpr), ImVec2(p.x + half + dpr, p.y + half + dpr),
                                kShadow);
            list->AddRectFilled(ImVec2(p.x - half, p.y - half), ImVec2(p.x + half, p.y + half), col);
        }
    }
    for (const ViewOverlay::Marker& m : overlay.markers) {
        const ImVec2 at(m.at[0], m.at[1]);
        list->AddCircleFilled(at, (m.radius + 1) * dpr, kShadow);
        list->AddCircleFilled(at, m.radius * dpr, colour(m.colour));
    }
    // Labels in the frame's current font (the annotations' size), shadowed like the annotations,
    // moved inside the view when they would run over its edge (an ROI drawn down to the bottom).
    ImFont* font = ImGui::GetFont();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    for (const ViewOverlay::Text& t : overlay.texts) {
        if (!font || t.text.empty()) continue;
        const ImVec2 ts = textSize(font, t.text);
        const float margin = 2 * dpr;
        const float x = std::max(margin, std::min(t.at[0], display.x - ts.x - margin));
        const float y = std::max(margin, std::min(t.at[1], display.y - ts.y - margin));
        shadowedText(list, font, ImVec2(x, y), colour(t.colour), t.text, dpr);
    }
}

}  // namespace lucent::render
