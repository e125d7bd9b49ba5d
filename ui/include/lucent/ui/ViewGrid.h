/// @brief The three slice views and the free pane (for the 3D view) in switchable layouts; the
/// owner of the views' active tool; the views follow the model's drawing settings.
#pragma once

#include "lucent/ui/SliceViewWidget.h"

#include <QFrame>
#include <QWidget>

#include <array>
#include <functional>

class QGridLayout;

namespace lucent::ui {

class View3DWidget;
class ViewTool;

enum class Layout { Single, Grid2x2, OnePlusThree };

/// "1x1", "2x2", "1+3" <-> Layout; false for an unknown name.
bool parseLayout(const QString& name, Layout& layout);
QString layoutName(Layout layout);

class ViewGrid : public QWidget {
    Q_OBJECT
public:
    /// The views draw as `model` says (interpolation, HUD, plane mode) from now on.
    ViewGrid(ViewerModel* model, QWidget* parent = nullptr);
    /// Frees the shared textures and their CUDA registration with a view's GL context current.
    ~ViewGrid() override;

    /// Arranges the views (and ends a maximised view); layoutChanged() tells menus and settings.
    void setLayoutMode(Layout layout);
    Layout layoutMode() const { return m_layout; }
    /// Shows only the active view (toggle); the layout comes back when called again.
    void toggleMaximised();
    bool maximised() const { return m_maximised; }
    SliceViewWidget* view(render::Orientation o) const { return m_views[int(o)]; }
    SliceViewWidget* activeView() const { return m_active; }
    void setActiveView(SliceViewWidget* view);
    QWidget* freePane() const { return m_free; }
    /// The 3D view in the free pane; null in a build without VTK.
    View3DWidget* view3D() const { return m_view3d; }
    SharedTextures& textures() { return m_textures; }
    /// The volume on the GPU (one context per loaded volume), shared by the textures and live runs.
    ResidentVolume& resident() { return m_resident; }
    /// Runs `f` with the GL context of a view that has one current (the textures are shared, so
    /// any view's will do); false, without calling it, before any view was shown.
    bool withGlContext(const std::function<void(SharedTextures&)>& f);
    /// Redraws every view (a live step changed what they show).
    void updateViews();

    /// The one tool the slice views hand mouse input to (null: none, the views navigate). Panels
    /// set it here; activeToolChanged() tells them when another panel's tool took over.
    void setActiveTool(ViewTool* tool);
    ViewTool* activeTool() const { return m_tool; }

signals:
    void hovered(const QString& text);
    void renderError(const QString& message);
    void layoutChanged(Layout layout);
    /// Another view became the active one (the run's HUD panel moves to it).
    void activeViewChanged(SliceViewWidget* view);
    /// Emitted once per change of the tool (not when the same tool is set again).
    void activeToolChanged(ViewTool* tool);

private:
    void arrange();
    void arrangeWidgets();
    /// Interpolation, HUD and plane mode from `model` onto the views, now and on every change.
    void followDrawingSettings(ViewerModel* model);

    ResidentVolume m_resident;  // before the textures, which fill from it
    SharedTextures m_textures{&m_resident};
    std::array<SliceViewWidget*, 3> m_views{};
    QFrame* m_free = nullptr;
    View3DWidget* m_view3d = nullptr;
    QGridLayout* m_grid = nullptr;
    SliceViewWidget* m_active = nullptr;
    ViewTool* m_tool = nullptr;
    Layout m_layout = Layout::Grid2x2;
    bool m_maximised = false;
    bool m_arranging = false;
};

}  // namespace lucent::ui
