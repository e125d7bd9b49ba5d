/// @brief The slice views' navigation rules (zoom about the mouse, window/level drag, pan), without a window.
#pragma once

#include "lucent/render/SliceViewGeometry.h"
#include "lucent/render/WindowLevel.h"

namespace lucent::render {

/// Zoom limits of a slice view (times the fitted size).
inline constexpr double kMinZoom = 0.1, kMaxZoom = 50.0;

/// Zooms `view` by 1.15 per wheel step (negative: out) about the screen point (x, y) (device
/// pixels): the voxel under it stays under it, as in every viewer that zooms "about the mouse".
void zoomAbout(SliceViewGeometry& view, double x, double y, int steps);

/// The window after a right-drag of (dx, dy) logical pixels from `start`: right widens, left
/// narrows, down lowers the level (brighter), up raises it; the speed grows with the width, so a
/// CT bone window and an MR window of a few hundred units both follow the mouse usefully. The
/// width never falls below 1.
WindowLevel dragWindow(const WindowLevel& start, double dx, double dy);

/// The pan after a middle-drag of (dx, dy) logical pixels from `startPan` on a screen of
/// `devicePixelRatio`: the image follows the mouse.
std::array<double, 2> dragPan(const std::array<double, 2>& startPan, double dx, double dy, double devicePixelRatio);

}  // namespace lucent::render
