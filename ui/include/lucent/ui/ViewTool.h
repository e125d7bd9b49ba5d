/// @brief What a left-button gesture on a slice view does while a segmentation tool is active:
/// seeds for region growing and fuzzy connectedness, a rectangle for the snake. Qt-free rules on
/// view coordinates, so they are tested without a window; the widget only forwards the mouse.
#pragma once

#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/render/HudState.h"
#include "lucent/render/SliceViewGeometry.h"

#include <functional>
#include <string>
#include <optional>
#include <vector>

namespace lucent::ui {

class ViewTool {
public:
    virtual ~ViewTool() = default;
    /// Left button down / dragged / released at device pixel (x, y) of `view`; true when the tool
    /// took the gesture (the widget then does not move the crosshair).
    virtual bool press(const render::SliceViewGeometry& view, double x, double y, bool shift) = 0;
    virtual bool drag(const render::SliceViewGeometry& view, double x, double y) = 0;
    virtual bool release(const render::SliceViewGeometry& view, double x, double y) = 0;
    /// What the tool draws over `view` (seed markers, the rectangle being dragged).
    virtual void overlay(const render::SliceViewGeometry& view, render::ViewOverlay& out) const = 0;
    /// The mouse moved over `view` with no button down, or left the view: true when the tool's
    /// overlay follows the mouse (the brush's outline) and the view must redraw.
    virtual bool hover(const render::SliceViewGeometry& view, double x, double y) {
        (void)view;
        (void)x;
        (void)y;
        return false;
    }
    virtual bool leave() { return false; }
};

/// Click places a seed at the voxel under the mouse; shift-click removes the seed nearest to it
/// (within 10 screen pixels) on the shown slice. Dragging after the press (as MITK's region
/// growing does) reports the mouse's travel since the press: the panel widens the interval with
/// the vertical travel and shifts it with the horizontal one.
class SeedTool : public ViewTool {
public:
    std::function<void()> changed;  ///< called after every added or removed seed
    /// Travel in screen pixels since the press (right and up positive); `started` on the first
    /// move of a drag, so the receiver can remember the interval it starts from.
    std::function<void(double dx, double dy, bool started)> dragged;
    const std::vector<VoxelIndex>& seeds() const { return m_seeds; }
    void setSeeds(std::vector<VoxelIndex> seeds) { m_seeds = std::move(seeds); }
    void clear() { m_seeds.clear(); }

    bool press(const render::SliceViewGeometry& view, double x, double y, bool shift) override;
    bool drag(const render::SliceViewGeometry& view, double x, double y) override;
    bool release(const render::SliceViewGeometry&, double, double) override { return true; }
    void overlay(const render::SliceViewGeometry& view, render::ViewOverlay& out) const override;

private:
    std::vector<VoxelIndex> m_seeds;
    std::array<double, 2> m_press{0, 0};
    bool m_dragging = false;
};

/// Drag draws the snake's starting rectangle on an axial slice (the volume's k planes, the only
/// ones the snake segments); `finished` is called on release with slice k and i0, j0, i1, j1.
class RectangleTool : public ViewTool {
public:
    std::function<void(int slice, std::array<int, 4> rect)> finished;
    /// Called with the reason when a press cannot start a rectangle (a resliced, oblique plane).
    std::function<void(const std::string&)> refused;

    bool press(const render::SliceViewGeometry& view, double x, double y, bool shift) override;
    bool drag(const render::SliceViewGeometry& view, double x, double y) override;
    bool release(const render::SliceViewGeometry& view, double x, double y) override;
    void overlay(const render::SliceViewGeometry& view, render::ViewOverlay& out) const override;
    /// The rectangle as last dragged, if any.
    std::optional<std::array<int, 4>> rect() const { return m_rect; }
    int slice() const { return m_slice; }

private:
    std::optional<Vec3> m_start;
    std::optional<std::array<int, 4>> m_rect;
    int m_slice = 0;
};

/// A polygon in (i, j) pixel coordinates of slice k, as screen points of `view`; empty when the
/// view does not show that slice.
std::vector<std::array<float, 2>> slicePolygonOnScreen(const render::SliceViewGeometry& view,
                                                       const std::vector<std::array<double, 2>>& polygon, int slice);

}  // namespace lucent::ui
