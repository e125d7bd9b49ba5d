/// @brief Zoom about a point, window/level and pan drags: the rules the slice widget forwards its events to.
#include "lucent/render/ViewNavigation.h"

#include <algorithm>
#include <cmath>

namespace lucent::render {

void zoomAbout(SliceViewGeometry& view, double x, double y, int steps) {
    const Vec3 anchor = view.screenToVoxel(x, y);
    view.setZoom(std::clamp(view.zoom() * std::pow(1.15, steps), kMinZoom, kMaxZoom));
    const auto moved = view.voxelToScreen(anchor);
    const auto pan = view.pan();
    view.setPan(pan[0] + x - moved[0], pan[1] + y - moved[1]);
}

WindowLevel dragWindow(const WindowLevel& start, double dx, double dy) {
    const double speed = std::max(1.0, start.width / 200.0);
    return {start.level - dy * speed, std::max(1.0, start.width + dx * speed)};
}

std::array<double, 2> dragPan(const std::array<double, 2>& startPan, double dx, double dy, double devicePixelRatio) {
    return {startPan[0] + dx * devicePixelRatio, startPan[1] + dy * devicePixelRatio};
}

}  // namespace lucent::render
