/// @brief The panel's corner: overlay samples counted per candidate corner, the emptiest wins.
#include "lucent/render/HudPlacement.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lucent::render {

namespace {

struct Box {
    float x0, y0, x1, y1;
    bool contains(float x, float y, float pad = 0) const {
        return x >= x0 - pad && x <= x1 + pad && y >= y0 - pad && y <= y1 + pad;
    }
};

/// Overlay samples inside `box`: every marker (with its radius), and points every 2 px along each
/// polyline's segments (a rectangle's sides cross a corner without any of its 4 points in it).
int covered(const Box& box, const ViewOverlay& overlay) {
    constexpr float kSpacing = 2.0f;
    int n = 0;
    for (const auto& m : overlay.markers) n += box.contains(m.at[0], m.at[1], m.radius);
    // A box to keep clear weighs as a line all round it would, and covers whenever they overlap.
    for (const auto& k : overlay.keepClear) {
        const bool overlap = box.x0 < k[2] && k[0] < box.x1 && box.y0 < k[3] && k[1] < box.y1;
        n += overlap ? int((k[2] - k[0] + k[3] - k[1]) / kSpacing) + 1 : 0;
    }
    for (const auto& line : overlay.lines) {
        const std::size_t count = line.points.size();
        const std::size_t segments = line.closed ? count : (count ? count - 1 : 0);
        for (std::size_t s = 0; s < segments; ++s) {
            const auto& a = line.points[s];
            const auto& b = line.points[(s + 1) % count];
            const float length = std::hypot(b[0] - a[0], b[1] - a[1]);
            const int samples = std::max(1, int(std::ceil(length / kSpacing)));
            for (int i = 0; i < samples; ++i) {
                const float t = float(i) / float(samples);
                n += box.contains(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), line.thickness);
            }
        }
    }
    return n;
}

/// The first corner covering nothing, else the one covering the fewest samples; and that count.
std::pair<std::array<float, 2>, int> bestCorner(std::array<float, 2> size, const PanelRoom& room, const ViewOverlay& overlay) {
    const float left = room.margin, right = std::max(room.margin, room.width - room.margin - size[0]);
    const float top = room.top, bottom = std::max(room.top, room.height - room.bottom - size[1]);
    const std::array<std::array<float, 2>, 4> corners{{{left, top}, {right, top}, {left, bottom}, {right, bottom}}};
    std::array<float, 2> best = corners[0];
    int fewest = std::numeric_limits<int>::max();
    for (const auto& c : corners) {
        const int n = covered(Box{c[0], c[1], c[0] + size[0], c[1] + size[1]}, overlay);
        if (n < fewest) {
            fewest = n;
            best = c;
        }
        if (n == 0) break;
    }
    return {best, fewest};
}

}  // namespace

std::array<float, 2> placePanel(std::array<float, 2> size, const PanelRoom& room, const ViewOverlay& overlay) {
    return bestCorner(size, room, overlay).first;
}

PanelPlace placePanel(std::array<float, 2> size, std::array<float, 2> compactSize, const PanelRoom& room,
                      const ViewOverlay& overlay) {
    const auto [at, covers] = bestCorner(size, room, overlay);
    if (covers == 0) return {at, false};
    return {bestCorner(compactSize, room, overlay).first, true};
}

PanelPlace keepPanelPlace(const PanelPlace& current, std::array<float, 2> size, std::array<float, 2> compactSize,
                          const PanelRoom& room, const ViewOverlay& overlay) {
    // What is drawn decides now; the run's domain (keepClear) chose the first place, and a domain
    // that reaches every corner would otherwise hold the panel over the contour.
    ViewOverlay drawn = overlay;
    drawn.keepClear.clear();
    const auto covers = [&](const PanelPlace& p) {
        const auto& extent = p.compact ? compactSize : size;
        return covered(Box{p.at[0], p.at[1], p.at[0] + extent[0], p.at[1] + extent[1]}, drawn) > 0;
    };
    if (!covers(current)) return current;
    const PanelPlace best = placePanel(size, compactSize, room, drawn);
    return covers(best) ? current : best;
}

}  // namespace lucent::render
