/// @brief Brush strokes from mouse gestures: press starts, moves stamp, release records one step.
#include "lucent/ui/BrushTool.h"

#include "lucent/ui/ViewerModel.h"

#include <cmath>

namespace lucent::ui {

bool BrushTool::press(const render::SliceViewGeometry& view, double x, double y, bool) {
    if (!m_model->hasVolume()) return false;
    const Vec3 v = view.screenToVoxel(x, y);
    if (!view.geometry().contains(int(std::lround(v.x)), int(std::lround(v.y)), int(std::lround(v.z)))) return false;
    const std::uint8_t active = m_model->activeLabel();
    const LabelTable& table = m_model->labelTable();
    LabelMap& layer = m_model->labelLayer();
    // A resliced oblique plane is no voxel plane: its disc covers the voxels that plane shows.
    const LabelBrush brush = view.showsVolumePlane() || m_shape == BrushShape::Ball
                                 ? LabelBrush(layer.geometry(), m_shape, m_diameter, view.normalAxis())
                                 : LabelBrush(layer.geometry(), m_diameter, view.normalDirection());
    auto stroke =
        m_erase ? std::make_unique<LabelStroke>(LabelStroke::eraser(layer, brush, active, m_eraseScope, table, m_over))
                : std::make_unique<LabelStroke>(layer, brush, active, table, m_over);
    if (!stroke->allowed()) {  // the one label it would change is locked
        const std::uint8_t blocked = m_erase && m_over && *m_over ? *m_over : active;
        if (refused) refused(table.nameOf(blocked) + " is locked: unlock it to " + (m_erase ? "erase" : "paint"));
        return true;  // the gesture is the brush's even so: no crosshair jump
    }
    if (m_range) {
        m_volume = m_model->volume();
        stroke->limitToValues(*m_volume, m_range->first, m_range->second);
    }
    m_layer = m_model->labels();
    m_stroke = std::move(stroke);
    paintTo(view, x, y);
    return true;
}

bool BrushTool::drag(const render::SliceViewGeometry& view, double x, double y) {
    hover(view, x, y);
    if (!m_stroke) return true;
    paintTo(view, x, y);
    return true;
}

bool BrushTool::release(const render::SliceViewGeometry& view, double x, double y) {
    if (!m_stroke) return true;
    paintTo(view, x, y);
    // Only while the layer the stroke began on is still the model's (a new volume or mask replaces it).
    if (m_model->labels() == m_layer && m_stroke->finish(m_model->history())) m_model->notifyHistoryChanged();
    m_stroke.reset();
    m_layer.reset();
    m_volume.reset();
    return true;
}

bool BrushTool::hover(const render::SliceViewGeometry& view, double x, double y) {
    m_hover = std::array<double, 2>{x, y};
    m_hoverView = view.orientation();
    m_hoverVoxel = view.screenToVoxel(x, y);
    if (view.showsVolumePlane()) m_hoverVoxel[view.normalAxis()] = view.slice();
    if (m_shape == BrushShape::Ball && outlineMoved) outlineMoved();
    return true;
}

bool BrushTool::leave() {
    const bool shown = m_hover.has_value();
    m_hover.reset();
    if (shown && m_shape == BrushShape::Ball && outlineMoved) outlineMoved();
    return shown;
}

void BrushTool::overlay(const render::SliceViewGeometry& view, render::ViewOverlay& out) const {
    if (!m_hover || !m_model->hasVolume()) return;
    std::array<double, 2> centre = *m_hover;
    double radiusMm = 0.5 * m_diameter;
    if (view.orientation() != m_hoverView) {
        // The ball cut by this view's plane: a circle of radius sqrt(r^2 - d^2) around the centre's
        // foot, d the centre's distance to the plane in mm. A disc stays on the view it is drawn on.
        if (m_shape != BrushShape::Ball || !view.showsVolumePlane()) return;
        const int n = view.normalAxis();
        const double d = (m_hoverVoxel[n] - view.slice()) * m_model->volume()->geometry().spacing[n];
        if (std::abs(d) >= radiusMm) return;
        radiusMm = std::sqrt(radiusMm * radiusMm - d * d);
        Vec3 foot = m_hoverVoxel;
        foot[n] = view.slice();
        centre = view.voxelToScreen(foot);
    }
    const double radius = radiusMm * view.pixelsPerMm();
    render::ViewOverlay::Polyline circle;
    constexpr int kSides = 48;
    for (int i = 0; i < kSides; ++i) {
        const double a = 2 * 3.14159265358979323846 * i / kSides;
        circle.points.push_back({float(centre[0] + radius * std::cos(a)), float(centre[1] + radius * std::sin(a))});
    }
    // A fixed light cyan, apart from the labels' colours and the yellow crosshair; the eraser's is grey.
    circle.colour = m_erase ? std::array<float, 4>{0.85f, 0.85f, 0.85f, 0.9f} : std::array<float, 4>{0.2f, 0.85f, 1.0f, 0.9f};
    circle.thickness = 1.5f;
    out.lines.push_back(std::move(circle));
}

void BrushTool::paintTo(const render::SliceViewGeometry& view, double x, double y) {
    if (m_model->labels() != m_layer) {  // the layer was replaced mid-stroke: stop quietly
        m_stroke.reset();
        m_layer.reset();
        m_volume.reset();
        return;
    }
    // The view's own plane: the position across it is the shown slice, whatever the sub-voxel (a
    // resliced plane's point is already on it).
    Vec3 at = view.screenToVoxel(x, y);
    if (view.showsVolumePlane()) at[view.normalAxis()] = view.slice();
    m_model->layerReaders().waitUntilFree();  // the stroke writes the layer it holds
    const VoxelBox box = m_stroke->moveTo(at);
    if (!box.empty()) m_model->labelsEdited(&box);
}

}  // namespace lucent::ui
