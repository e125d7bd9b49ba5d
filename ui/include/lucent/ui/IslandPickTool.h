/// @brief "Keep the clicked island": a click on a labelled voxel keeps its 6-connected component of
/// that label and clears the label's other components, as one undo step.
#pragma once

#include "lucent/ui/ViewTool.h"

#include <functional>
#include <string>

namespace lucent::ui {

class ViewerModel;

class IslandPickTool : public ViewTool {
public:
    explicit IslandPickTool(ViewerModel* model) : m_model(model) {}

    /// Called with the reason when a click changes nothing (background, a locked label).
    std::function<void(const std::string&)> refused;

    bool press(const render::SliceViewGeometry& view, double x, double y, bool shift) override;
    bool drag(const render::SliceViewGeometry&, double, double) override { return true; }
    bool release(const render::SliceViewGeometry&, double, double) override { return true; }
    void overlay(const render::SliceViewGeometry&, render::ViewOverlay&) const override {}

private:
    ViewerModel* m_model;
};

}  // namespace lucent::ui
