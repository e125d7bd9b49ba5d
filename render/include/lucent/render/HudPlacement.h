/// @brief Where the run's panel goes in a view: the first corner (top-left, top-right, bottom-left,
/// bottom-right, inside the annotation margins) that covers none of the overlay (seeds, the snake's
/// polygon, the rectangle being dragged), so the panel never hides what the run is about.
#pragma once

#include "lucent/render/HudState.h"

#include <array>

namespace lucent::render {

/// The room the panel may take in a view, in device pixels.
struct PanelRoom {
    float width = 0, height = 0;  ///< the view
    float top = 0;                ///< below the header annotations
    float bottom = 0;             ///< above the footer annotations (from the view's bottom edge)
    float margin = 0;             ///< from the left and right edges
};

/// The top-left corner for a panel of `size` (width, height). Marker discs and polylines (segments
/// included, not only their points) count; where every corner covers some, the corner covering
/// the fewest overlay samples wins, top-left first on ties.
std::array<float, 2> placePanel(std::array<float, 2> size, const PanelRoom& room, const ViewOverlay& overlay);

/// Where the panel goes and whether it drops its plot: the whole panel at the first corner that covers
/// nothing; else the compact panel (`compactSize`, no plot) at the first such corner; else the compact
/// panel where it covers the fewest samples. A small view with a box in its middle keeps the box clear.
struct PanelPlace {
    std::array<float, 2> at{0, 0};
    bool compact = false;
};
PanelPlace placePanel(std::array<float, 2> size, std::array<float, 2> compactSize, const PanelRoom& room,
                      const ViewOverlay& overlay);

/// A run's panel stays where it is while it covers nothing, and also while it covers something but
/// no other place is clear (a large contour in a small view): it moves only to a place covering
/// nothing, so it never flips between corners that all cover the contour. Here only what is drawn
/// counts (keepClear chose the first place).
PanelPlace keepPanelPlace(const PanelPlace& current, std::array<float, 2> size, std::array<float, 2> compactSize,
                          const PanelRoom& room, const ViewOverlay& overlay);

}  // namespace lucent::render
