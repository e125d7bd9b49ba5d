/// @brief The 3D snake's start drawn on the slice views: a box (a rectangle dragged on any of the
/// volume's own planes, extruded through `depth` slices centred on the slice it was drawn on) and
/// bubbles (a click: a ball of the radius set on the page, in mm, around the voxel clicked; several
/// allowed; shift-click removes the one under the mouse). Both are drawn on every slice view that
/// cuts them: the box as its rectangle, each bubble as the circle its ball makes on that slice.
/// Qt-free rules on view coordinates, tested without a window.
#pragma once

#include "lucent/ui/ViewTool.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace lucent::ui {

class Snake3dTool : public ViewTool {
public:
    struct Bubble {
        VoxelIndex centre;
        double radiusMm = 0;
        bool operator==(const Bubble&) const = default;
    };
    /// Called after every change of the start (a box drawn, a bubble added or removed).
    std::function<void()> changed;
    /// Called with the reason when a press cannot start (a resliced, oblique plane).
    std::function<void(const std::string&)> refused;
    /// Called before `changed` with where the other views should go to watch the start grow: a new box's
    /// centre on the slice it was drawn on, a new bubble's centre (not after a removal).
    std::function<void(const Vec3&)> placed;

    /// Slices a drawn box reaches through along the view's normal (centred on the slice drawn on).
    void setDepth(int slices) { m_depth = std::max(1, slices); }
    int depth() const { return m_depth; }
    /// The radius in mm of the next bubble.
    void setRadius(double mm) { m_radius = mm; }
    double radius() const { return m_radius; }

    const std::optional<VoxelBox>& box() const { return m_box; }
    const std::vector<Bubble>& bubbles() const { return m_bubbles; }
    void setStart(std::optional<VoxelBox> box, std::vector<Bubble> bubbles) {
        m_box = box;
        m_bubbles = std::move(bubbles);
    }
    bool hasStart() const { return m_box || !m_bubbles.empty(); }
    void clear() { setStart(std::nullopt, {}); }

    /// A rectangle from voxel `a` to voxel `b` on a plane normal to `axis`, extruded through `depth`
    /// slices centred on a's slice, clipped to `dims` (the box the gesture makes).
    static VoxelBox extrude(const Vec3& a, const Vec3& b, int axis, int depth, const std::array<int, 3>& dims);

    bool press(const render::SliceViewGeometry& view, double x, double y, bool shift) override;
    bool drag(const render::SliceViewGeometry& view, double x, double y) override;
    bool release(const render::SliceViewGeometry& view, double x, double y) override;
    void overlay(const render::SliceViewGeometry& view, render::ViewOverlay& out) const override;

private:
    std::optional<VoxelBox> m_box;
    std::vector<Bubble> m_bubbles;
    int m_depth = 1;
    double m_radius = 0;
    std::optional<Vec3> m_pressVoxel;          // the gesture's start (voxel) while the button is down
    std::array<double, 2> m_pressScreen{0, 0};
    std::optional<VoxelBox> m_dragged;         // the box being dragged
    int m_axis = 2;                            // the normal of the view the gesture is on
};

/// The 3D snake's start as `view` shows it: the box's rectangle where its slice range holds the shown
/// slice, and each bubble's circle where its ball cuts the shown slice (nothing on an oblique plane).
void snake3dStartOverlay(const render::SliceViewGeometry& view, const std::optional<VoxelBox>& box,
                         const std::vector<Snake3dTool::Bubble>& bubbles, render::ViewOverlay& out,
                         std::array<float, 4> colour);

}  // namespace lucent::ui
