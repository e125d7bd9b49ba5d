/// @brief Draws a view's annotations and its screen overlay into an ImGui draw list (device pixels).
#pragma once

#include "lucent/render/HudState.h"
#include "lucent/render/SliceViewGeometry.h"
#include "lucent/render/ViewAnnotations.h"

struct ImDrawList;
struct ImFont;

namespace lucent::render {

/// Bottom of the view name's line: where the panel may start.
float annotationHeaderBottom(ImFont* font, float dpr);

/// View name, orientation letters, slice, scale bar and window; or the hint without a volume.
void drawViewAnnotations(ImDrawList* list, ImFont* font, const SliceViewGeometry& view,
                         const ViewAnnotations& annotations, float dpr);

/// Polylines (with node squares), markers and texts; thickness and radii are scaled by `dpr`.
void drawViewOverlay(ImDrawList* list, const ViewOverlay& overlay, float dpr);

}  // namespace lucent::render
