/// @brief The paint brush and the eraser on a slice view: each press .. release is one stroke
/// (one undo step) on the model's label layer; the drawing rules are core's LabelStroke.
#pragma once

#include "lucent/core/LabelBrush.h"
#include "lucent/core/LabelStroke.h"
#include "lucent/ui/ViewTool.h"

#include <functional>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace lucent::ui {

class ViewerModel;

class BrushTool : public ViewTool {
public:
    explicit BrushTool(ViewerModel* model) : m_model(model) {}

    /// Called with the reason when a press cannot paint (the active label is locked).
    std::function<void(const std::string&)> refused;
    /// Called when the outline moved on views other than the one under the mouse (the ball's
    /// cross-sections there): they need drawing again.
    std::function<void()> outlineMoved;

    void setErase(bool erase) { m_erase = erase; }
    bool erase() const { return m_erase; }
    /// What the eraser clears: the active label's voxels (the default) or every unlocked label's.
    void setEraseScope(EraseScope scope) { m_eraseScope = scope; }
    EraseScope eraseScope() const { return m_eraseScope; }
    void setShape(BrushShape shape) { m_shape = shape; }
    BrushShape shape() const { return m_shape; }
    /// The only label value strokes replace (0: clear voxels), or none: any unlocked label
    /// (LabelStroke's `over`).
    void setPaintOver(std::optional<std::uint8_t> over) { m_over = over; }
    std::optional<std::uint8_t> paintOver() const { return m_over; }
    /// Only voxels whose value lies in [first, second] change (LabelStroke::limitToValues); none:
    /// every voxel under the brush.
    void setValueRange(std::optional<std::pair<double, double>> range) { m_range = range; }
    std::optional<std::pair<double, double>> valueRange() const { return m_range; }
    void setDiameterMm(double mm) { m_diameter = mm; }
    double diameterMm() const { return m_diameter; }
    bool stroking() const { return m_stroke != nullptr; }

    bool press(const render::SliceViewGeometry& view, double x, double y, bool shift) override;
    bool drag(const render::SliceViewGeometry& view, double x, double y) override;
    bool release(const render::SliceViewGeometry& view, double x, double y) override;
    /// The brush's footprint around the mouse on the view it is over: a circle of the brush's
    /// diameter in the view's plane, so its size shows before a press; with the ball, also its
    /// cross-section on every other view whose plane cuts it.
    void overlay(const render::SliceViewGeometry& view, render::ViewOverlay& out) const override;
    bool hover(const render::SliceViewGeometry& view, double x, double y) override;
    bool leave() override;

private:
    void paintTo(const render::SliceViewGeometry& view, double x, double y);

    ViewerModel* m_model;
    bool m_erase = false;
    EraseScope m_eraseScope = EraseScope::ActiveLabel;
    BrushShape m_shape = BrushShape::Disc;
    double m_diameter = 5.0;
    std::optional<std::uint8_t> m_over;
    std::optional<std::pair<double, double>> m_range;
    std::shared_ptr<const Volume> m_volume;   // keeps the values alive while a ranged stroke reads them
    std::shared_ptr<const LabelMap> m_layer;  // keeps the layer alive while the stroke edits it
    std::unique_ptr<LabelStroke> m_stroke;
    // Where the mouse is (device pixels) and on which view: the views share one brush.
    std::optional<std::array<double, 2>> m_hover;
    render::Orientation m_hoverView = render::Orientation::Axial;
    Vec3 m_hoverVoxel;  ///< the ball's centre: the mouse's voxel position on the view it is over
};

}  // namespace lucent::ui
